"""A move seen by many spectators is framed once for all of them (infra.frames): each
open page on daphne gets the same frame written to its socket, a page in its
handshake or served elsewhere is sent to as usual, and a page that has left gets
nothing."""
import asyncio
import json
import socket
from functools import partial

import pytest
from autobahn.twisted.websocket import WebSocketServerFactory

from games import Variant
from games.access import Viewer
from infra.frames import KnowsDaphneProtocol, write_frame
from lobby import actions
from tests.people import make_user
from tests.site.test_two_daphnes import Player, legal_square, state_at

pytestmark = [pytest.mark.django_db(transaction=True)]

OPEN, CONNECTING = 3, 1


class Server:
    """daphne's Server as a page's send sees it: its connections."""

    def __init__(self):
        self.connections = {}

    async def handle_reply(self, protocol, message):
        raise AssertionError("sent the usual way")


class Transport:
    """Twisted's TCP transport as far as sending goes: its buffer, its socket (one end of
    a real socket pair) and its write, which buffers for the event loop's next turn."""

    def __init__(self):
        self.socket, self.peer = socket.socketpair()
        self.socket.setblocking(False)
        self.dataBuffer, self.offset, self._tempDataLen = b"", 0, 0
        self.connected, self.disconnecting = 1, 0
        self.written = []

    def write(self, data):
        self.written.append(bytes(data))
        self._tempDataLen += len(data)

    def received(self):
        self.peer.setblocking(False)
        try:
            return self.peer.recv(1 << 20)
        except BlockingIOError:
            return b""


class Protocol:
    """daphne's websocket protocol as far as a frame written to it goes: the socket's
    state, autobahn's factory (a real one) and its queue and compression."""

    STATE_OPEN = OPEN

    def __init__(self, server, factory, state=OPEN):
        self.server, self.factory, self.state = server, factory, state
        self.transport, self.send_queue, self._perMessageCompress = Transport(), [], None
        self.sent_by_autobahn = []
        server.connections[self] = {"connected": 0}

    def sendPreparedMessage(self, prepared):  # noqa: N802 (autobahn's name)
        self.sent_by_autobahn.append(prepared)


class CountingFactory(WebSocketServerFactory):
    prepared = 0

    def prepareMessage(self, payload, isBinary=False, doNotCompress=False):  # noqa: N802 (autobahn's name)
        self.prepared += 1
        return super().prepareMessage(payload, isBinary, doNotCompress)


class Page:
    """A consumer, with the scope KnowsDaphneProtocol gave it for daphne's `send`."""

    def __init__(self, send):
        self.scope = {"type": "websocket"}

        async def application(scope, receive, send):
            self.scope = scope

        asyncio.run(KnowsDaphneProtocol(application)(self.scope, None, send))


def test_pages_sent_the_same_text_share_one_frame_sent_at_once_and_a_page_that_left_gets_none():
    server, factory = Server(), CountingFactory()
    first, second, third, gone = (Protocol(server, factory) for _ in range(4))
    server.connections[gone]["disconnected"] = 1.0
    pages = [Page(partial(server.handle_reply, protocol)) for protocol in (first, second, gone, third)]
    assert all(write_frame(page, "<div>ply 1</div>") for page in pages)
    frame = first.transport.received()
    assert frame.endswith(b"<div>ply 1</div>") and frame[0] == 0x81  # one final text frame
    assert second.transport.received() == third.transport.received() == frame
    assert factory.prepared == 1 and gone.transport.received() == b""
    assert not any(protocol.transport.written or protocol.sent_by_autobahn for protocol in (first, second, third))
    assert write_frame(pages[0], "<div>ply 2</div>")
    assert first.transport.received().endswith(b"<div>ply 2</div>") and factory.prepared == 2


def test_a_frame_waits_behind_what_is_already_buffered_and_what_the_socket_refuses_is_buffered():
    server, factory = Server(), WebSocketServerFactory()
    behind, full = Protocol(server, factory), Protocol(server, factory)
    behind.transport.write(b"earlier")
    assert write_frame(Page(partial(server.handle_reply, behind)), "<div>later</div>")
    assert behind.transport.written[0] == b"earlier" and behind.transport.written[1].endswith(b"<div>later</div>")
    assert behind.transport.received() == b""
    while True:  # the page reads nothing: its socket's buffers fill up
        try:
            full.transport.socket.send(b"x" * 65536)
        except BlockingIOError:
            break
    assert write_frame(Page(partial(server.handle_reply, full)), "<div>" + "y" * 100000 + "</div>")
    assert b"".join(full.transport.written).endswith(b"</div>")


def test_a_page_in_its_handshake_or_not_on_daphne_is_sent_to_the_usual_way_and_one_compressing_by_autobahn():
    server, factory = Server(), WebSocketServerFactory()
    handshaking = Protocol(server, factory, state=CONNECTING)
    assert not write_frame(Page(partial(server.handle_reply, handshaking)), "<div></div>")
    assert handshaking.transport.received() == b"" and not handshaking.transport.written

    async def communicators_send(message):
        pass

    assert not write_frame(Page(communicators_send), "<div></div>")
    assert not write_frame(object(), "<div></div>")

    compressing = Protocol(server, factory)
    compressing._perMessageCompress = object()  # the page asked for permessage-deflate
    assert write_frame(Page(partial(server.handle_reply, compressing)), "<div>ply 3</div>")
    assert compressing.sent_by_autobahn[0].payload == b"<div>ply 3</div>"


def test_every_spectator_of_a_table_gets_the_move_once_and_the_same(live_site):
    alice, bob = make_user("alice"), make_user("bob")
    table = actions.open_table(alice, Variant(board="6x6"), listed=True)
    actions.join(table, Viewer(user=bob))
    game = table.game
    players = [Player(person, live_site) for person in (alice, bob)]
    spectators = [Player(make_user(name), live_site) for name in ("carol", "dave", "erin", "frank")]

    async def story():
        alices = await players[0].socket(game).__aenter__()
        screens = [await watcher.socket(game).__aenter__() for watcher in spectators]
        try:
            shown = await state_at(alices, 0)
            for screen in screens:
                await state_at(screen, 0)
            await screens[-1].close()  # Frank leaves before the move
            await alices.send(json.dumps({"move": legal_square(shown), "ply": "0"}))
            seen = [await state_at(screen, 1) for screen in screens[:-1]]
            assert seen[0] == seen[1] == seen[2]
            for screen in screens[:-1]:
                with pytest.raises(asyncio.TimeoutError):
                    await asyncio.wait_for(screen.recv(), timeout=0.5)  # once only
        finally:
            for ws in [alices, *screens]:
                await ws.close()

    asyncio.run(story())
