"""Presence written as a page's socket writes it (infra.presence), at a time of the
test's choosing where it says so (the service with its clock set)."""
import asyncio
from concurrent.futures import ThreadPoolExecutor

from infra.presence import Presence, place_key, presence, user_person
from infra.redis_clients import redis_client


def left_at(place, when):
    """A socket stood at `place` and left at `when` (seconds since the epoch); None: never there."""
    if when is None:
        redis_client().delete(place_key(place), f"{place_key(place)}:seen")
        return
    clocked = Presence(clock=lambda: when)

    async def visit():
        await clocked.enter("a-test-page", place)
        await clocked.leave("a-test-page", place)

    _in_a_loop(visit)


def _in_a_loop(work):
    with ThreadPoolExecutor(max_workers=1) as pool:  # a loop of its own: a browser test's thread runs one
        return pool.submit(asyncio.run, work()).result()


def page_open(user_id, path, channel="a-test-page"):
    """An account's page on `path` has its socket open, as its socket says on connect."""
    async def arrive():
        await presence.arrive(channel, user_person(user_id), path)
    _in_a_loop(arrive)


def page_closed(user_id, path, channel="a-test-page"):
    """That page's socket closed."""
    async def depart():
        await presence.arrive(channel, user_person(user_id), path)  # the socket of this loop
        await presence.depart(channel)
    _in_a_loop(depart)
