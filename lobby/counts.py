"""The lobby's two counts: people online and games being played.

People online are those with any page of the site open, in any daphne process
(infra.presence: every page's socket says who it is, an account, a session or a
visitor, every heartbeat; a killed process's people drop out by themselves).

Games being played are the online tables' games under way: a game against the
computer is one visitor's, and often left unfinished."""
from django.db import connection

from games.models import Game
from infra.outages import UNREACHABLE
from infra.presence import presence


def counts():
    """{"online": people, "playing": games being played} now."""
    try:
        online = presence.online_count()
    except UNREACHABLE:
        online = 0
    return {"online": online, "playing": _playing()}


def _playing():
    # every lobby change sends the counts: a plain statement costs a quarter of the
    # ORM's count (benchmarks/README.md, "The lobby at a crowd's scale")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {Game._meta.db_table} WHERE status = %s AND kind = %s",
                       [Game.Status.PLAYING, Game.Kind.TABLE])
        return cursor.fetchone()[0]
