"""Faults with the real processes: Redis killed and started again, a time-out
falling due while no worker runs. No move is answered with an error, nothing stays
down, and what was due while a part was away happens by itself once it is back.

These tests kill processes, so they run a site of their own: a private Redis,
daphne, a Celery worker and Celery beat, started here and stopped by PID. The
machine's Redis (and the session's) is never touched.
"""
import asyncio
import concurrent.futures
import http.cookiejar
import re
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import timedelta

import pytest
import websockets
from celery import Celery
from django.test import Client
from django.utils import timezone

from config.embedded_redis import EmbeddedRedis
from config.settings import celery_redis_url
from games import Board, Variant
from games.models import Game, Move, Seat
from lobby.models import Table
from tests import servers
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

MOVE_TIME_LIMIT = 3
RECOVERY = 15  # seconds after Redis is back by which everything due has happened


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker, tmp_path_factory):
    """A private Redis, daphne, a worker and beat with a 3 s move time limit."""
    log_dir = tmp_path_factory.mktemp("faults")
    redis = EmbeddedRedis(f"unix://{tempfile.mkdtemp(prefix='rf-')}/redis.sock").start()
    env = {"REDIS_URL": redis.url, "MOVE_TIME_LIMIT": MOVE_TIME_LIMIT}
    parts = {}
    # The session's other sites' workers would time out this module's overdue
    # players (every worker's clock watches the whole test database).
    with servers.workers_paused():
        try:
            with django_db_blocker.unblock():
                parts["worker"] = servers.start_worker(log_dir, name="faults-worker", **env)
                parts["beat"] = servers.start_beat(log_dir, name="faults-beat", **env)
                parts["daphne"] = daphne = servers.start_daphne(log_dir, name="faults-daphne", **env)
            daphne.redis, daphne.env, daphne.log_dir, daphne.parts = redis, env, log_dir, parts
            yield daphne
        finally:
            for process in parts.values():
                process.stop()
            redis.stop()


class Visitor:
    """A browser without JavaScript: cookies, CSRF header, htmx requests."""

    def __init__(self, base):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name):
        return next(c.value for c in self.jar if c.name == name)

    def request(self, path, data=None, htmx=False):
        headers = {"HX-Request": "true"} if htmx else {}
        body = None
        if data is not None:
            headers["X-CSRFToken"] = self.cookie("csrftoken")
            body = urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode(), response.geturl()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(), None

    def start_computer_game(self):
        self.request("/play/")
        status, _page, url = self.request("/play/", {"board": "8x8", "players": "2", "level": "easy",
                                                     "blocked": "0", "handicap": "0", "handicap_colour": "white"})
        assert status == 200, status
        return Game.objects.get(public_id=url.rstrip("/").rsplit("/", 1)[1])

    def cookie_header(self):
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def sign_in(self, username):
        """A new account, signed in with a session made here (the site's own hashers are
        not the tests' fast one)."""
        client = Client()
        client.force_login(make_user(username, username.title()))
        self.jar.set_cookie(http.cookiejar.Cookie(
            0, "sessionid", client.cookies["sessionid"].value, None, False, "127.0.0.1", False, False, "/", True,
            False, None, True, None, None, {}))
        self.request("/lobby/")  # the CSRF cookie

    def open_listed_table(self):
        """A public 3-player table: (status, its code)."""
        status, html, url = self.request("/tables/new/", {
            "board": "8x8", "players": 3, "blocked": 0, "handicap": 0, "handicap_colour": "white",
            "seat": "black", "level": "easy", "listed": "on"})
        return status, (url or "").rstrip("/").rsplit("/", 1)[-1]


def wait_until(condition, timeout, what):
    started = time.monotonic()
    while True:
        result = condition()
        if result:
            return time.monotonic() - started
        assert time.monotonic() - started < timeout, f"{what}: not within {timeout} s"
        time.sleep(0.1)


def my_turn(game):
    game.refresh_from_db()
    return game.turn == Seat.objects.get(game=game, is_computer=False).colour


def table_game_due_in(seconds):
    """A running two-guest table whose player to move runs out of time in `seconds`."""
    variant = Variant(board="6x6")
    game = Game.objects.create(kind=Game.Kind.TABLE, variant=variant.to_dict(), status=Game.Status.PLAYING,
                               turn=Board(variant).turn, deadline=timezone.now() + timedelta(seconds=seconds))
    Seat.objects.bulk_create([Seat(game=game, colour="black", guest_token="g-black"),
                              Seat(game=game, colour="white", guest_token="g-white")])
    return game


def ply_in(html):
    return int(re.search(r'id="game-state"[^>]*data-ply="(\d+)"', html).group(1))


async def state_over_a_fresh_socket(site, game, visitor, timeout):
    """Reconnect as htmx's ws extension does (again and again until the server takes
    it) and return the ply of the first state the server sends."""
    url = site.url.replace("http://", "ws://") + f"/ws/page/?game={game.public_id}"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            async with websockets.connect(url, origin=site.url, open_timeout=3,
                                          additional_headers={"Cookie": visitor.cookie_header()}) as socket:
                return ply_in(await asyncio.wait_for(socket.recv(), timeout=5))
        except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException):
            assert loop.time() < deadline, "the game's websocket did not come back"
            await asyncio.sleep(0.5)


