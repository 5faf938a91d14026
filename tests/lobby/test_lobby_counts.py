"""The lobby's counts say what their words say: "people online" are the people with any
page of the site open (every page's socket has the site's stream: ?site=1, with the
notifications for an account), once each however many pages they have open; "games
being played" are the online tables' games under way, not games against the computer
a visitor walked away from."""
import asyncio

import pytest
import redis as redis_py
from asgiref.sync import sync_to_async
from django.conf import settings

from games import Variant
from games.access import Viewer
from games.creation import create_computer_game
from infra.presence import ONLINE
from lobby import actions, counts
from tests.lobby.test_sockets import ORIGIN, connect, cookie_for
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def nobody_counted():
    """The count lives in Redis, outside the test database."""
    client = redis_py.Redis.from_url(settings.REDIS_URL)
    client.delete(ONLINE)
    yield
    client.delete(ONLINE)
    client.close()


async def online_until(expected, seconds=5):
    """The count once it reads `expected` (a socket's arrival is written a moment after it opens)."""
    for _ in range(int(seconds * 20)):
        now = (await sync_to_async(counts.counts)())["online"]
        if now == expected:
            return now
        await asyncio.sleep(0.05)
    return now


async def test_people_online_are_those_with_any_page_of_the_site_open():
    alice = await sync_to_async(make_user)("alice", "Alice")
    alices_cookie = await sync_to_async(cookie_for)(alice)
    rules, _, _ = await connect("/ws/page/?site=1&lang=en&path=/rules/", ORIGIN, alices_cookie)
    games, _, _ = await connect("/ws/page/?site=1&lang=en&path=/games/", ORIGIN, alices_cookie)
    visitor, connected, _ = await connect("/ws/page/?site=1", ORIGIN)
    assert connected
    assert await online_until(2) == 2  # Alice on two pages and a visitor: no lobby or table page among them
    await rules.disconnect()
    await visitor.disconnect()
    assert await online_until(1) == 1
    await games.disconnect()
    assert await online_until(0) == 0


async def test_games_being_played_are_the_online_games_under_way():
    def games_of_every_kind():
        alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
        create_computer_game(Viewer(guest_token="walked-away"), Variant(board="8x8"))  # left mid-game
        playing = actions.open_table(alice, Variant(board="6x6"))
        actions.join(playing, Viewer(user=bob))
        actions.open_table(carol, Variant(board="6x6"), listed=True)  # waiting for players
    await sync_to_async(games_of_every_kind)()
    assert (await sync_to_async(counts.counts)())["playing"] == 1
