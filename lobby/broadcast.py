"""Telling pages: a table's pages re-render their seats, and the lobby's list is
drawn once per language and pushed whole to every lobby page (/ws/lobby/).

Every lobby list carries a version from one counter in Redis (INCR), shared by every
process of every host, so a page drops a list older than the one it shows whatever
the hosts' clocks say (lobby.consumers).
"""
import logging
from functools import lru_cache

import redis
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from games import broadcast
from games.models import Game
from games.outages import UNREACHABLE
from lobby.listing import lobby_tables
from lobby.models import Table

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
VERSION_KEY = "reversi:lobby:version"


@lru_cache(maxsize=1)
def _redis():
    return redis.Redis.from_url(settings.REDIS_URL)


def next_lobby_version():
    """The version of a push about to be drawn: higher than every one before it, in
    any process."""
    return _redis().incr(VERSION_KEY)


def lobby_version():
    """The version of the newest push so far: a list read after this call is at least
    as new. 0 while Redis is away (the page shows what it read and takes any push)."""
    try:
        return int(_redis().get(VERSION_KEY) or 0)
    except UNREACHABLE:
        return 0


def group_send(group, message):
    broadcast.group_send(group, message)  # completes even if the request is cancelled meanwhile


def table_changed(table_id, lobby=True):
    """After commit: every page showing the table re-renders its seats; the lobby too."""
    try:
        group_send(f"table-{table_id}", {"type": "table.changed"})
        if lobby:
            broadcast_lobby()
    except Exception:  # a page misses an update; it catches up on reconnect
        log.exception("could not tell the pages of table %s", table_id)


def table_closed(table_id, lobby=True):
    try:
        group_send(f"table-{table_id}", {"type": "table.closed"})
        if lobby:
            broadcast_lobby()
    except Exception:
        log.exception("could not tell the pages of table %s", table_id)


def on_state_pushed(sender, game, **kwargs):
    """games.signals.state_pushed: a table's game finished; its pages and the lobby follow."""
    if game.kind != Game.Kind.TABLE or game.status != Game.Status.FINISHED:
        return
    for table in Table.objects.filter(game=game):
        table_changed(table.pk, lobby=table.listed)


def on_seats_changed(sender, game_id, **kwargs):
    """games.signals.seats_changed: a player went or came back; the table's pages redraw its seats."""
    for table in Table.objects.filter(game_id=game_id):
        table_changed(table.pk, lobby=False)


def render_lobby():
    return render_to_string("lobby/includes/tables.html", lobby_tables())


def render_lobby_in_every_language():
    rendered = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            rendered[code] = render_lobby()
    return rendered


def broadcast_lobby():
    # Versioned before reading: a page drops a list read earlier than the one it shows.
    version = next_lobby_version()
    group_send(LOBBY_GROUP, {"type": "lobby.tables", "html": render_lobby_in_every_language(), "version": version})
