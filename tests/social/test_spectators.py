"""The spectator count on a table page: every open game socket of someone without a
seat counts, in any daphne, and the seats panel of everyone at the table says how many."""
import asyncio

import pytest
from asgiref.sync import sync_to_async

from games import Variant
from games.gone import spectators, watchers_place
from games.access import Viewer
from infra.presence import place_key, presence
from lobby import actions
from lobby.models import Table
from lobby.presentation import render_seats
from tests.lobby.test_sockets import ORIGIN, connect, cookie_for
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def playing_table():
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    table = actions.open_table(alice, Variant(board="6x6"), listed=True)
    actions.join(table, Viewer(user=bob))
    return Table.objects.select_related("game").get(pk=table.pk), alice


async def test_two_spectators_are_counted_and_leave_the_count_when_their_pages_close():
    table, alice = await sync_to_async(playing_table)()
    public_id = table.game.public_id
    players_page, connected, _ = await connect(f"/ws/page/?game={public_id}", ORIGIN,
                                               await sync_to_async(cookie_for)(alice))
    assert connected
    carol, dave = await sync_to_async(lambda: (make_user("carol"), make_user("dave")))()
    watchers = []
    for person in (carol, dave):
        page, connected, _ = await connect(f"/ws/page/?game={public_id}", ORIGIN, await sync_to_async(cookie_for)(person))
        assert connected
        watchers.append(page)
    for _ in range(50):
        if await sync_to_async(spectators)(public_id) == 2:
            break
        await asyncio.sleep(0.05)
    assert await sync_to_async(spectators)(public_id) == 2  # the player is not a spectator
    panel = await sync_to_async(render_seats)(table, Viewer(user=alice))
    assert 'class="spectators" data-count="2"' in panel and "2 watching" in panel
    for page in watchers:
        await page.disconnect()
    await players_page.disconnect()
    assert await sync_to_async(spectators)(public_id) == 0


async def test_a_spectators_page_stays_counted_through_its_process_marking_all_of_them_at_once():
    """Every HEARTBEAT one task of the process marks each of its spectators' sockets in
    one round trip (infra.presence); a socket whose mark were not renewed
    would drop out of the count after STALE seconds."""
    import redis.asyncio

    from django.conf import settings

    table, _alice = await sync_to_async(playing_table)()
    public_id = table.game.public_id
    carol = await sync_to_async(make_user)("carol")
    page, connected, _ = await connect(f"/ws/page/?game={public_id}", ORIGIN, await sync_to_async(cookie_for)(carol))
    assert connected
    client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    key = place_key(watchers_place(public_id))
    for _ in range(50):
        if await client.zcard(key) == 1:
            break
        await asyncio.sleep(0.05)
    [(channel, first)] = await client.zrange(key, 0, -1, withscores=True)
    await asyncio.sleep(0.05)
    await presence.mark()  # what the process's task does every HEARTBEAT
    assert await client.zscore(key, channel) > first
    await page.disconnect()
    await presence.mark()  # a closed page is not marked again
    assert await client.zcard(key) == 0
    await client.aclose()
