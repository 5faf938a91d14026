"""A game's pushes as a daphne process hands them to its pages: one channel per event
loop is in the group of every game a page here shows, takes each push once, and
gives it to those pages by a method call (GameConsumer.game_events). A page then costs
its own check and websocket frame, not a channel-layer delivery of its own
(benchmarks/README.md, "Spectators").

A page joins before it reads the game's state, as with a group of its own: nothing
can fall in between. While Redis is away join() fails and the page carries on as
games.broadcast.join has it (its own socket then fails and reconnects); when the
receiver loses Redis its pages are closed (1011): they reconnect and read the state
again.
"""
import asyncio
import logging

from channels.layers import get_channel_layer

from infra.outages import UNREACHABLE
from infra.per_loop import PerLoop

log = logging.getLogger(__name__)


class GameFanout:
    def __init__(self):
        self.pages = {}  # group -> set of pages (consumers) here
        self.membership = asyncio.Lock()  # group_add and group_discard in the order asked
        self.channel, self.receiver = None, None

    async def join(self, page, group):
        """From now on `page` is given every push sent to `group`. Raises what the channel
        layer raises while Redis is away."""
        async with self.membership:
            if self.receiver is None or self.receiver.done():
                await self.start()
            # Again for every page: channels-redis' default layer forgets a member after a day.
            await get_channel_layer().group_add(group, self.channel)
            self.pages.setdefault(group, set()).add(page)

    async def leave(self, page, group):
        async with self.membership:
            members = self.pages.get(group)
            if members is None or page not in members:
                return
            members.discard(page)
            if members:
                return
            del self.pages[group]
            try:
                await get_channel_layer().group_discard(group, self.channel)
            except UNREACHABLE:
                pass  # Redis is away; the group forgets this channel when it does
            if not self.pages:
                self.stop()  # no game page here any more

    async def start(self):
        self.channel = await get_channel_layer().new_channel()
        self.receiver = asyncio.create_task(self.receive(self.channel))

    def stop(self):
        if self.receiver is not None:
            self.receiver.cancel()  # its receive ends (the pub/sub layer unsubscribes the channel)
        self.receiver, self.channel = None, None

    async def receive(self, channel):
        layer = get_channel_layer()
        try:
            while True:
                message = await layer.receive(channel)
                for page in list(self.pages.get(message.get("group"), ())):
                    try:
                        await page.game_events(message)
                    except Exception:  # one page's fault is not the others'
                        log.exception("a game page could not take a push")
                        await close(page)
        except UNREACHABLE as error:
            log.warning("the games' pushes stopped coming (%s); their pages reconnect", error)
            await self.lost(channel)

    async def lost(self, channel):
        """Redis went away under the receiver: every page here may miss pushes."""
        async with self.membership:
            if self.channel != channel:
                return
            pages = {page for members in self.pages.values() for page in members}
            self.pages.clear()
            self.receiver, self.channel = None, None
        for page in pages:
            await close(page)


async def close(page):
    """Close a page's socket for a retry (htmx reconnects after 1011)."""
    try:
        await page.close(code=1011)
    except Exception:  # gone already
        pass


game_fanout = PerLoop(GameFanout)  # game_fanout(): this process's fan-out
