"""Whether a game's seated players are here, how long one has been gone, and how many
watch: the site's presence (infra.presence) read for a game.

A player is here while a page of theirs showing the game has its socket open, in any
daphne process (games.consumers enters the seat's place); gone since the last time
any such socket was heard of, or since the site came back from an outage if that is
later (games.downtime: nobody could be here while no web server ran, docs/rules.md
§11.3). With Redis away nobody can be shown gone (nor claimed against): everyone
counts as here, and nobody watches.
"""
import logging

from games.downtime import OUTAGES_KEY
from infra.outages import UNREACHABLE
from infra.presence import presence
from infra.redis_clients import redis_client

log = logging.getLogger(__name__)


def seat_place(public_id, colour):
    return f"seat:{public_id}:{colour}"


def watchers_place(public_id):
    return f"watch:{public_id}"


def last_seen(public_id, colours):
    """{colour: (here, the last time a socket of theirs was heard of, or the site came
    back since; None if never heard of)}."""
    now = presence.clock()
    try:
        seen = presence.last_seen([seat_place(public_id, colour) for colour in colours])
        back = redis_client().zrevrange(OUTAGES_KEY, 0, 0, withscores=True)  # the last outage: when it came back
    except UNREACHABLE as error:
        log.warning("presence of game %s unknown (%s): everyone counts as here", public_id, error)
        return {colour: (True, now) for colour in colours}
    back = back[0][1] if back else 0.0
    answer = {}
    for colour in colours:
        here, heard = seen[seat_place(public_id, colour)]
        answer[colour] = (here, None if heard is None else max(heard, back))
    return answer


def gone_for(public_id, colour):
    """Seconds the player at `colour` has been gone (0 while here or never seen here)."""
    here, seen = last_seen(public_id, [colour])[colour]
    if here or seen is None:
        return 0.0
    return max(0.0, presence.clock() - seen)


def spectators(public_id):
    """How many spectators' sockets are open on the game now (0 with Redis away)."""
    try:
        return presence.count(watchers_place(public_id))
    except UNREACHABLE as error:
        log.warning("spectators of game %s unknown (%s)", public_id, error)
        return 0
