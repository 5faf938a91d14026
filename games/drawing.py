"""Drawing a game's state into HTML, at the edge only: the game sockets (games.consumers)
and the answers to a page's own requests (games.views, games.responses) import it;
the domain and the workers push events as data (games.events) and draw nothing.

A push is drawn once per daphne process, version and language, from the game read
once per process and version (with the moves kept in games.record), whoever asks
first: a page of that game here, or the answer to the move itself when it was made
here (the push then finds it drawn).
"""
import time

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from games.models import Game
from games.presentation import game_state
from games.record import GameRecord
from infra.lru import LRU

# The last states drawn in this process, by (game, version, language), each with the
# ply it shows: the push after a move and the answer to the player's own request draw
# the same thing. The ply is checked too, as for the kept records (games.record).
_drawn = LRU(500)

# The last games read here to draw a push, by (game, version): a second language reads
# nothing again.
_read = LRU(200)


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


def drawn_state(public_id, version, language):
    """The state this process drew already, or None."""
    return _drawn.get((public_id, version, language), (None, None))[1]


def state_at(game_id, public_id, version, language, events=()):
    """(html, version) of the game at `version` or later, drawn in `language`: what this
    process drew or read at that version, else the game as it is now (read once for
    every language; its moves are those kept here brought up by the push's `events`
    when they follow on, GameRecord.follow). None for a game deleted meanwhile.
    Synchronous: the database."""
    html = drawn_state(public_id, version, language)
    if html is not None:
        return html, version
    record = _read.get((public_id, version))
    if record is None:
        game = Game.objects.filter(pk=game_id).prefetch_related("seats").first()
        if game is None:
            return None
        GameRecord.follow(game_id, public_id, events)
        record = GameRecord(game)
        record.keep()  # for the next push: its events bring it up
        _read.put((public_id, game.version), record)
    return render_state(record.game, record, language), record.game.version


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