async def state_then_close(site, game, visitor, opened=None, wait=10):
    """A page's game socket: the ply of the state it is sent, and the code it is closed with."""
    url = site.url.replace("http://", "ws://") + f"/ws/page/?game={game.public_id}"
    async with websockets.connect(url, origin=site.url, additional_headers={"Cookie": visitor.cookie_header()}) as socket:
        shown = ply_in(await asyncio.wait_for(socket.recv(), timeout=10))
        if opened is not None:
            opened.set()
        with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
            await asyncio.wait_for(socket.recv(), timeout=wait)
    return shown, closed.value.rcvd.code


async def site_socket_close_code(site):
    """Every page's /ws/page/?site=1 socket: opened (not a 500 handshake), then closed for a retry."""
    url = site.url.replace("http://", "ws://") + "/ws/page/?site=1"
    async with websockets.connect(url, origin=site.url) as socket:
        with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
            await asyncio.wait_for(socket.recv(), timeout=10)
    return closed.value.rcvd.code


def test_redis_killed_and_started_again_loses_no_move_and_everything_due_happens(site):
    visitor = Visitor(site.url)
    game = visitor.start_computer_game()
    wait_until(lambda: my_turn(game), 30, "my first turn")
    ply = game.ply
    assert asyncio.run(state_over_a_fresh_socket(site, game, visitor, 10)) == ply
    overdue = table_game_due_in(3600)  # runs out while Redis is away (below)
    # The worker holds a task a minute away (unacknowledged) when Redis dies: the case
    # in which it used to exit with "Unrecoverable error: AttributeError". (The task
    # is a computer move for a ply that has passed: it does nothing when it runs.)
    worker = site.parts["worker"]
    held = worker.output().count("games.computer_move[")
    with Celery(broker=celery_redis_url(site.redis.url)) as broker:
        broker.send_task("games.computer_move", args=(game.pk, 0), countdown=60, queue="visitors")
    wait_until(lambda: worker.output().count("games.computer_move[") > held, 10, "the worker to hold a task")

    # A page open from before: it is closed for a retry when Redis goes (it would miss
    # what is pushed meanwhile), on either channel layer (config.channel_layer).
    opened = threading.Event()
    open_page = concurrent.futures.ThreadPoolExecutor(1).submit(
        asyncio.run, state_then_close(site, game, visitor, opened=opened, wait=60))
    assert opened.wait(10), "the open page's first state"

    site.redis.process.kill()  # kill -9
    site.redis.process.wait()
    killed = time.monotonic()
    Game.objects.filter(pk=overdue.pk).update(deadline=timezone.now() - timedelta(seconds=1))  # due now
    square = game.board().legal_moves[0]
    status, html, _ = visitor.request(f"/play/{game.public_id}/move/", {"square": square, "ply": ply}, htmx=True)
    answered = time.monotonic() - killed
    assert status == 200, html[-2000:]  # the move is saved and answered with the new state
    assert ply_in(html) == ply + 1
    assert Move.objects.get(game=game, ply=ply + 1).square == square
    print(f"move while Redis is down: answered 200 in {answered:.2f} s")
    assert "not pushed" in site.output() and "not queued" in site.output()  # logged, not raised
    # A page that (re)connects meanwhile still gets the current state, then a close htmx retries after.
    assert asyncio.run(state_then_close(site, game, visitor)) == (ply + 1, 1011)
    assert asyncio.run(site_socket_close_code(site)) == 1011
    assert open_page.result(timeout=15) == (ply, 1011)
    # The worker has lost Redis while it held the task (before, it exited here).
    wait_until(lambda: "Connection to broker lost" in worker.output(), 10, "the worker to see Redis gone")

    site.redis.start()  # the same socket, empty: every queued task is gone
    back = time.monotonic()
    health = wait_until(lambda: servers.http_status(site.url + "/healthz", timeout=5) == 200, RECOVERY,
                        "/healthz 200 again")
    wait_until(lambda: Game.objects.get(pk=game.pk).ply >= ply + 2, RECOVERY - (time.monotonic() - back),
               "the computer's answer to the move made while Redis was away")
    computer = time.monotonic() - back
    wait_until(lambda: Move.objects.filter(game=overdue, ply=1, made_by="timeout").exists(),
               RECOVERY - (time.monotonic() - back), "the time-out that fell due while Redis was away")
    timeout = time.monotonic() - back
    synced_ply = asyncio.run(state_over_a_fresh_socket(site, game, visitor, RECOVERY))
    resync = time.monotonic() - back
    assert synced_ply == Game.objects.get(pk=game.pk).ply >= ply + 2
    assert worker.alive(), "the worker exited instead of riding out the outage"
    assert "Unrecoverable error" not in worker.output()
    print(f"Redis back: /healthz 200 after {health:.1f} s, computer move after {computer:.1f} s, "
          f"overdue time-out after {timeout:.1f} s, websocket resynced after {resync:.1f} s")


