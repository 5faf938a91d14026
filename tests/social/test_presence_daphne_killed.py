"""A friend's presence after their daphne is killed: online while its socket keeps
saying so, offline once nobody has heard of it for PRESENCE_STALE seconds, without
anyone cleaning up."""
import asyncio
import time

import pytest
import websockets
from asgiref.sync import sync_to_async

from infra.presence import ONLINE, presence, user_person
from infra.redis_clients import redis_client
from social.online import is_online
from tests import servers
from tests.lobby.test_sockets import cookie_for

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_bob_goes_offline_after_his_daphne_is_killed(bob, tmp_path, monkeypatch):
    monkeypatch.setattr(presence, "stale", 3.0)  # as the doomed daphne reads it
    daphne = servers.start_daphne(tmp_path, name="doomed-daphne", PRESENCE_HEARTBEAT=1, PRESENCE_STALE=3)
    cookie = cookie_for(bob)[1].decode()
    try:
        async def open_and_kill():
            url = daphne.url.replace("http", "ws") + "/ws/page/?site=1&path=/lobby/"
            async with websockets.connect(url, origin=daphne.url, additional_headers={"Cookie": cookie}) as socket:
                await socket.recv()
                # The heartbeat keeps him online: it marks him again after his first mark
                # would have gone stale.
                first = await sync_to_async(last_mark)(bob.pk)
                deadline = time.monotonic() + 10
                while await sync_to_async(last_mark)(bob.pk) <= first + presence.stale:
                    assert time.monotonic() < deadline, "his mark was not renewed"
                    await asyncio.sleep(0.1)
                assert await sync_to_async(is_online)(bob.pk)
                daphne.crash()
                return True
        assert asyncio.run(open_and_kill_quietly(open_and_kill))
        start = time.monotonic()
        while is_online(bob.pk) and time.monotonic() - start < 10:
            time.sleep(0.2)
        assert not is_online(bob.pk)
        assert time.monotonic() - start < 5
    finally:
        daphne.stop()


def last_mark(user_id):
    """When a socket of the person last said it is alive (0: none)."""
    return redis_client().zscore(ONLINE, user_person(user_id)) or 0.0


async def open_and_kill_quietly(work):
    """The socket's close after the kill fails: that is the point."""
    try:
        return await work()
    except websockets.ConnectionClosed:
        return True
