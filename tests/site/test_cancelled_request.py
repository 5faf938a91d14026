"""A page that reloads while its POST is under way makes Django cancel that request;
what the request tells other pages after its commit must still reach them all."""
import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games.broadcast import group_send

pytestmark = pytest.mark.asyncio

# Enough cancelled mid-way to tell, however fast this machine's Redis answers: trials
# go on (at most MAX_TRIALS) until CANCELLED of them were cut short.
CANCELLED, MAX_TRIALS = 10, 400


async def test_messages_sent_after_commit_arrive_even_when_the_request_is_cancelled():
    layer = get_channel_layer()
    page = await layer.new_channel()
    await layer.group_add("cancelled-requests", page)

    started = set()

    def after_commit(trial):  # e.g. join: tell the table's pages, then the lobby
        started.add(trial)
        group_send("cancelled-requests", {"type": "told", "trial": trial, "step": 1})
        group_send("cancelled-requests", {"type": "told", "trial": trial, "step": 2})

    cancelled = trials = 0
    while cancelled < CANCELLED and trials < MAX_TRIALS:
        trial, trials = trials, trials + 1
        request = asyncio.ensure_future(sync_to_async(after_commit)(trial))
        while trial not in started:  # the request has committed and tells the pages now
            await asyncio.sleep(0)
        await asyncio.sleep((trial % 10) * 0.0002)  # the client goes away at a different moment each time
        request.cancel()
        try:
            await request
        except asyncio.CancelledError:
            cancelled += 1
    assert cancelled > 0  # requests were cut short somewhere in the middle
    heard = set()
    try:
        while len(heard) < 2 * trials:
            message = await asyncio.wait_for(layer.receive(page), timeout=3)
            heard.add((message["trial"], message["step"]))
    except asyncio.TimeoutError:
        pass
    await layer.group_discard("cancelled-requests", page)
    missing = sorted({(trial, step) for trial in range(trials) for step in (1, 2)} - heard)
    assert missing == []
