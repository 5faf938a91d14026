"""The lobby's two counts: people online and games being played.

People online are those with any page of the site open, in any daphne process: every
page opens the site's socket (lobby.announcements; social's notification socket for
an account), and each process keeps the people of those sockets (a signed-in account,
else the session, else the socket) and writes them with the time into one sorted set
in Redis when they come and every HEARTBEAT seconds; a person counts while written
within ONLINE_FOR seconds, so a killed process's people drop out by themselves.
(social.presence knows the pages of accounts only, one set per person, for their
friends; visitors are people online too, and one set counts them in one command.)

Games being played are the online tables' games under way: a game against the
computer is one visitor's, and often left unfinished."""
import asyncio
import logging
import time
from collections import Counter

import redis
from django.db import connection

from games.models import Game
from infra.redis_clients import async_redis_client, redis_client

log = logging.getLogger(__name__)

KEY = "reversi:online"
HEARTBEAT = 60
ONLINE_FOR = 150

_here = Counter()  # this process's people, with their open sockets
_keeper = None


def person_of(scope, channel_name):
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return f"u{user.pk}"
    session = scope.get("session")
    key = getattr(session, "session_key", None)
    return f"s{key}" if key else f"c{channel_name}"


async def arrive(person):
    """A socket of `person` opened in this process."""
    global _keeper
    _here[person] += 1
    if _here[person] == 1:
        await _write([person])
    if _keeper is None or _keeper.done():
        _keeper = asyncio.create_task(_keep())


async def depart(person):
    _here[person] -= 1
    if _here[person] <= 0:
        del _here[person]
        try:
            await async_redis_client().zrem(KEY, person)
        except redis.RedisError:
            pass  # the mark runs out after ONLINE_FOR


async def _write(people):
    try:
        await async_redis_client().zadd(KEY, dict.fromkeys(people, time.time()))
    except redis.RedisError:
        log.warning("could not write who is online")


async def _keep():
    while _here:
        await asyncio.sleep(HEARTBEAT)
        await _write(list(_here))


def counts():
    """{"online": people, "playing": games being played} now."""
    try:
        with redis_client().pipeline() as pipe:
            pipe.zremrangebyscore(KEY, 0, time.time() - ONLINE_FOR)
            pipe.zcard(KEY)
            online = pipe.execute()[1]
    except redis.RedisError:
        online = 0
    return {"online": online, "playing": _playing()}


def _playing():
    # every lobby change sends the counts: a plain statement costs a quarter of the
    # ORM's count (benchmarks/README.md, "The lobby at a crowd's scale")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {Game._meta.db_table} WHERE status = %s AND kind = %s",
                       [Game.Status.PLAYING, Game.Kind.TABLE])
        return cursor.fetchone()[0]
