"""A push's websocket frame framed once for all the pages of a process that show it.

A consumer's send goes through Channels to daphne (Server.handle_reply), which hands
the text to autobahn to be framed for that one page: for a move seen by 500
spectators, 500 times the same work. Where daphne serves the page and its socket is
open, the frame is framed once by autobahn (a prepared message, reused for
consecutive pages sent the same text) and sent on the page's socket at once
(benchmarks/README.md, "Spectators"). Anywhere else (a socket still in its handshake,
a test's communicator, another server) the page is sent to as usual.
"""
import json
from functools import partial

_last = (None, None)  # (text, autobahn's prepared frame of it); only the event loop's thread uses it


def daphne_protocol(send):
    """The daphne protocol behind an ASGI send, or None: daphne gives an application
    `partial(server.handle_reply, protocol)` as its send."""
    if isinstance(send, partial) and getattr(send.func, "__name__", "") == "handle_reply" and send.args:
        protocol = send.args[0]
        if hasattr(protocol, "sendPreparedMessage") and hasattr(protocol, "factory"):
            return protocol
    return None


class KnowsDaphneProtocol:
    """ASGI middleware, outermost (Channels' session middleware wraps the send): a
    websocket's scope carries the daphne protocol behind it, if any."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            protocol = daphne_protocol(send)
            if protocol is not None:
                scope = dict(scope, daphne_protocol=protocol)
        return await self.application(scope, receive, send)


def write_frame(consumer, text):
    """Write `text` to the consumer's page as one frame if daphne serves it over an
    open socket, and say whether it did (if not, send it the usual way). A page that
    has disconnected gets nothing, as daphne's handle_reply has it."""
    global _last
    protocol = getattr(consumer, "scope", {}).get("daphne_protocol")
    if protocol is None or protocol.state != protocol.STATE_OPEN:
        return False
    details = protocol.server.connections.get(protocol)
    if details is None or details.get("disconnected"):
        return True
    if _last[0] != text:
        _last = (text, protocol.factory.prepareMessage(text.encode("utf8"), False))
    if protocol._perMessageCompress is not None or protocol.send_queue:
        protocol.sendPreparedMessage(_last[1])  # autobahn compresses it, or queues it behind the others
    else:
        send_now(protocol.transport, _last[1].payloadHybi)
    return True


def send_now(transport, data):
    """Send `data` on the socket at once when nothing is waiting to go before it.
    Twisted's write would register a writer with the event loop and send on its next
    turn: two epoll changes and a wake-up a frame, a third of daphne's busy time
    with 500 spectators. What the socket does not take is written the usual way."""
    try:
        waiting = len(transport.dataBuffer) - transport.offset + transport._tempDataLen
        sock = transport.socket
    except AttributeError:  # not a Twisted TCP or Unix socket (TLS, a test's transport)
        transport.write(data)
        return
    if waiting or not transport.connected or transport.disconnecting:
        transport.write(data)
        return
    try:
        sent = sock.send(data)
    except OSError:  # the socket is full, or broke: Twisted's write sends it later, or closes it
        sent = 0
    if sent < len(data):
        transport.write(data[sent:])


def read_frame(text, limit):
    """A page's frame as a JSON object (a dict), or None for anything else: empty, over
    `limit` characters, not JSON, nested past Python's limit, or not an object."""
    if not text or len(text) > limit:
        return None
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return frame if isinstance(frame, dict) else None
