"""Whether a seated player is here: a player is here while a page of theirs has its
game socket open (games.consumers), in any daphne process.

Kept in Redis, one sorted set per game and colour: each open socket is a member (its
channel name) scored with the last time it said it is alive. A socket says so on
connect and every HEARTBEAT seconds; one not heard of for STALE seconds (its daphne
was killed) no longer counts, so nobody stays "here" for good. A socket that closes
removes itself and writes when it went; the player is gone since the last time any of
their sockets was heard of. With Redis away nobody can be shown gone (nor claimed
against): everyone counts as here.
"""
import asyncio
import logging
import time
import weakref
from functools import lru_cache

import redis
import redis.asyncio
from django.conf import settings

from games.outages import UNREACHABLE

log = logging.getLogger(__name__)

HEARTBEAT = 5.0
STALE = 3 * HEARTBEAT
KEEP = 24 * 3600  # a game's presence keys expire this long after their last change


def _sockets(public_id, colour):
    return f"reversi:presence:{public_id}:{colour}"


def _left(public_id, colour):
    return f"reversi:presence:{public_id}:{colour}:left"


@lru_cache(maxsize=1)
def _redis():
    return redis.Redis.from_url(settings.REDIS_URL)


# One client (and its pool) per event loop: daphne runs one, so its sockets share it.
_async_clients = weakref.WeakKeyDictionary()


def _async_redis():
    loop = asyncio.get_running_loop()
    client = _async_clients.get(loop)
    if client is None:
        client = _async_clients[loop] = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    return client


async def arrive(public_id, colour, channel):
    """A socket of the player at `colour` is open (or still open: the heartbeat).
    Returns whether the player was away until now."""
    now = time.time()
    key = _sockets(public_id, colour)
    async with _async_redis().pipeline(transaction=True) as pipe:
        pipe.zrangebyscore(key, now - STALE, "+inf")
        pipe.zadd(key, {channel: now})
        pipe.expire(key, KEEP)
        before, _added, _expiry = await pipe.execute()
    return not [member for member in before if member.decode() != channel]


async def depart(public_id, colour, channel):
    """A socket of the player at `colour` closed. Returns whether they are gone now."""
    now = time.time()
    key = _sockets(public_id, colour)
    async with _async_redis().pipeline(transaction=True) as pipe:
        pipe.zrem(key, channel)
        pipe.set(_left(public_id, colour), now, ex=KEEP)
        pipe.zrangebyscore(key, now - STALE, "+inf")
        _removed, _set, others = await pipe.execute()
    return not others


def last_seen(public_id, colours):
    """{colour: (here, the last time a socket of theirs was heard of, or None if never)}."""
    now = time.time()
    try:
        pipe = _redis().pipeline(transaction=False)
        for colour in colours:
            pipe.zrevrange(_sockets(public_id, colour), 0, 0, withscores=True)
            pipe.get(_left(public_id, colour))
        answers = pipe.execute()
    except UNREACHABLE as error:
        log.warning("presence of game %s unknown (%s): everyone counts as here", public_id, error)
        return {colour: (True, now) for colour in colours}
    seen = {}
    for index, colour in enumerate(colours):
        newest, left = answers[2 * index], answers[2 * index + 1]
        heard = newest[0][1] if newest else None
        here = heard is not None and heard > now - STALE
        times = [t for t in (heard, float(left) if left else None) if t is not None]
        seen[colour] = (here, max(times) if times else None)
    return seen


def gone_for(public_id, colour):
    """Seconds the player at `colour` has been gone (0 while here or never seen here)."""
    here, seen = last_seen(public_id, [colour])[colour]
    if here or seen is None:
        return 0.0
    return max(0.0, time.time() - seen)


# -- spectators -----------------------------------------------------------------
# Every game socket of someone without a seat is a member of the game's watchers set,
# scored like a player's sockets (arrive on connect and every HEARTBEAT, gone after
# STALE): how many people watch, across every daphne.

def _watchers(public_id):
    return f"reversi:watching:{public_id}"


async def watch(public_id, channel):
    """A spectator's socket is open (or still open). Returns whether it is new."""
    now = time.time()
    key = _watchers(public_id)
    async with _async_redis().pipeline(transaction=True) as pipe:
        pipe.zadd(key, {channel: now})
        pipe.zremrangebyscore(key, "-inf", now - STALE)
        pipe.expire(key, KEEP)
        added, _removed, _expiry = await pipe.execute()
    return bool(added)


async def unwatch(public_id, channel):
    await _async_redis().zrem(_watchers(public_id), channel)


def spectators(public_id):
    """How many spectators' sockets are open on the game now (0 with Redis away)."""
    try:
        return _redis().zcount(_watchers(public_id), time.time() - STALE, "+inf")
    except UNREACHABLE as error:
        log.warning("spectators of game %s unknown (%s)", public_id, error)
        return 0
