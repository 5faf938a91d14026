"""The channel-layer groups a game's pages and the other live pages are in: joining and
leaving them from a socket, sending to them from synchronous code. What a game sends
is data (games.events); the pages' daphne draws it (games.drawing)."""
import logging

from infra import sending
from infra.outages import UNREACHABLE

log = logging.getLogger(__name__)


def group_send(group, message):
    """Send to a channel group from synchronous code (after a commit), to the end, even
    if the request is cancelled meanwhile (infra.sending)."""
    sending.group_send(group, message)


async def join(consumer, group):
    """Add a websocket to a group. With Redis away the socket still opens and gets its
    page's current state (read from the database); the channel layer's receive then
    fails the same way, which closes the socket with 1011, and htmx reconnects with
    back-off. Without this, the handshake was answered 500."""
    try:
        await consumer.channel_layer.group_add(group, consumer.channel_name)
    except UNREACHABLE:
        log.warning("websocket for %s opened while Redis is away", group)


async def leave(consumer, group):
    try:
        await consumer.channel_layer.group_discard(group, consumer.channel_name)
    except UNREACHABLE:
        pass  # Redis is away; the group forgets this channel when it expires
