"""The one presence (infra.presence) alone, with its clock moved by hand: who is
online and where, who stands at a place, since when, and what a killed daphne leaves
behind (marks nobody removes, which stop counting by themselves)."""
import uuid

import pytest

from infra.presence import Presence, place_key
from infra.redis_clients import redis_client

pytestmark = pytest.mark.asyncio


class Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def presence(clock):
    return Presence(clock=clock, heartbeat=5, stale=15)


def fresh(name):
    return f"{name}-{uuid.uuid4().hex[:8]}"


async def test_a_person_is_online_on_their_pages_until_their_last_page_closes(presence, clock):
    alice = fresh("ualice")
    await presence.arrive("tab-1", alice, "/lobby/")
    await presence.arrive("tab-2", alice, "/rules/")
    assert sorted(presence.pages([alice])[alice]) == ["/lobby/", "/rules/"]
    await presence.depart("tab-1")
    assert presence.pages([alice]) == {alice: ["/rules/"]}
    await presence.depart("tab-2")
    assert presence.pages([alice]) == {}


async def test_marks_not_heard_of_for_stale_seconds_stop_counting_and_the_heartbeat_renews_them(presence, clock):
    bob, place = fresh("ubob"), fresh("seat:g") + ":black"
    await presence.arrive("tab-1", bob, "/g/")
    assert await presence.enter("tab-1", place) is True
    online = presence.online_count()
    clock.now += 14
    assert presence.pages([bob]) and presence.last_seen([place])[place] == (True, clock.now - 14)
    await presence.mark()  # what the loop's task does every heartbeat
    clock.now += 14
    assert presence.pages([bob]) and presence.last_seen([place])[place] == (True, clock.now - 14)
    # Its daphne is killed: nothing departs, nothing marks. A heartbeat later than STALE it is gone,
    # since the last time it was heard of.
    clock.now += 2
    assert presence.pages([bob]) == {}
    assert presence.last_seen([place])[place] == (False, clock.now - 16)
    assert presence.count(place) == 0
    assert presence.online_count() == online - 1


async def test_a_place_says_whether_someone_else_was_there_and_whether_anyone_still_is(presence, clock):
    place = fresh("seat:g") + ":white"
    assert presence.last_seen([place])[place] == (False, None)  # never here
    assert await presence.enter("tab-1", place) is True  # away until now
    assert await presence.enter("tab-2", place) is False  # a second tab: here already
    assert presence.count(place) == 2
    clock.now += 3
    assert await presence.leave("tab-1", place) is False  # one tab still open
    clock.now += 3
    assert await presence.leave("tab-2", place) is True
    assert presence.last_seen([place])[place] == (False, clock.now)  # gone since the last tab left
    assert presence.count(place) == 0


async def test_a_socket_of_the_same_person_elsewhere_in_the_process_keeps_them_online(presence, clock):
    carol = fresh("ucarol")
    await presence.arrive("tab-1", carol, "/a/")
    await presence.arrive("tab-2", carol, "/b/")
    before = presence.online_count()
    await presence.depart("tab-1")
    assert presence.online_count() == before
    await presence.depart("tab-2")
    assert presence.online_count() == before - 1


async def test_a_place_is_marked_with_every_socket_of_the_process_in_one_write(presence, clock):
    place = fresh("watch:g")
    for tab in ("tab-1", "tab-2", "tab-3"):
        await presence.enter(tab, place)
    clock.now += 10
    await presence.mark()
    scores = dict(redis_client().zrange(place_key(place), 0, -1, withscores=True))
    assert set(scores.values()) == {clock.now}
    await presence.leave("tab-2", place)
    clock.now += 10
    await presence.mark()  # a socket that left is not marked again
    assert sorted(redis_client().zrange(place_key(place), 0, -1)) == [b"tab-1", b"tab-3"]
