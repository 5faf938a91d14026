"""Whether a waiting table's host is here, and which waiting tables are abandoned.

Each table page's socket opened by the table's host (lobby.consumers.TableConsumer)
writes the time in Redis when it connects and every HEARTBEAT seconds while it stays
open. The host is here while that time is at most HERE_FOR seconds old; a waiting
table whose host has been away ABANDONED_AFTER (or never came, and the table is that
old) has been left: the lobby stops listing it (it stays reachable by its code). The
mark expires a heartbeat after that, so nothing has to be cleaned up.
"""
import logging
import time
from datetime import timedelta

import redis
from django.utils import timezone

from infra.redis_clients import redis_client

log = logging.getLogger(__name__)

HEARTBEAT = 60
HERE_FOR = 150  # two heartbeats and some slack
ABANDONED_AFTER = timedelta(minutes=10)


def key(table_id):
    return f"lobby:seen:{table_id}"


def mark_seen(table_id):
    redis_client().set(key(table_id), f"{time.time():.0f}", ex=int(ABANDONED_AFTER.total_seconds()) + HEARTBEAT)


def last_seen(table_ids):
    """{table id: when its host's page was last open (seconds since the epoch) or None};
    None for every table while Redis is away."""
    table_ids = list(table_ids)
    if not table_ids:
        return {}
    try:
        marks = redis_client().mget([key(table_id) for table_id in table_ids])
    except redis.RedisError:
        log.warning("could not read which hosts are here")
        return dict.fromkeys(table_ids)
    return {table_id: float(mark) if mark is not None else None for table_id, mark in zip(table_ids, marks)}


def host_here(seen, opened_at):
    """Whether a waiting table's host is here: their page was open within HERE_FOR
    seconds (`seen`, from last_seen), or the table opened as recently (its page opens
    right after)."""
    now = time.time()
    return (seen is not None and now - seen <= HERE_FOR) or now - opened_at.timestamp() <= HERE_FOR


def is_abandoned(seen, opened_at):
    """Whether a waiting table whose host was last here at `seen` (None: not for
    ABANDONED_AFTER at least, or Redis is away) has been left."""
    now = time.time()
    if now - opened_at.timestamp() < ABANDONED_AFTER.total_seconds():
        return False
    return seen is not None and now - seen > ABANDONED_AFTER.total_seconds() or seen is None and _known()


def _known():
    try:
        return bool(redis_client().ping())
    except redis.RedisError:
        return False


def abandoned(waiting):
    """The ids of the tables of `waiting` (a query of waiting tables) older than
    ABANDONED_AFTER whose host has been away that long. With Redis away nobody's
    presence is known, and no table is taken off the list."""
    old = list(waiting.filter(created_at__lt=timezone.now() - ABANDONED_AFTER).values_list("pk", flat=True))
    if not old:
        return []
    try:
        marks = redis_client().mget([key(table_id) for table_id in old])
    except redis.RedisError:
        log.warning("could not read which hosts are here; the lobby lists every table")
        return []
    gone_before = time.time() - ABANDONED_AFTER.total_seconds()
    return [table_id for table_id, mark in zip(old, marks) if mark is None or float(mark) < gone_before]
