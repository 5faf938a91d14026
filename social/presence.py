"""Who is on the site now, in any daphne process, and what they are doing.

Every page of a signed-in person opens the notification socket (social.consumers);
each open socket is a member of the person's sorted set in Redis, scored with the
last time it said it is alive, and named after its channel and the page it is on.
A socket says so on connect and every HEARTBEAT seconds; one not heard of for STALE
seconds (its daphne was killed) no longer counts, and the key itself expires then,
so nobody stays online for good. A socket that closes removes itself: a person is
offline as soon as their last page closes. With Redis away everyone reads as offline.
"""
import logging
import time

from django.conf import settings

from infra.outages import UNREACHABLE
from infra.redis_clients import redis_client

log = logging.getLogger(__name__)

HEARTBEAT = float(getattr(settings, "PRESENCE_HEARTBEAT", 10))
STALE = float(getattr(settings, "PRESENCE_STALE", 3 * HEARTBEAT))


def _key(user_id):
    return f"reversi:online:{user_id}"


def member(channel, path):
    """What a socket is called in the set: its channel and its page's path."""
    return f"{channel}|{path}"


def arrive(user_id, name):
    """A socket of the person is open (on connect, then every HEARTBEAT seconds)."""
    now = time.time()
    pipe = redis_client().pipeline(transaction=True)
    pipe.zadd(_key(user_id), {name: now})
    pipe.zremrangebyscore(_key(user_id), "-inf", now - STALE)
    pipe.expire(_key(user_id), int(STALE) + 1)
    pipe.execute()


def depart(user_id, name):
    redis_client().zrem(_key(user_id), name)


def pages(user_ids):
    """{user id: [paths of their open pages]} of those among `user_ids` online now."""
    user_ids = list(user_ids)
    if not user_ids:
        return {}
    since = time.time() - STALE
    try:
        pipe = redis_client().pipeline(transaction=False)
        for user_id in user_ids:
            pipe.zrangebyscore(_key(user_id), since, "+inf")
        answers = pipe.execute()
    except UNREACHABLE as error:
        log.warning("presence unknown (%s): everyone reads as offline", error)
        return {}
    found = {}
    for user_id, members in zip(user_ids, answers):
        if members:
            found[user_id] = [m.decode().split("|", 1)[1] if b"|" in m else "" for m in members]
    return found


def online(user_ids):
    """The ids among `user_ids` with a page open now."""
    return set(pages(user_ids))


def is_online(user_id):
    return user_id in online([user_id])
