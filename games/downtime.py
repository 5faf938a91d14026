"""When the site could not take moves: no web process was running (docs/rules.md §11.3).

Every daphne process beats in Redis every BEAT seconds from the moment it listens
(games.web_heartbeat); BEAT_KEY holds the newest beat of any of them, so the web is
*serving* while that beat is at most STALE seconds old, whichever daphne made it.
The first beat of a daphne that finds the newest one older than STALE records an
outage: from that last beat to its own start. One Lua script reads and writes both,
so of several daphnes coming back only the first records it; a daphne started again
within STALE seconds records none (no outage that short is given back).

The outages are kept (OUTAGES_KEY, scored by their end) longer than the longest turn.
games.deadlines gives each one back to the player to move (give_back_downtime); its
clocks flag nobody while the web is not serving, nor while an outage is owed: one
not yet given back to every game by the task games.credit_downtime, which a claim
lets one worker queue and which marks it given back when done (CREDITED_KEY).

With Redis away nothing is beaten nor read: the workers' clocks stop anyway
(infra.outages), and a daphne alive throughout records no outage when Redis returns:
players could move meanwhile. A Redis that comes back empty has forgotten the last
beat, so an outage of the web at the same time is not known.
"""
import logging
import time
from datetime import datetime, timezone as tz
from typing import NamedTuple

from infra.outages import UNREACHABLE
from infra.redis_clients import redis_client

log = logging.getLogger(__name__)

BEAT = 1.0  # seconds between two beats of a daphne
STALE = 3.0  # the web is down once its newest beat is older; a shorter gap is no outage
KEEP = 8 * 86400  # outages are kept longer than the longest turn (7 days of correspondence)
CLAIM_SECONDS = 60  # a worker that died crediting is taken over after this

BEAT_KEY = "reversi:web:beat"
OUTAGES_KEY = "reversi:web:outages"
CREDITED_KEY = "reversi:web:credited"
CLAIM_KEY = "reversi:web:crediting"

# KEYS: the newest beat, the outages. ARGV: now, this process's start, STALE, KEEP.
# Returns the outage recorded ("start end", seconds since the epoch), or nil.
_BEAT = """
local last = redis.call('GET', KEYS[1])
local now, since = tonumber(ARGV[1]), tonumber(ARGV[2])
local outage = false
if last and since - tonumber(last) > tonumber(ARGV[3]) then
  outage = last .. ' ' .. ARGV[2]
  redis.call('ZADD', KEYS[2], since, outage)
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[4]))
end
if not last or now > tonumber(last) then redis.call('SET', KEYS[1], ARGV[1]) end
return outage
"""


class Outage(NamedTuple):
    """No web process ran from `start` (the last beat) to `end` (the first one back)."""

    start: datetime
    end: datetime


def _instant(seconds):
    return datetime.fromtimestamp(float(seconds), tz=tz.utc)


def _seconds(when):
    return time.time() if when is None else when.timestamp()


def parse(member):
    start, end = (member.decode() if isinstance(member, bytes) else member).split()
    return Outage(_instant(start), _instant(end))


def beat(client, since, now=None):
    """A web process running since `since` (seconds since the epoch) is alive now.
    With the async client (a daphne's loop) this is awaited; the recorded outage
    ("start end") or None."""
    return client.eval(_BEAT, 2, BEAT_KEY, OUTAGES_KEY, f"{time.time() if now is None else now:.3f}",
                       f"{since:.3f}", STALE, KEEP)


def state(now=None):
    """(whether the web is serving at `now`, the outages owed: not yet given back to
    every game, oldest first). No beat at all counts as not serving: no web process has
    run since Redis was new. Redis away raises (infra.outages.UNREACHABLE)."""
    pipe = redis_client().pipeline(transaction=False)
    pipe.get(BEAT_KEY)
    pipe.get(CREDITED_KEY)
    last, credited = pipe.execute()
    owed = redis_client().zrangebyscore(OUTAGES_KEY, f"({float(credited) if credited else '-inf'}", "+inf")
    serving = last is not None and _seconds(now) - float(last) <= STALE
    return serving, [parse(member) for member in owed]


def outages_since(when):
    """The outages that ended after `when` (a turn's start), oldest first; none while
    Redis is away (the move is still taken; the credit then comes from the workers)."""
    try:
        members = redis_client().zrangebyscore(OUTAGES_KEY, f"({_seconds(when)}", "+inf")
    except UNREACHABLE as error:
        log.warning("the site's outages unknown (%s): none given back here", error)
        return []
    return [parse(member) for member in members]


def claim_credit():
    """Whether this process is the one to queue the credit of the outages owed."""
    return bool(redis_client().set(CLAIM_KEY, 1, nx=True, ex=CLAIM_SECONDS))


def credited(outages):
    """Every game got `outages` back (games.services.give_back_downtime): the clocks
    may flag again."""
    pipe = redis_client().pipeline(transaction=True)
    pipe.set(CREDITED_KEY, f"{outages[-1].end.timestamp():.3f}")
    pipe.delete(CLAIM_KEY)
    pipe.execute()
