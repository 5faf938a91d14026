"""Whether anyone has a table's page open, and which waiting tables are abandoned.

There is no presence system: each table page's socket (lobby.consumers.TableConsumer)
marks its table seen in Redis when it connects and every HEARTBEAT seconds while it
stays open. The mark expires SEEN_FOR seconds later, so a table whose last page
closed (or whose server restarted) loses it within SEEN_FOR, and nothing has to be
cleaned up. A waiting table older than ABANDONED_AFTER without the mark has been left
by its host: the lobby stops listing it (it stays reachable by its code).
"""
import logging
from datetime import timedelta

import redis
from django.conf import settings
from django.utils import timezone

log = logging.getLogger(__name__)

HEARTBEAT = 120
SEEN_FOR = 300  # two heartbeats and some slack
ABANDONED_AFTER = timedelta(hours=1)


def key(table_id):
    return f"lobby:seen:{table_id}"


def _redis():
    return redis.Redis.from_url(settings.REDIS_URL)


def mark_seen(table_id):
    with _redis() as client:
        client.set(key(table_id), 1, ex=SEEN_FOR)


def abandoned(waiting):
    """The ids of the tables of `waiting` (a query of waiting tables) older than
    ABANDONED_AFTER that no page has open. With Redis away nobody's presence is
    known, and no table is taken off the list."""
    old = list(waiting.filter(created_at__lt=timezone.now() - ABANDONED_AFTER).values_list("pk", flat=True))
    if not old:
        return []
    try:
        with _redis() as client:
            seen = client.mget([key(table_id) for table_id in old])
    except redis.RedisError:
        log.warning("could not read which tables have a page open; the lobby lists them all")
        return []
    return [table_id for table_id, mark in zip(old, seen) if mark is None]
