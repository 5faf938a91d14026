"""daphne checks its open connections only when a check can be due
(config.daphne_checks): every connection still gets its pings, its time-outs and,
once its application has ended or it has left, its reaping, but thousands of idle
pages cost nothing between their pings."""
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

from config.daphne_checks import BATCH, PERIOD, STEP, DueChecks, due_checks, next_check, schedule_daphne_checks
from tests import servers

pytestmark = pytest.mark.django_db(transaction=True)

PING = 0x9
OPEN, CONNECTING = 3, 1


def test_due_checks_come_off_earliest_first_and_a_batch_at_a_time():
    checks = DueChecks()
    for number in reversed(range(120)):
        checks.check_at(100.0 + number, f"page {number}")
    checks.check_at(500.0, "page due later")
    assert checks.take_due(99.0) == []
    first = checks.take_due(300.0)
    assert first == [f"page {number}" for number in range(BATCH)]
    rest = checks.take_due(300.0) + checks.take_due(300.0) + checks.take_due(300.0)
    assert rest == [f"page {number}" for number in range(BATCH, 120)]
    assert checks.take_due(499.0) == [] and checks.take_due(500.0) == ["page due later"]


class Page:
    """What daphne's checks ask of a websocket protocol (as daphne.ws_protocol has it):
    its state, when it opened and was last pinged, and check_timeouts, which pings
    once more than the ping interval has passed."""

    STATE_OPEN = OPEN

    def __init__(self, server, state=OPEN):
        self.server, self.state = server, state
        self.socket_opened = self.last_ping = time.time()
        self.checked, self.pinged = [], []

    def check_timeouts(self):
        now = time.time()
        self.checked.append(now)
        if self.state == OPEN and now - self.last_ping > self.server.ping_interval:
            self.pinged.append(now)
            self.last_ping = now


class Request:
    """An HTTP request's protocol: only its duration to check."""

    def __init__(self):
        self.checked = []

    def check_timeouts(self):
        self.checked.append(time.time())


def a_server(**options):
    schedule_daphne_checks()  # as config.asgi does
    server = Server(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"], **options)  # never run
    server.connections = {}  # as Server.run starts it
    return server


def test_an_open_page_is_next_looked_at_when_its_ping_falls_due_and_anything_else_a_period_on():
    server = a_server(ping_interval=20, websocket_timeout=86400)
    page = Page(server)
    page.last_ping, page.socket_opened = 1000.0, 990.0
    assert next_check(server, page, now=1001.0) == 1020.0 + STEP
    assert next_check(server, page, now=1030.0) == 1030.0 + STEP  # overdue: at once
    server.websocket_timeout = 25  # the page's time is up before its next ping
    assert next_check(server, page, now=1001.0) == 1015.0 + STEP
    assert next_check(server, Page(server, state=CONNECTING), now=1001.0) == 1001.0 + PERIOD
    assert next_check(server, Request(), now=1001.0) == 1001.0 + PERIOD


def test_idle_pages_are_looked_at_only_when_their_ping_is_due_and_requests_every_period():
    # Pinged every 2.5 s: daphne's passes, every 2 s, would look at a page at 2 s (too
    # early), ping it at 4, look again at 6 for nothing, ping at 8.
    server = a_server(ping_interval=2.5)
    pages = [Page(server) for _ in range(500)]
    requests = [Request() for _ in range(100)]
    connected = time.time()
    for protocol in pages + requests:
        server.protocol_connected(protocol)
    try:
        deadline = time.monotonic() + 30
        while any(len(page.pinged) < 2 for page in pages) and time.monotonic() < deadline:
            server.timeout_checker()
            time.sleep(STEP)
    finally:
        for call in reactor.getDelayedCalls():  # the next looks: this reactor never runs
            call.cancel()
    for page in pages:
        assert len(page.pinged) >= 2
        assert page.checked[0] >= connected + PERIOD  # the first look a period after it opened,
        assert page.checked[1:] == page.pinged  # then one look for each ping, none between,
        gaps = [later - earlier for earlier, later in zip(page.pinged, page.pinged[1:])]
        assert min(gaps) > server.ping_interval  # and none early
    for request in requests:
        gaps = [later - earlier for earlier, later in zip(request.checked, request.checked[1:])]
        assert request.checked[0] >= connected + PERIOD and all(gap >= PERIOD for gap in gaps)


def test_daphnes_own_reaping_runs_on_what_ended_or_left_and_kills_what_will_not_end():
    server = a_server(application_close_timeout=0.5)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    never = loop.create_future()

    async def application(scope, receive, send):
        if scope["ends"]:
            return
        await never

    server.application = application
    ended_and_left, ended_still_open, left_still_running = Page(server), Page(server), Page(server)
    idle = [Page(server) for _ in range(997)]
    for page, ends in [(ended_and_left, True), (ended_still_open, True), (left_still_running, False)] + [
            (page, False) for page in idle]:
        server.protocol_connected(page)
        server.create_application(page, {"type": "websocket", "ends": ends})
    server.protocol_disconnected(ended_and_left)
    server.protocol_disconnected(left_still_running)
    try:
        loop.run_until_complete(asyncio.sleep(0.05))  # the applications start; two end
        assert due_checks(server).to_reap == {ended_and_left, ended_still_open, left_still_running}
        server.application_checker()
        assert ended_and_left not in server.connections
        assert "application_instance" not in server.connections[ended_still_open]
        assert due_checks(server).to_reap == {left_still_running}  # waits for its application
        assert all("application_instance" in server.connections[page] for page in idle)
        server.connections[left_still_running]["disconnected"] -= 1  # it left past application_close_timeout
        server.application_checker()  # cancels it...
        loop.run_until_complete(asyncio.sleep(0.05))
        server.application_checker()  # ...and lets it go
        assert left_still_running not in server.connections and not due_checks(server).to_reap
        assert len(server.connections) == 998
    finally:
        for call in reactor.getDelayedCalls():
            call.cancel()
        never.cancel()
        loop.run_until_complete(asyncio.sleep(0.05))
        asyncio.set_event_loop(None)
        loop.close()


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
    with connect(f"ws://127.0.0.1:{port}/ws/page/?site=1", origin=f"http://127.0.0.1:{port}") as answering:
        silent = handshake(port, "/ws/page/?site=1")
        began = time.monotonic()
        opcodes = frames_until_closed(silent)
        silent.close()
        assert PING in opcodes
        # The first look, a period (2 s) after it opened, pings it; then the time-out.
        assert time.monotonic() - began < 1 + 2 + 2 + 3
        assert answering.ping().wait(5)
