"""A stalled Redis holds nothing up: the site's clients give up after a timeout.

A Redis that is down refuses at once; one that is stalled (here its real process,
paused with SIGSTOP) accepts a connection and never answers. Each call below runs in
a thread given a generous bound: without the clients' timeouts it would wait for as
long as Redis stays paused, and the bound would fail the test instead of hanging it.
"""
import ast
import asyncio
import os
import signal
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis
from django.test import override_settings

from chat import limits
from config.embedded_redis import EmbeddedRedis
from games import gone
from infra.presence import presence
from infra.redis_clients import redis_client
from lobby import counts, host_presence

ROOT = Path(__file__).resolve().parents[2]
BOUND = 30  # seconds: far above the clients' TIMEOUT, far below forever


@pytest.fixture
def paused_redis():
    """A private Redis the site's clients use, paused; resumed at the end."""
    server = EmbeddedRedis(f"unix://{tempfile.mkdtemp(prefix='stall-')}/redis.sock").start()
    with override_settings(REDIS_URL=server.url):
        redis_client.cache_clear()
        os.kill(server.process.pid, signal.SIGSTOP)
        try:
            yield server
        finally:
            os.kill(server.process.pid, signal.SIGCONT)
            redis_client.cache_clear()
            server.stop()


def within_bound(call, *args):
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(call, *args).result(timeout=BOUND)
    finally:
        pool.shutdown(wait=False)  # a call still waiting ends when the fixture resumes Redis


@pytest.mark.django_db
def test_the_lobby_page_is_drawn_while_redis_is_stalled(client, paused_redis):
    response = within_bound(client.get, "/lobby/")
    assert response.status_code == 200
    assert response.context["counts"]["online"] == 0
    assert response.context["version"] == 0  # the page takes any push


@pytest.mark.django_db
def test_each_reader_answers_as_if_redis_were_away_and_writers_get_an_error(paused_redis):
    assert within_bound(counts.counts)["online"] == 0
    assert within_bound(host_presence.last_seen, [1, 2]) == {1: None, 2: None}
    assert within_bound(gone.spectators, "abcd") == 0
    with pytest.raises(redis.TimeoutError):
        within_bound(limits.take, "chat", "someone")


@pytest.mark.django_db
def test_once_redis_resumes_the_same_clients_work_again(paused_redis):
    with pytest.raises(redis.TimeoutError):
        within_bound(presence.count, "host:7")
    os.kill(paused_redis.process.pid, signal.SIGCONT)
    assert within_bound(presence.count, "host:7") == 0


@pytest.mark.asyncio
async def test_a_sockets_presence_mark_fails_instead_of_waiting(paused_redis):
    # A page socket's connect awaits its mark (lobby.announcements): it must not hang.
    with pytest.raises(redis.TimeoutError):
        await asyncio.wait_for(presence.enter("channel-1", "seat:abcd:black"), BOUND)
    os.kill(paused_redis.process.pid, signal.SIGCONT)
    assert await presence.enter("channel-1", "seat:abcd:black") is True
    assert await presence.leave("channel-1", "seat:abcd:black") is True


def test_no_module_but_infra_redis_clients_makes_its_own_client():
    makers = []
    for app in ("accounts", "chat", "config", "games", "infra", "lobby", "social"):
        for path in (ROOT / app).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Attribute) and node.attr == "from_url":
                    makers.append(str(path.relative_to(ROOT)))
    assert sorted(set(makers)) == ["infra/redis_clients.py"]
