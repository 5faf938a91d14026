"""A Celery worker that rides out a Redis outage and catches up when Redis is back.

Three pieces, all wired in config.celery and config.settings:

- RedisTransport: kombu's Redis transport, except that a channel whose connection
  was already closed raises a connection error instead of an AttributeError, and
  publishing reuses one client per connection pool.
  With Celery 5.7 / kombu 5.7, when Redis goes away while the worker holds
  unacknowledged messages (a pending time-out, a computer move under way), the
  consumer closes the broken connection twice; the second close tries to restore
  those messages through a transport whose client is gone, the AttributeError
  ("'NoneType' object has no attribute 'hostname'") escapes Celery's error
  handling, and the worker exits with "Unrecoverable error". A connection error
  is what Celery expects there: it logs it and reconnects. The messages stay
  in Redis' unacked set and come back after the visibility timeout; the sweep
  does not wait for them.
- Consumer: reconnects every RECONNECT_EVERY seconds at most (Celery's own
  back-off grows to 30 s, so a worker could stay idle half a minute after Redis
  is back).
- SweepOnConnect: each time the worker (re)connects, it queues a sweep of overdue
  games at once, so time-outs and computer moves whose tasks were lost while
  Redis was away are made within seconds, not at the next beat.
"""
import logging
from contextlib import contextmanager

from celery import bootsteps
from celery.worker.consumer import Consumer as CeleryConsumer
from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError

log = logging.getLogger(__name__)

RECONNECT_EVERY = 2.0


class RedisChannel(kombu_redis.Channel):
    _publish_client = _publish_pool = None

    def _connparams(self, asynchronous=False):
        if self.connection.client is None:
            raise RedisConnectionError("the broker connection is already closed")
        return super()._connparams(asynchronous=asynchronous)

    @contextmanager
    def conn_or_acquire(self, client=None):
        """kombu builds a new redis-py client (and its table of 170 command callbacks)
        for every message it publishes: half the CPU of queuing a task. The client
        only borrows connections from the channel's pool, so one per pool does."""
        if client:
            yield client
            return
        pool = self.pool
        if self._publish_pool is not pool:
            self._publish_client, self._publish_pool = self._create_client(), pool
        yield self._publish_client


class RedisTransport(kombu_redis.Transport):
    Channel = RedisChannel


class Consumer(CeleryConsumer):
    def ensure_connected(self, conn):
        ensure = conn.ensure_connection

        def ensure_often(errback=None, max_retries=None, **options):
            options.update(interval_start=0.5, interval_step=0.5, interval_max=RECONNECT_EVERY)
            return ensure(errback, max_retries, **options)

        conn.ensure_connection = ensure_often
        return super().ensure_connected(conn)


class SweepOnConnect(bootsteps.StartStopStep):
    """Runs whenever the consumer starts: at start-up and after every reconnection."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, consumer):
        try:
            # Any task may have been lost while Redis was away: every computer move due counts.
            consumer.app.send_task("games.sweep_overdue", kwargs={"stuck_after": 0}, ignore_result=True)
        except Exception:  # the broker went away again: the next connection sweeps
            log.warning("could not queue a sweep after connecting", exc_info=True)


def use_redis_transport():
    """Make every redis:// (and redis+socket://, rediss://) connection of this process use RedisTransport."""
    from kombu import transport

    for scheme in ("redis", "rediss"):
        transport.TRANSPORT_ALIASES[scheme] = "config.broker:RedisTransport"
