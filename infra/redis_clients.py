"""The site's own Redis clients: presence marks, counts, claims, rate limits and the
lobby's version. One client (and its connection pool) per process, and one per event
loop for the sockets' async code.

Every client gives up after TIMEOUT seconds. A Redis that is down refuses at once; one
that is stalled (a paused process, a full network path) would otherwise hold a request,
a worker's clock or a socket's connect for as long as it stays stalled. The timeout
raises redis.TimeoutError, a RedisError like a refused connection, which every caller
already handles as Redis being away (infra.outages).
"""
from functools import lru_cache

import redis
import redis.asyncio
from django.conf import settings

from infra.per_loop import PerLoop

TIMEOUT = 2  # seconds; each of these commands takes well under a millisecond


def new_redis_client():
    """A client of its own, for a caller that must not share the pool (/healthz)."""
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)


@lru_cache(maxsize=1)
def redis_client():
    """This process's client: redis-py's pool hands each thread its own connection."""
    return new_redis_client()


# Daphne runs one loop, so its sockets share one client; each test's loop gets its own.
async_redis_client = PerLoop(lambda: redis.asyncio.Redis.from_url(
    settings.REDIS_URL, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT))