ADDED_ROWS = 'hx-swap-oob="afterbegin:#open-tables tbody"'


async def lobby_page(site, opened=None, wait=10, until=None, timeout=10):
    """A lobby page's socket (connected again and again until the server takes it): its
    first frame, and then either the frames up to one holding `until`, or the code it
    is closed with within `wait` seconds."""
    url = site.url.replace("http://", "ws://") + "/ws/page/?lobby=1"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            async with websockets.connect(url, origin=site.url, open_timeout=3) as socket:
                frames = [await asyncio.wait_for(socket.recv(), timeout=5)]
                if opened is not None:
                    opened.set()
                if until is not None:
                    while until not in frames[-1]:
                        frames.append(await asyncio.wait_for(socket.recv(), timeout=max(0.1, deadline - loop.time())))
                    return frames
                with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                    await asyncio.wait_for(socket.recv(), timeout=wait)
                return frames, closed.value.rcvd.code
        except (OSError, asyncio.TimeoutError, websockets.exceptions.InvalidHandshake):
            assert loop.time() < deadline, "the lobby's websocket did not come back"
            await asyncio.sleep(0.5)


def test_lobby_pages_are_closed_when_redis_goes_and_see_every_table_once_it_is_back(site):
    """A daphne takes the lobby's changes once for all its lobby pages (lobby.feed):
    when Redis goes, its pages are closed for a retry, since they would miss what
    changes meanwhile; once Redis is back a page sees the tables listed meanwhile, and
    the changes after them."""
    host = Visitor(site.url)
    host.sign_in("hostess")
    status, before = host.open_listed_table()
    assert status == 200
    first = asyncio.run(lobby_page(site, until=before))
    assert 'id="lobby-tables"' in first[0] and before in first[0]

    opened = [threading.Event(), threading.Event()]
    pages = [concurrent.futures.ThreadPoolExecutor(1).submit(asyncio.run, lobby_page(site, opened=event, wait=60))
             for event in opened]
    assert all(event.wait(10) for event in opened), "the open pages' lists"
    site.redis.process.kill()
    site.redis.process.wait()
    for page in pages:
        frames, code = page.result(timeout=15)
        assert code == 1011 and before in frames[0]
    status, meanwhile = host.open_listed_table()  # saved; its lobby change is lost with Redis
    assert status == 200 and Table.objects.filter(code=meanwhile, listed=True).exists()

    site.redis.start()
    wait_until(lambda: servers.http_status(site.url + "/healthz", timeout=5) == 200, RECOVERY, "/healthz 200 again")
    frames = asyncio.run(lobby_page(site, until=meanwhile, timeout=RECOVERY))
    assert before in frames[0]  # read whole: both tables
    opened = threading.Event()
    follower = concurrent.futures.ThreadPoolExecutor(1).submit(
        asyncio.run, lobby_page(site, opened=opened, until=ADDED_ROWS, timeout=20))
    assert opened.wait(10)
    status, after = host.open_listed_table()
    assert status == 200
    frames = follower.result(timeout=25)
    assert after in frames[-1] and 'id="lobby-tables"' not in frames[-1]  # a change, not the list again
    assert "the lobby's changes stopped coming" in site.output()


def test_a_time_out_that_fell_due_with_no_worker_is_made_by_the_next_workers(site):
    # Time-outs queue no task (each worker's clock, games.deadlines): a deadline
    # that passes while every worker is down is kept by whichever worker starts next.
    site.parts["worker"].crash()  # kill -9
    site.parts["worker"].stop()  # clears its orphaned pool processes, as make run's supervisor does
    game = table_game_due_in(-1)  # fell due while no worker ran
    # Two workers at once: both clocks find the overdue player, one of them claims it.
    site.parts["worker"] = servers.start_worker(site.log_dir, name="faults-worker-2", **site.env)
    ready = timezone.now()
    site.parts["worker-3"] = servers.start_worker(site.log_dir, name="faults-worker-3", **site.env)
    wait_until(lambda: Move.objects.filter(game=game, ply=1).exists(), 15, "the time-out move")
    move = Move.objects.get(game=game, ply=1)  # one move per ply: the database's unique (game, ply)
    assert (move.colour, move.made_by) == ("black", "timeout")
    made = (move.created_at - ready).total_seconds()
    print(f"time-out due while no worker ran: made {made:.1f} s after the first of two new workers was ready")


def test_a_player_past_their_deadline_is_timed_out_within_seconds(site):
    game = table_game_due_in(MOVE_TIME_LIMIT)
    wait_until(lambda: Move.objects.filter(game=game, ply=1).exists(), MOVE_TIME_LIMIT + 10, "the time-out move")
    move = Move.objects.get(game=game, ply=1)
    late = (move.created_at - game.deadline).total_seconds()
    assert move.made_by == "timeout"
    # Never before the deadline, and within seconds of it (the clock ticks every second;
    # the bound leaves a loaded machine room, the print says how late it really was).
    assert 0 <= late < 8
    print(f"time-out made {late:.2f} s after the deadline")
