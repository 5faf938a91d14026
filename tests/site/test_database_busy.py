"""A database another connection keeps locked for longer than a move may wait
(infra.write_waits.REQUEST_LOCK_WAIT), against the real daphne and worker: a move is answered
"busy, try again" in place (HTTP 503, or a refusal over the game socket) with nothing
changed, pages that write nothing (/rules/, /healthz) keep being served meanwhile,
even with more moves waiting than daphne has request threads, and once the lock goes
the move sent again lands once.

SQLite: a write transaction (BEGIN IMMEDIATE) held open from another connection.
PostgreSQL (only when the test database is one): LOCK TABLE on the games' table."""
import asyncio
import http.client
import json
import sqlite3
import threading
import time
import urllib.parse
from contextlib import contextmanager

import pytest
from django.db import connection

from games import Variant
from games.access import Viewer
from games.models import Game, Move
from lobby import actions
from tests.people import make_user
from tests.site.test_two_daphnes import Player, state_at

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

BUSY = "The site is busy; your move is sent again in a moment."
BUSY_DE = "Die Seite ist gerade ausgelastet; dein Zug wird gleich noch einmal gesendet."


@contextmanager
def sqlite_write_lock():
    holder = sqlite3.connect(connection.settings_dict["NAME"], timeout=30, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


@contextmanager
def postgres_table_lock():
    import psycopg

    settings = connection.settings_dict
    holder = psycopg.connect(dbname=settings["NAME"], user=settings["USER"] or None,
                             password=settings["PASSWORD"] or None, host=settings["HOST"] or None,
                             port=settings["PORT"] or None)
    # EXCLUSIVE: reading the games goes on (ACCESS SHARE), changing one waits.
    holder.execute(f"LOCK TABLE {Game._meta.db_table} IN EXCLUSIVE MODE")
    try:
        yield
    finally:
        holder.rollback()
        holder.close()


def post(daphne, player, path, data, language="en"):
    """(status, body, headers) of an htmx POST, whatever the status."""
    connection_ = http.client.HTTPConnection("127.0.0.1", daphne.port, timeout=60)
    try:
        connection_.request("POST", path, urllib.parse.urlencode(data), {
            "Cookie": f"sessionid={player.session}; csrftoken={player.csrf}", "X-CSRFToken": player.csrf,
            "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded",
            "Accept-Language": language, "Referer": daphne.url + "/"})
        response = connection_.getresponse()
        return response.status, response.read().decode(), dict(response.getheaders())
    finally:
        connection_.close()


def timed_get(daphne, path):
    started = time.monotonic()
    connection_ = http.client.HTTPConnection("127.0.0.1", daphne.port, timeout=60)
    try:
        connection_.request("GET", path)
        response = connection_.getresponse()
        response.read()
        return response.status, time.monotonic() - started
    finally:
        connection_.close()


def the_story(live_site, lock):
    alice, bob = make_user("alice"), make_user("bob")
    table = actions.open_table(alice, Variant(board="6x6"), level="easy")
    actions.join(table, Viewer(user=bob))
    player = Player(alice, live_site)
    player.request(f"/tables/{table.code}/")  # the page, and its CSRF cookie
    game = Game.objects.get(pk=table.game_id)
    square = game.board().legal_moves[0]
    path = f"/tables/{table.code}/move/"
    answers = []

    with lock():
        # More moves at once than daphne has request threads (REQUEST_THREADS, 4).
        others = [threading.Thread(target=lambda: answers.append(post(live_site, player, path,
                                                                      {"square": square, "ply": 0})))
                  for _ in range(6)]
        started = time.monotonic()
        for thread in others:
            thread.start()
        time.sleep(0.3)
        for page in ("/rules/", "/healthz"):
            status, took = timed_get(live_site, page)
            assert status == 200 and took < 3, f"{page} answered {status} after {took:.1f} s"
        status, body, headers = post(live_site, player, path, {"square": square, "ply": 0}, "de")
        assert status == 503 and BUSY_DE in body and headers.get("Retry-After") == "1"
        for thread in others:
            thread.join(30)
        assert time.monotonic() - started < 10  # not the 20 s a worker waits
        assert [answer[0] for answer in answers] == [503] * 6
        assert all(BUSY in body and 'data-retry="1"' in body for _, body, _ in answers)

        async def over_the_socket():
            async with player.socket(game) as screen:
                await state_at(screen, 0)
                await screen.send(json.dumps({"move": square, "ply": "0"}))
                return await asyncio.wait_for(screen.recv(), timeout=15)

        refusal = asyncio.run(over_the_socket())
        assert BUSY in refusal and 'data-retry="1"' in refusal and 'id="game-state"' not in refusal
        assert Game.objects.get(pk=game.pk).ply == 0 and not Move.objects.filter(game=game).exists()

    # The lock is gone: the page sends the move again (twice, say), and it lands once.
    status, body, _ = post(live_site, player, path, {"square": square, "ply": 0})
    assert status == 200 and 'data-ply="1"' in body
    assert post(live_site, player, path, {"square": square, "ply": 0})[0] == 409
    assert Move.objects.filter(game=game).count() == 1


def test_a_move_meets_a_sqlite_write_lock_and_is_answered_busy_while_other_pages_are_served(live_site):
    if connection.vendor != "sqlite":
        pytest.skip("the test database is not SQLite")
    the_story(live_site, sqlite_write_lock)


def test_a_move_meets_a_locked_postgresql_table_and_is_answered_busy_while_other_pages_are_served(live_site):
    if connection.vendor != "postgresql":
        pytest.skip("runs when DATABASE_URL is PostgreSQL")
    the_story(live_site, postgres_table_lock)
