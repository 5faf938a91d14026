"""One websocket a page: the streams its URL asks for, each an app's consumer run
inside this one (config.routing says which: a game, a table with its chat, the lobby's
list, the site's announcements with a person's notifications).

`/ws/page/?lang=de&site=1&game=<public_id>&table=<code>&lobby=1` opens the streams
named, in the order the wiring lists them (a game's first, so a page's first frame is
its position, which static/js/moves.js waits for). Each stream is an ordinary consumer
given this socket's scope (its value as the URL route's argument), channel and sends:
it joins its groups, authorises its viewer and draws its pushes as it would alone, and
its channel-layer messages reach it by their type (game.state: the stream with
game_state). Pushes need no tag: they are HTML fragments swapped by id (htmx's ws
extension). A page's frame goes to the stream that takes one of its keys ({"move"...}:
the game's, {"chat_text"...}: the table's); "ping" is answered "pong" here.

The socket is accepted once, before its streams connect; a stream that refuses its
viewer (a private game, a table code that is no table) closes the whole socket with its
code, as the page has nothing more to show live. Reconnecting, the page gets every
stream's current state again, each stream's connect sending it. Imports no app.
"""
import logging
import re
from dataclasses import dataclass
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

from infra.frames import read_frame

log = logging.getLogger(__name__)

MAX_FRAME = 4000  # characters: a chat line with htmx's headers; anything longer is no page's


@dataclass(frozen=True)
class Stream:
    """What a page asks for with `param=<value>` (`pattern`, all of it): a `consumer`
    (a class, or a function of the scope choosing one) given the value as its route's
    `argument`, taking the page's frames that have any of the keys `takes`."""
    param: str
    consumer: object
    pattern: str = "1"
    argument: str = ""
    takes: tuple = ()

    def consumer_class(self, scope):
        return self.consumer if isinstance(self.consumer, type) else self.consumer(scope)


def page_socket(streams):
    """The ASGI application of a page's socket with these streams (in their order)."""
    return type("PageSocket", (PageSocket,), {"streams": tuple(streams)}).as_asgi()


class PageSocket(AsyncWebsocketConsumer):
    streams = ()

    async def connect(self):
        self.opened, self.closed, self.handlers = [], False, {}
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        asked = []
        for stream in self.streams:
            value = (query.get(stream.param) or [None])[0]
            if value is None:
                continue
            if not re.fullmatch(stream.pattern, value):
                await self.close()  # the handshake refused, as a URL with no route is
                return
            asked.append((stream, value))
        if not asked:
            await self.close()
            return
        await self.accept()
        for stream, value in asked:
            consumer = self.stream_consumer(stream, value)
            self.opened.append(consumer)
            await consumer.connect()
            if self.closed:
                return  # refused by that stream: the others are not opened

    def stream_consumer(self, stream, value):
        consumer = stream.consumer_class(self.scope)()
        route = {"args": (), "kwargs": {stream.argument: value} if stream.argument else {}}
        consumer.scope = dict(self.scope, url_route=route)
        consumer.channel_layer, consumer.channel_name = self.channel_layer, self.channel_name
        consumer.base_send = self.stream_send
        consumer.takes = stream.takes
        return consumer

    async def stream_send(self, message):
        """A stream's send: accepted already, and once closed nothing more goes."""
        if self.closed or message["type"] == "websocket.accept":
            return
        if message["type"] == "websocket.close":
            self.closed = True
        await self.base_send(message)

    async def close(self, code=None, reason=None):
        self.closed = True
        await super().close(code=code, reason=reason)

    async def dispatch(self, message):
        """The socket's own events here; a channel-layer message to the stream that
        handles its type. No database connection check per message: a stream asks the
        database through database_sync_to_async, which does it around each call."""
        name = get_handler_name(message)
        if name.startswith("websocket_"):
            return await getattr(self, name)(message)
        handler = self.handlers.get(name)
        if handler is None:
            handler = next((getattr(c, name) for c in self.opened if hasattr(c, name)), None)
            if handler is None:
                log.debug("no stream of this page takes %s", message["type"])
                return
            self.handlers[name] = handler
        await handler(message)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data == "ping":  # the page's heartbeat (static/js/reconnect.js)
            await self.send(text_data="pong")
            return
        consumer = self.taker(text_data)
        if consumer is not None and not self.closed:
            await consumer.receive(text_data=text_data)

    def taker(self, text):
        """The stream a page's frame is for, by its keys; None for anything else."""
        frame = read_frame(text, MAX_FRAME)
        if frame is None:
            return None
        return next((c for c in self.opened if any(key in frame for key in c.takes)), None)

    async def disconnect(self, code):
        for consumer in getattr(self, "opened", ()):
            try:
                await consumer.disconnect(code)
            except Exception:  # one stream's failure leaves the others to leave their groups
                log.exception("a stream of a page socket failed to disconnect")
