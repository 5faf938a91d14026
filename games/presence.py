"""Whether a seated player is here: a player is here while a page of theirs has its
game socket open (games.consumers), in any daphne process.

Kept in Redis, one sorted set per game and colour: each open socket is a member (its
channel name) scored with the last time it said it is alive. A socket says so on
connect and every HEARTBEAT seconds; one not heard of for STALE seconds (its daphne
was killed) no longer counts, so nobody stays "here" for good. A socket that closes
removes itself and writes when it went; the player is gone since the last time any of
their sockets was heard of, or since the site came back from an outage if that is later
(games.downtime: nobody could be here while no web server ran, docs/rules.md §11.3).
With Redis away nobody can be shown gone (nor claimed against): everyone counts as here.
"""
import asyncio
import logging
import time
import weakref

from games.downtime import OUTAGES_KEY
from infra.outages import UNREACHABLE
from infra.redis_clients import async_redis_client, redis_client

log = logging.getLogger(__name__)

HEARTBEAT = 5.0
STALE = 3 * HEARTBEAT
KEEP = 24 * 3600  # a game's presence keys expire this long after their last change


def _sockets(public_id, colour):
    return f"reversi:presence:{public_id}:{colour}"


def _left(public_id, colour):
    return f"reversi:presence:{public_id}:{colour}:left"


async def arrive(public_id, colour, channel):
    """A socket of the player at `colour` is open (or still open: the heartbeat).
    Returns whether the player was away until now."""
    now = time.time()
    key = _sockets(public_id, colour)
    async with async_redis_client().pipeline(transaction=True) as pipe:
        pipe.zrangebyscore(key, now - STALE, "+inf")
        pipe.zadd(key, {channel: now})
        pipe.expire(key, KEEP)
        before, _added, _expiry = await pipe.execute()
    return not [member for member in before if member.decode() != channel]


async def depart(public_id, colour, channel):
    """A socket of the player at `colour` closed. Returns whether they are gone now."""
    now = time.time()
    key = _sockets(public_id, colour)
    async with async_redis_client().pipeline(transaction=True) as pipe:
        pipe.zrem(key, channel)
        pipe.set(_left(public_id, colour), now, ex=KEEP)
        pipe.zrangebyscore(key, now - STALE, "+inf")
        _removed, _set, others = await pipe.execute()
    return not others


def last_seen(public_id, colours):
    """{colour: (here, the last time a socket of theirs was heard of, or the site came
    back since; None if never heard of)}."""
    now = time.time()
    try:
        pipe = redis_client().pipeline(transaction=False)
        for colour in colours:
            pipe.zrevrange(_sockets(public_id, colour), 0, 0, withscores=True)
            pipe.get(_left(public_id, colour))
        pipe.zrevrange(OUTAGES_KEY, 0, 0, withscores=True)  # the site's last outage: when it came back
        answers = pipe.execute()
    except UNREACHABLE as error:
        log.warning("presence of game %s unknown (%s): everyone counts as here", public_id, error)
        return {colour: (True, now) for colour in colours}
    back = answers[-1][0][1] if answers[-1] else None
    seen = {}
    for index, colour in enumerate(colours):
        newest, left = answers[2 * index], answers[2 * index + 1]
        heard = newest[0][1] if newest else None
        here = heard is not None and heard > now - STALE
        times = [t for t in (heard, float(left) if left else None) if t is not None]
        seen[colour] = (here, max(times + [back or 0.0]) if times else None)
    return seen


def gone_for(public_id, colour):
    """Seconds the player at `colour` has been gone (0 while here or never seen here)."""
    here, seen = last_seen(public_id, [colour])[colour]
    if here or seen is None:
        return 0.0
    return max(0.0, time.time() - seen)


# -- spectators -----------------------------------------------------------------
# Every game socket of someone without a seat is a member of the game's watchers set,
# scored like a player's sockets (written on connect, gone after STALE): how many people
# watch, across every daphne. Every HEARTBEAT one task per process marks all of its
# spectators' sockets in one round trip, not each socket its own (a game watched by 500
# pages on one daphne: 100 Redis transactions a second, a third of its CPU).

def _watchers(public_id):
    return f"reversi:watching:{public_id}"


async def watch(public_id, channel):
    """A spectator's socket is open (or still open). Returns whether it is new."""
    now = time.time()
    key = _watchers(public_id)
    async with async_redis_client().pipeline(transaction=True) as pipe:
        pipe.zadd(key, {channel: now})
        pipe.zremrangebyscore(key, "-inf", now - STALE)
        pipe.expire(key, KEEP)
        added, _removed, _expiry = await pipe.execute()
    return bool(added)


async def unwatch(public_id, channel):
    await async_redis_client().zrem(_watchers(public_id), channel)


# This process's spectators' sockets by game, kept watched by _keep_marking.
_watched = {}
_marking = weakref.WeakKeyDictionary()  # event loop -> its marking task


def keep_watched(public_id, channel):
    """Mark this socket (already watching) every HEARTBEAT with the process's others,
    until forget_watched."""
    _watched.setdefault(public_id, set()).add(channel)
    loop = asyncio.get_running_loop()
    if loop not in _marking or _marking[loop].done():
        _marking[loop] = loop.create_task(_keep_marking())


def forget_watched(public_id, channel):
    channels = _watched.get(public_id)
    if channels is not None:
        channels.discard(channel)
        if not channels:
            del _watched[public_id]


async def _keep_marking():
    while _watched:
        await asyncio.sleep(HEARTBEAT)
        try:
            await mark_watched()
        except UNREACHABLE as error:  # the sockets close and reconnect (config.channel_layer)
            log.warning("spectators not marked (%s)", error)


async def mark_watched():
    """One transaction: every spectator socket of this process is still open."""
    now = time.time()
    async with async_redis_client().pipeline(transaction=True) as pipe:
        for public_id, channels in list(_watched.items()):
            key = _watchers(public_id)
            pipe.zadd(key, dict.fromkeys(channels, now))
            pipe.zremrangebyscore(key, "-inf", now - STALE)
            pipe.expire(key, KEEP)
        await pipe.execute()


def spectators(public_id):
    """How many spectators' sockets are open on the game now (0 with Redis away)."""
    try:
        return redis_client().zcount(_watchers(public_id), time.time() - STALE, "+inf")
    except UNREACHABLE as error:
        log.warning("spectators of game %s unknown (%s)", public_id, error)
        return 0
