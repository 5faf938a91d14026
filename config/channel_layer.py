"""channels-redis' pub/sub layer, made to behave as its default layer does while
Redis is away.

The pub/sub layer sends a group message once to each process with pages in the group
(the default layer queues a copy per page). But as shipped it meets an outage
differently: a new socket's handshake fails (its own channel is subscribed as it
opens), and an open socket stays open, deaf to what it missed, until redis-py has
quietly subscribed again. The default layer's receive fails instead: the socket opens,
its consumer sends the page's state read from the database, the socket closes with
1011, and the page reconnects with back-off and gets the whole state again
(games.broadcast.join, tests/site/test_faults.py). Here the pub/sub layer does the
same: a socket opened while Redis is away, and every socket open when its connection
to Redis is lost, fails its next receive.
"""
import asyncio
import logging
import time

import redis
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close

log = logging.getLogger(__name__)

LOST = (redis.exceptions.ConnectionError, ConnectionError)
LOST_REMEMBERED = 60  # seconds: longer than any socket's connect


class RedisLost(redis.exceptions.ConnectionError):
    """What a socket's receive raises when Redis was away while it was open."""


_LOST = object()  # put in a socket's queue in place of a message


class PubSubChannelLayer(RedisPubSubChannelLayer):
    def _get_layer(self):
        # As the library's, with the loop layer below: one per event loop.
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = self._layers[loop] = OutageAwareLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
            return layer

    def deserialize(self, message):
        if message is _LOST:
            raise RedisLost("Redis was away while this socket was open")
        return super().deserialize(message)


class OutageAwareLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._shards = [OutageAwareShard(shard.host, self) for shard in self._shards]
        # Channels whose receive failed, and when: their socket's connect may still be
        # joining its groups (a consumer receives while it connects).
        self._lost = {}

    def redis_lost(self, channels=None):
        """Every socket of this event loop (or those of `channels`) fails its next receive."""
        for channel in list(self.channels) if channels is None else channels:
            if channel in self.channels:
                self.channels[channel].put_nowait(_LOST)

    async def _subscribe_to_channel(self, channel):
        try:
            await super()._subscribe_to_channel(channel)  # its queue is made first, and kept
        except LOST as error:
            log.warning("websocket opened while Redis is away (%s)", error)
            self.redis_lost([channel])

    async def receive(self, channel):
        try:
            return await super().receive(channel)
        except RedisLost:
            now = time.monotonic()
            self._lost = {name: at for name, at in self._lost.items() if now - at < LOST_REMEMBERED}
            self._lost[channel] = now
            await self._forget(channel)
            raise

    async def group_add(self, group, channel):
        if channel in self._lost:  # the library would say the channel never existed
            raise RedisLost("Redis was away while this socket was open")
        await super().group_add(group, channel)

    async def _forget(self, channel):
        """What the library does when a socket's receive is cancelled, for a socket that
        ends on a lost Redis: its queue and groups go, and their subscriptions if Redis
        answers (else redis-py renews them, unread, when it is back)."""
        self.channels.pop(channel, None)
        groups = [name for name, members in self.groups.items() if channel in members]
        try:
            for name in groups:
                await self.group_discard(name.removeprefix(f"{self.prefix}__group__"), channel)
            await self._get_shard(channel).unsubscribe(channel)
        except LOST:
            for name in groups:
                members = self.groups.get(name, set())
                members.discard(channel)
                if not members:
                    self.groups.pop(name, None)


class OutageAwareShard(RedisSingleShardConnection):
    async def _do_receiving(self):
        # As the library's loop, which only logs a lost connection and tries again.
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (asyncio.CancelledError, asyncio.TimeoutError, GeneratorExit):
                raise
            except LOST as error:
                log.warning("connection to Redis lost (%s); the open websockets reconnect", error)
                self.channel_layer.redis_lost()
                await asyncio.sleep(1)
            except BaseException:
                log.exception("Unexpected exception in receive task")
                await asyncio.sleep(1)
