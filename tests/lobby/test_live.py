"""A table through a real daphne and Celery worker, without a browser: moves over
HTTP (as htmx sends them), state over the game websocket."""
import asyncio
import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest
import websockets
from django.test import Client

from games import Variant
from games.access import Viewer
from games.models import Game, Move
from lobby import actions
from tests.people import make_user

pytestmark = pytest.mark.django_db(transaction=True)


class Player:
    """Cookies, CSRF and htmx headers of one signed-in browser."""

    def __init__(self, site, user):
        self.site = site
        client = Client()
        client.force_login(user)
        self.session = client.cookies["sessionid"].value
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.opener.addheaders = [("Cookie", f"sessionid={self.session}")]

    def csrf(self):
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def get(self, path):
        with self.opener.open(self.site.url + path, timeout=20) as response:
            return response.read().decode()

    def post(self, path, data):
        request = urllib.request.Request(self.site.url + path, data=urllib.parse.urlencode(data).encode(), headers={
            "HX-Request": "true", "X-CSRFToken": self.csrf(), "Referer": self.site.url + "/",
            "Cookie": f"sessionid={self.session}; csrftoken={self.csrf()}"})
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


def ws_url(site, path):
    return site.url.replace("http://", "ws://") + path


async def next_state(socket, ply, timeout=10):
    """The first pushed state at `ply` or later."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        html = await asyncio.wait_for(socket.recv(), timeout=max(0.1, deadline - loop.time()))
        found = re.search(r'id="game-state"[^>]*data-ply="(\d+)"', html)
        if found and int(found.group(1)) >= ply:
            return html


@pytest.mark.asyncio
async def test_a_move_reaches_the_other_player_and_a_double_submit_applies_once(live_site):
    alice, bob = await asyncio.to_thread(make_user, "alice"), await asyncio.to_thread(make_user, "bob")
    table = await asyncio.to_thread(actions.open_table, alice, Variant(board="8x8"), listed=True)
    await asyncio.to_thread(actions.join, table, Viewer(user=bob))
    game = await asyncio.to_thread(Game.objects.get, pk=table.game_id)
    black, white = Player(live_site, alice), Player(live_site, bob)
    await asyncio.to_thread(black.get, f"/tables/{table.code}/")  # the page sets the CSRF cookie
    headers = {"Cookie": f"sessionid={white.session}"}
    async with websockets.connect(ws_url(live_site, f"/ws/page/?game={game.public_id}"), origin=live_site.url,
                                  additional_headers=headers) as socket, \
            websockets.connect(ws_url(live_site, f"/ws/page/?game={game.public_id}"), origin=live_site.url) as watcher:
        assert 'data-ply="0"' in await socket.recv()  # the whole state on connect
        await watcher.recv()
        # Two tabs (or a double click) send the same move at the same moment.
        results = []
        barrier = threading.Barrier(2)

        def submit():
            barrier.wait()
            results.append(black.post(f"/tables/{table.code}/move/", {"square": "d3", "ply": 0}))

        await asyncio.gather(asyncio.to_thread(submit), asyncio.to_thread(submit))
        assert sorted(status for status, _html in results) == [200, 409]
        assert "moved on" in next(html for status, html in results if status == 409)
        for page in (socket, watcher):  # the other player and a watcher of the public table
            html = await next_state(page, 1)
            assert 'data-turn="white"' in html and 'data-deadline="' in html
    moves = await asyncio.to_thread(lambda: list(Move.objects.filter(game=game).values_list("ply", "square")))
    assert moves == [(1, "d3")]


@pytest.mark.asyncio
async def test_a_late_move_is_refused_at_once_and_the_worker_makes_the_time_out(live_site):
    from datetime import timedelta

    from django.conf import settings
    from django.utils import timezone

    alice, bob = await asyncio.to_thread(make_user, "alice"), await asyncio.to_thread(make_user, "bob")
    table = await asyncio.to_thread(actions.open_table, alice, Variant(board="8x8"), level="hard",
                                    host_colour="black")
    await asyncio.to_thread(actions.join, table, Viewer(user=bob))
    game = await asyncio.to_thread(Game.objects.get, pk=table.game_id)
    black = Player(live_site, alice)
    await asyncio.to_thread(black.get, f"/tables/{table.code}/")
    headers = {"Cookie": f"sessionid={black.session}"}
    async with websockets.connect(ws_url(live_site, f"/ws/page/?game={game.public_id}"), origin=live_site.url,
                                  additional_headers=headers) as socket:
        assert 'data-ply="0"' in await socket.recv()
        await asyncio.to_thread(lambda: Game.objects.filter(pk=game.pk).update(
            deadline=timezone.now() - timedelta(seconds=settings.MOVE_TIME_GRACE + 1)))
        status, html = await asyncio.to_thread(black.post, f"/tables/{table.code}/move/", {"square": "d3", "ply": 0})
        assert status == 409 and "Your time for this move ran out; the computer moves for you." in html
        # The answer came before any time-out move: daphne searched nothing.
        assert 'data-ply="0"' in html
        html = await next_state(socket, 1, timeout=30)  # the late player sees the worker's move pushed
    move = await asyncio.to_thread(Move.objects.get, game=game, ply=1)
    assert (move.colour, move.made_by) == ("black", "timeout")
