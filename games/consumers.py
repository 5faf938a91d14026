"""A game page's stream of its socket (config.routing: ?game=<public_id>): pushes every
new state, and takes the page's moves.

A move over the socket costs the server no HTTP request, middleware or answer of its
own, so less daphne CPU a move than a post (benchmarks/roundtrip.py with and without
--via http; the figures are in benchmarks/README.md, "A move at an online table").
The socket is Origin-checked (config/asgi.py), which is what CSRF is for a form; the
seat is authorised as for a form post, from the session as it is now. Pages without
JavaScript, or whose socket is down, post the same move over HTTP.
"""
import asyncio
import logging
import secrets
import time
from importlib import import_module
from types import SimpleNamespace
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth import get_user
from django.db import OperationalError
from django.utils import translation

from games import drawing, endings, errors, gone, services, signals
from games.access import GUEST_TOKEN_KEY, Viewer, can_watch, watchable_game
from games.drawing import render_state
from games.fanout import game_fanout
from games.models import Game
from games.responses import busy_message, page_ply, state_and_message
from games.thinking import Asker
from infra.frames import read_frame, write_frame
from infra.outages import UNREACHABLE
from infra.presence import presence
from infra.write_waits import WritesBusy

log = logging.getLogger(__name__)

SessionStore = import_module(settings.SESSION_ENGINE).SessionStore


def parse_move(text):
    """(square, ply as sent) from a page's frame, or None for anything that is no move."""
    frame = read_frame(text, 200)
    if frame is None or not isinstance(frame.get("move"), str):
        return None
    ply = frame.get("ply")
    return frame["move"][:8], str(ply) if type(ply) is int else ply


# What a page may ask over its socket besides a move ({"action": "resign"}): each a
# games.endings call given the game and the viewer, as its form posts it.
ACTIONS = {"resign": endings.resign, "offer_draw": endings.offer_draw,
           "accept_draw": endings.accept_draw, "decline_draw": endings.decline_draw, "abort": endings.abort,
           "request_takeback": endings.request_takeback, "accept_takeback": endings.accept_takeback,
           "decline_takeback": endings.decline_takeback, "claim_win": endings.claim_win,
           "computer_for_gone": endings.computer_for_gone}


def parse_action(text):
    """The name of an action in ACTIONS a page's frame asks for, or None."""
    frame = read_frame(text, 200)
    action = frame.get("action") if frame is not None else None
    return action if isinstance(action, str) and action in ACTIONS else None


# A player's socket is pinged with a push at most this often (seconds): the lag moves slowly.
PING_EVERY = 15


def parse_pong(text):
    """The token of a page's {"pong": token}, or None."""
    frame = read_frame(text, 100) if text and '"pong"' in text else None
    token = frame.get("pong") if frame is not None else None
    return token if isinstance(token, str) else None


