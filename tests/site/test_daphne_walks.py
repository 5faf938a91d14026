"""daphne checks its open connections a slice at a time (config.daphne_walks): every
connection still gets its pings, its time-outs and, once its application has ended,
its reaping, but thousands of open pages never hold the event loop in one pass."""
import asyncio
import base64
import os
import socket
import struct
import time

import pytest
from daphne.server import Server
from twisted.internet import reactor
from websockets.sync.client import connect

from config.daphne_walks import STEP, Walk, spread_daphne_walks
from tests import servers

pytestmark = pytest.mark.django_db(transaction=True)

PING = 0x9


def test_a_walk_goes_through_every_connection_once_a_round_in_slices():
    connections = {f"page {number}": {} for number in range(1000)}
    walk = Walk(slices=20)
    seen = [walk.next_slice(connections) for _ in range(20)]
    assert max(len(part) for part in seen) == 50
    assert sorted(page for part in seen for page in part) == sorted(connections)


def test_a_page_opened_meanwhile_waits_for_the_next_round_and_one_closed_is_skipped():
    connections = {f"page {number}": {} for number in range(10)}
    walk = Walk(slices=5)
    first = walk.next_slice(connections)
    connections["late page"] = {}
    del connections["page 9"]
    rest = [page for _ in range(4) for page in walk.next_slice(connections)]
    assert "late page" not in first + rest and "page 9" not in rest
    assert sorted(first + rest) == sorted(f"page {number}" for number in range(9))
    assert "late page" in [page for _ in range(5) for page in walk.next_slice(connections)]


class Page:
    """What daphne's walks ask of a protocol: its time-outs checked."""

    def __init__(self):
        self.checks = 0

    def check_timeouts(self):
        self.checks += 1


def test_daphnes_own_checks_run_on_each_slice_and_reap_what_has_ended():
    spread_daphne_walks()  # as config.asgi does
    loop = asyncio.new_event_loop()
    server = Server(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"])  # never run
    ended, running = loop.create_future(), loop.create_future()
    ended.set_result(None)
    left, open_, done_but_open = Page(), Page(), Page()
    server.connections = {
        left: {"application_instance": ended, "disconnected": time.time()},
        open_: {"application_instance": running},
        done_but_open: {"application_instance": ended},
        **{Page(): {"application_instance": running} for _ in range(997)},
    }
    pages = list(server.connections)
    try:
        for _ in range(round(2.0 / STEP)):
            server.timeout_checker()
        for _ in range(round(1.0 / STEP)):
            server.application_checker()
    finally:
        for call in reactor.getDelayedCalls():  # the next slices: this reactor never runs
            call.cancel()
        loop.close()
    assert [page.checks for page in pages] == [1] * 1000  # each once in the two-second round
    assert left not in server.connections  # disconnected and its application ended: gone
    assert "application_instance" not in server.connections[done_but_open]
    assert server.connections[open_] == {"application_instance": running}


def handshake(port, path):
    """A websocket opened on a bare socket, which answers nothing: a page whose network died."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=15)
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                        f"Origin: http://127.0.0.1:{port}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += connection.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return connection


def frames_until_closed(connection):
    """The opcodes of the frames the server sends until it drops the connection."""
    opcodes, data = [], b""
    while True:
        try:
            chunk = connection.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return opcodes
        data += chunk
        while len(data) >= 2:
            length, start = data[1] & 0x7F, 2
            if length == 126:
                length, start = struct.unpack("!H", data[2:4])[0], 4
            elif length == 127:
                length, start = struct.unpack("!Q", data[2:10])[0], 10
            if len(data) < start + length:
                break
            opcodes.append(data[0] & 0x0F)
            data = data[start + length:]


@pytest.fixture
def quick_pinging_site(tmp_path):
    """daphne pinging every page each second and letting go of one that has not answered in two."""
    site = servers.start_daphne(tmp_path, name="pinging-daphne", options=["--ping-interval", "1", "--ping-timeout", "2"])
    yield site
    site.stop()


def test_a_page_that_stops_answering_is_pinged_and_let_go_and_one_that_answers_stays(quick_pinging_site):
    port = quick_pinging_site.port
    with connect(f"ws://127.0.0.1:{port}/ws/site/", origin=f"http://127.0.0.1:{port}") as answering:
        silent = handshake(port, "/ws/site/")
        began = time.monotonic()
        opcodes = frames_until_closed(silent)
        silent.close()
        assert PING in opcodes
        # A ping at most a round (2 s) after the interval, then the time-out.
        assert time.monotonic() - began < 1 + 2 + 2 + 3
        assert answering.ping().wait(5)
