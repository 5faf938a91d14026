"""Whether a waiting table's host is here, and which waiting tables are abandoned: the
site's presence (infra.presence) read for tables.

While its host has the table's page open (lobby.consumers.TableConsumer) they stand
at the table's place, marked every heartbeat. The host is here while they were heard
of at most HERE_FOR seconds ago; a waiting table whose host has been away
ABANDONED_AFTER (or never came, and the table is that old) has been left: the lobby
stops listing it (it stays reachable by its code). With Redis away nobody's presence
is known, and no table is taken off the list.
"""
import logging
import time
from datetime import timedelta

from django.utils import timezone

from infra.outages import UNREACHABLE
from infra.presence import presence
from infra.redis_clients import redis_client

log = logging.getLogger(__name__)

HERE_FOR = 150  # seconds: a host who reloads or follows a link is not shown away meanwhile
ABANDONED_AFTER = timedelta(minutes=10)


def host_place(table_id):
    return f"host:{table_id}"


def last_seen(table_ids):
    """{table id: when its host's page was last open (seconds since the epoch) or None};
    None for every table while Redis is away."""
    table_ids = list(table_ids)
    try:
        seen = presence.last_seen([host_place(table_id) for table_id in table_ids])
    except UNREACHABLE:
        log.warning("could not read which hosts are here")
        return dict.fromkeys(table_ids)
    return {table_id: seen[host_place(table_id)][1] for table_id in table_ids}


def host_here(seen, opened_at):
    """Whether a waiting table's host is here: their page was open within HERE_FOR
    seconds (`seen`, from last_seen), or the table opened as recently (its page opens
    right after)."""
    now = time.time()
    return (seen is not None and now - seen <= HERE_FOR) or now - opened_at.timestamp() <= HERE_FOR


def is_abandoned(seen, opened_at):
    """Whether a waiting table whose host was last here at `seen` (None: never, or
    Redis is away) has been left."""
    now = time.time()
    if now - opened_at.timestamp() < ABANDONED_AFTER.total_seconds():
        return False
    return seen is not None and now - seen > ABANDONED_AFTER.total_seconds() or seen is None and _known()


def _known():
    try:
        return bool(redis_client().ping())
    except UNREACHABLE:
        return False


def abandoned(waiting):
    """The ids of the tables of `waiting` (a query of waiting tables) older than
    ABANDONED_AFTER whose host has been away that long."""
    old = list(waiting.filter(created_at__lt=timezone.now() - ABANDONED_AFTER).values_list("pk", flat=True))
    if not old:
        return []
    try:
        seen = presence.last_seen([host_place(table_id) for table_id in old])
    except UNREACHABLE:
        log.warning("could not read which hosts are here; the lobby lists every table")
        return []
    gone_before = time.time() - ABANDONED_AFTER.total_seconds()
    return [table_id for table_id in old if (seen[host_place(table_id)][1] or 0) < gone_before]
