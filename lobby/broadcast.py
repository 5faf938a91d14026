"""Telling pages: a table's pages re-render their seats, and the lobby's pages get
what changed (the page socket's lobby stream, /ws/page/?lobby=1): the changed tables'
rows, each drawn once per language by the process that made the change, and the counts.

Every lobby change carries a version from one counter in Redis (INCR), shared by every
process of every host: a lobby page applies the changes in order, and one that missed
a version reads its list again (lobby.feed). A change of a table nobody lists
(removed) is a row of None.
"""
import logging

from games import broadcast
from games.models import Game
from infra.outages import UNREACHABLE
from infra.redis_clients import redis_client
from lobby.counts import counts
from lobby.drawing import draw_row_in_every_language
from lobby.listing import row_of
from lobby.models import Table

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
VERSION_KEY = "reversi:lobby:version"


def next_lobby_version():
    """The version of a push about to be drawn: higher than every one before it, in
    any process."""
    return redis_client().incr(VERSION_KEY)


def lobby_version():
    """The version of the newest push so far: a list read after this call is at least
    as new. 0 while Redis is away (the page shows what it read and takes any push)."""
    try:
        return int(redis_client().get(VERSION_KEY) or 0)
    except UNREACHABLE:
        return 0


def group_send(group, message):
    broadcast.group_send(group, message)  # completes even if the request is cancelled meanwhile


def table_changed(table_id, lobby=True):
    """After commit: every page showing the table re-renders its seats; the lobby too."""
    try:
        group_send(f"table-{table_id}", {"type": "table.changed"})
        if lobby:
            lobby_changed([table_id])
    except Exception:  # a page misses an update; it catches up on reconnect
        log.exception("could not tell the pages of table %s", table_id)


def table_closed(table_id, lobby=True):
    try:
        group_send(f"table-{table_id}", {"type": "table.closed"})
        if lobby:
            lobby_changed([table_id], closed=True)
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


def lobby_change(table_id, closed=False):
    """What lobby pages need of one table's change: its id, section (None when the lobby
    no longer lists it), place in the section (lobby.listing.place_of), category, rated
    and row in every language."""
    row = None if closed else row_of(table_id)
    if row is None:
        return {"id": table_id, "section": None}
    return {"id": table_id, "section": row["section"], "place": row["place"], "category": row["category"],
            "rated": row["rated"], "html": draw_row_in_every_language(row)}


def lobby_changed(table_ids, closed=False):
    """Tell every lobby page these tables' rows (after commit). Versioned before reading:
    a page drops what it read earlier than the list it shows."""
    version = next_lobby_version()
    changes = [lobby_change(table_id, closed) for table_id in table_ids]
    group_send(LOBBY_GROUP, {"type": "lobby.changes", "version": version, "changes": changes, "counts": counts()})
