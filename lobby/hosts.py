"""Which waiting tables' hosts came, went or have been away too long since the last
check (lobby.tasks, every minute): their rows are pushed again, or taken off the list.

The state each table was last pushed with (here, away, gone) is kept in one Redis hash,
replaced whole by each check; only the beat's worker writes it."""
from datetime import timedelta

from django.utils import timezone

from games.models import Game
from infra.redis_clients import redis_client
from lobby import host_presence
from lobby.listing import LOBBY_WAITING_FOR
from lobby.models import Table

KEY = "reversi:lobby:hosts"


def host_states():
    """{table id: "here", "away" or "gone"} of every listed waiting table."""
    waiting = Table.objects.filter(listed=True, game__status=Game.Status.WAITING,
                                   created_at__gte=timezone.now() - LOBBY_WAITING_FOR)
    gone = set(host_presence.abandoned(waiting))
    opened = dict(waiting.values_list("pk", "created_at"))
    seen = host_presence.last_seen(opened)
    return {table_id: "gone" if table_id in gone else "here" if host_presence.host_here(seen[table_id], opened[table_id])
            else "away" for table_id in opened}


def hosts_changed():
    """The ids of the tables whose host state changed since the last check."""
    now = host_states()
    client = redis_client()
    before = {int(table_id): state.decode() for table_id, state in client.hgetall(KEY).items()}
    with client.pipeline() as pipe:
        pipe.delete(KEY)
        if now:
            pipe.hset(KEY, mapping=now)
        pipe.expire(KEY, int(timedelta(hours=1).total_seconds()))
        pipe.execute()
    return [table_id for table_id, state in now.items() if before.get(table_id, "here") != state]
