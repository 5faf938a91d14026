"""Pushing a game's whole current state to every page that shows it."""
import logging
import time

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from games.presentation import game_state
from infra import sending
from infra.lru import LRU
from infra.outages import UNREACHABLE

log = logging.getLogger(__name__)

# The last states drawn in this process, by (game, version, language), each with the
# ply it shows: the push after a move and the answer to the player's own request draw
# the same thing. The ply is checked too, as for the kept records (games.record).
_drawn = LRU(500)


def render_state(game, record=None, language=None):
    """The out-of-band fragments of a game's state (the same for every page)."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    key = (game.public_id, game.version, language)
    ply, html = _drawn.get(key, (None, None))
    if html is None or ply != game.ply:
        with translation.override(language):
            html = render_to_string("games/includes/state.html", game_state(game, record))
        _drawn.put(key, (game.ply, html))
    return html


def server_now(game):
    """The server's time, sent with every state of a game with clocks (the drawing itself
    is kept and may be older): the page's clocks count from it (static/js/clocks.js).
    Nothing for 60 s a move, whose pages have no clocks."""
    if game.time_control == game.TimeControl.MOVE:
        return ""
    return f'<div id="server-now" hidden hx-swap-oob="true" data-now="{time.time():.3f}"></div>'


def ping(token):
    """Asks the page to answer {"pong": token} at once: the round trip is a player's lag
    credit on a clock (games.turn.clock.Clock.lag_credit)."""
    return f'<div id="clock-ping" hidden hx-swap-oob="true" data-ping="{token}"></div>'


def drawn_state(public_id, version, language):
    """The state this process drew already, or None."""
    return _drawn.get((public_id, version, language), (None, None))[1]


def group_send(group, message):
    """Send to a channel group from synchronous code (after a commit), to the end, even
    if the request is cancelled meanwhile (infra.sending)."""
    sending.group_send(group, message)


async def join(consumer, group):
    """Add a websocket to a group. With Redis away the socket still opens and gets its
    page's current state (read from the database); the channel layer's receive then
    fails the same way, which closes the socket with 1011, and htmx reconnects with
    back-off. Without this, the handshake was answered 500."""
    try:
        await consumer.channel_layer.group_add(group, consumer.channel_name)
    except UNREACHABLE:
        log.warning("websocket for %s opened while Redis is away", group)


async def leave(consumer, group):
    try:
        await consumer.channel_layer.group_discard(group, consumer.channel_name)
    except UNREACHABLE:
        pass  # Redis is away; the group forgets this channel when it expires


def send_state(game, record=None):
    # Whole, idempotent states tagged with the version: a page that misses one
    # loses nothing, and a late one never overwrites a newer state. Drawn once, in
    # the language of whoever made the change (the mover's answer is that same
    # drawing); a page in another language has its own daphne draw it, once per
    # process and version (GameConsumer.game_state), so a move costs one drawing
    # when everyone reads the same language.
    language = translation.get_language() or settings.LANGUAGE_CODE
    group_send(
        game.group_name,
        {"type": "game.state", "group": game.group_name, "html": {language: render_state(game, record, language)},
         "version": game.version, "public": game.is_public},
    )