def requested_language(scope):
    """The page says its language in the socket's URL (?lang=de); pushes are drawn in it."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))  # any bytes at all
    requested = (query.get("lang") or [""])[0]
    return requested if requested in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


class WithoutDatabaseHop:
    """A consumer whose pushes need no database connection check. Channels closes stale
    database connections before every message, in one thread shared by the whole
    process: a thread switch per page per push. What such a consumer asks the database
    goes through database_sync_to_async, which does the same around each call, so a
    push that asks nothing skips it (benchmarks/README.md, "Chat at a table")."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class GameConsumer(WithoutDatabaseHop, AsyncWebsocketConsumer):

    async def connect(self):
        self.viewer = Viewer.from_scope(self.scope)
        self.game, self.seated, self.here_as = await self.find_game(self.scope["url_route"]["kwargs"]["public_id"])
        if self.game is None:
            await self.close(code=4404)
            return
        self.language = requested_language(self.scope)
        self.version = -1
        self.pinged = (None, 0.0)  # before any push: one may come as soon as the group is joined
        # Join first, then send the current state: nothing can fall in between.
        self.group = self.game.group_name
        try:
            await game_fanout().join(self, self.group)
        except UNREACHABLE:  # as games.broadcast.join: the socket opens, gets the state, then fails
            log.warning("websocket for %s opened while Redis is away", self.group)
        await self.accept()
        if self.first_showing is not None:  # before the state is read: it carries a first move's new start
            await self.board_shown(self.first_showing)
        state = await self.current_state()
        if state is None:  # deleted meanwhile
            await self.close(code=4404)
            return
        await self.push(*state)
        if self.here_as:
            self.place = gone.seat_place(self.game.public_id, self.here_as)
            self.presence_task = asyncio.create_task(self.keep_here())
        elif self.game.kind == Game.Kind.TABLE and self.game.status == Game.Status.PLAYING:
            self.place = gone.watchers_place(self.game.public_id)
            self.presence_task = asyncio.create_task(self.keep_watching())

    async def keep_here(self):
        """While this socket is open its player is here (games.gone), in every process:
        the site's presence marks it every heartbeat."""
        try:
            if await presence.enter(self.channel_name, self.place):
                await self.seats_changed(self.game_ids[0])
        except UNREACHABLE as error:  # Redis away: this player counts as here (games.gone)
            log.warning("presence of game %s not kept (%s)", self.game_ids[1], error)

    async def keep_watching(self):
        """While this socket of a spectator is open, the table counts it (games.gone)."""
        try:
            await presence.enter(self.channel_name, self.place)
            await self.seats_changed(self.game_ids[0])
        except UNREACHABLE as error:
            log.warning("spectators of game %s not counted (%s)", self.game_ids[1], error)

    @database_sync_to_async
    def seats_changed(self, game_id):
        signals.seats_changed.send(sender=Game, game_id=game_id)

    async def disconnect(self, code):
        place = getattr(self, "place", None)
        if place is not None:
            self.presence_task.cancel()
            try:
                if await presence.leave(self.channel_name, place) or place.startswith("watch:"):
                    await self.seats_changed(self.game_ids[0])
            except UNREACHABLE as error:
                log.warning("presence of game %s not kept (%s)", self.game_ids[1], error)
        if getattr(self, "group", None) is not None:
            await game_fanout().leave(self, self.group)

    async def receive(self, text_data=None, bytes_data=None):
        """A move: {"move": "d3", "ply": "12"}, with the ply of the position the page
        showed; or an action: {"action": "resign"}. Played, this page gets the new state at once (the same drawing the push
        carries; the push's own copy is then skipped); refused, it gets the position as
        it now is with the reason, and nothing changed. A pong answers the server's own
        ping (the round trip credited at a clock, static/js/clocks.js). Anything else
        is ignored."""
        pong = parse_pong(text_data)
        if pong is not None and self.game is not None:
            await self.measured(pong)
            return
        if self.game is None:
            return
        move, action = parse_move(text_data), parse_action(text_data)
        if move is not None:
            square, ply = move
            answer = await self.change(lambda game, viewer: services.play_move(
                game, square, expected_ply=page_ply(ply), viewer=viewer, asker=Asker.from_scope(self.scope, viewer)))
        elif action is not None:  # {"action": "resign"}: as the action's form posts it
            answer = await self.change(ACTIONS[action])
        else:
            return
        if answer is not None:
            await self.push(*answer)

    @database_sync_to_async
    def change(self, apply):
        """(html, version, refused) to answer a move or an action with (`apply(game,
        viewer)`, a games.services or games.endings call), or None when this page may no
        longer see the game (the next push closes it)."""
        viewer = self.viewer_now()
        with translation.override(self.language):
            try:
                game = apply(self.game, viewer)
            except errors.DatabaseBusy as busy:  # the position is not read again: the page keeps its own
                return busy_message(busy, self.version), self.version, True
            except WritesBusy as busy:  # an action: said on the message line, not sent again by itself
                return busy_message(busy, self.version, retry=False), self.version, True
            except errors.GameError as error:
                game = Game.objects.filter(pk=self.game.pk).prefetch_related("seats").first()
                if game is None or not can_watch(game, viewer):
                    return None
                return state_and_message(game, error), game.version, True
            return render_state(game), game.version, False  # the push finds it drawn (games.drawing)

    def viewer_now(self):
        """Who this page's session is now, read afresh as an HTTP request would: signed
        out or in, or seated as a guest, since the socket opened."""
        request = SimpleNamespace(session=SessionStore(session_key=self.scope["session"].session_key))
        user = get_user(request)
        token = request.session.get(GUEST_TOKEN_KEY, "")
        return Viewer(user=user if user.is_authenticated else None, guest_token=token)

    async def game_events(self, message):
        """A push of the game's events (games.events.message): this page shows the whole
        state they lead to, drawn here once per process, version and language (games.drawing)."""
        if self.game is None:
            return  # refused already; a message that was on its way
        # Who may watch can change while the socket is open (a shared game reopened
        # with Undo is private again): checked on every push of a private game, not
        # only on connect. Once the game has started a player keeps their seat for
        # good, so a player's socket is not asked again (no database call per move).
        if not message.get("public") and not self.seated and not await self.may_watch():
            await self.refuse()
            return
        version = message["version"]
        if version <= self.version:
            return  # shown already (the answer to this page's own move), or older
        html = drawing.drawn_state(self.game.public_id, version, self.language)
        state = (html, version) if html is not None else await self.state_at(version, message["events"])
        if state is not None:  # else deleted meanwhile
            await self.push(*state)

    @database_sync_to_async
    def state_at(self, version, events):
        return drawing.state_at(self.game.pk, self.game.public_id, version, self.language, events)

    async def refuse(self):
        self.game = None  # pushes on their way are dropped until disconnect() leaves the group
        await self.close(code=4403)  # not a code htmx reconnects after

    async def push(self, html, version, refusal=False):
        if version < self.version:
            return  # an older state that arrived late
        if version == self.version and not refusal:
            return  # shown already (the answer to this page's own move)
        self.version = version
        ping = ""
        if self.seated and self.game.time_control == Game.TimeControl.CLOCK and time.monotonic() - self.pinged[1] > PING_EVERY:
            self.pinged = (secrets.token_hex(4), time.monotonic())
            ping = drawing.ping(self.pinged[0])
        text = html + drawing.server_now(self.game) + ping
        if not write_frame(self, text):  # framed once for the spectators sent the same
            await self.send(text_data=text)

    async def measured(self, token):
        """The page answered this socket's ping: the round trip is the player's lag credit."""
        sent_token, sent = self.pinged
        if token != sent_token:
            return  # an old or made-up answer
        self.pinged = (None, sent)
        await self.record_lag(time.monotonic() - sent)

    @database_sync_to_async
    def record_lag(self, round_trip):
        try:
            services.record_lag(self.game, self.viewer_now(), round_trip)
        except WritesBusy:  # measured again at the next ping
            log.warning("game %s: lag not recorded, the database is busy", self.game.pk)

    @database_sync_to_async
    def find_game(self, public_id):
        """(the game if this viewer may watch it, whether they hold a seat in it for good,
        the colour this socket makes them here at: their seat in a running game, or "")."""
        game = watchable_game(public_id, self.viewer)
        seated = game is not None and self.holds_seat_for_good(game)
        seat = self.viewer.seat_in(game) if seated and game.status == Game.Status.PLAYING else None
        if game is not None:
            self.game_ids = (game.pk, game.public_id)  # kept for disconnect, whatever happens to self.game
        here = seat is not None and seat.left_at is None
        # On a clock, this player's page shows the running game for the first time (services.board_shown).
        first = here and game.time_control == Game.TimeControl.CLOCK and seat.board_shown_at is None
        self.first_showing = seat if first else None
        return game, seated, seat.colour if here else ""

    @database_sync_to_async
    def board_shown(self, seat):
        try:
            services.board_shown(self.game, seat)
        except OperationalError as error:  # busy (infra.write_waits): the first move keeps its time, the page opens
            log.warning("game %s: first showing to %s not kept (%s)", self.game.public_id, seat.colour, error)

    @database_sync_to_async
    def may_watch(self):
        game = Game.objects.filter(pk=self.game.pk).prefetch_related("seats").first()
        if game is None:
            return False
        self.seated = self.holds_seat_for_good(game)  # a seat taken since the socket opened
        return self.seated or can_watch(game, self.viewer)

    def holds_seat_for_good(self, game):
        """A seat can be given back only while the table waits for players."""
        return game.status != Game.Status.WAITING and self.viewer.seat_in(game) is not None

    @database_sync_to_async
    def current_state(self):
        game = Game.objects.filter(pk=self.game.pk).first()
        if game is None:
            return None
        with translation.override(self.language):
            return render_state(game), game.version
