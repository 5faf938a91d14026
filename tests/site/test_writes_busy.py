"""Every write of a request, not only a move, meets a database another connection keeps
locked (infra.write_waits), against the real daphne and worker: a chat message (form,
htmx and socket), a sign-up, a sign-in and a new game against the computer are each
answered "busy, try again" within a few seconds, in the page's language (HTTP 503; in
place for htmx; the chat's notice line over the socket), with nothing changed; /rules/
is served quickly while more writes wait than daphne has request threads; once the
lock goes the same writes go through.

SQLite: a write transaction (BEGIN IMMEDIATE) held open from another connection.
PostgreSQL (only when the test database is one): LOCK TABLE on every table they write."""
import asyncio
import http.client
import json
import threading
import time
import urllib.parse
from contextlib import contextmanager
from http.cookies import SimpleCookie

import pytest
import websockets
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection

from accounts.models import Profile
from chat.models import Message
from games import Variant
from games.access import Viewer
from games.models import Game
from lobby import actions
from tests.people import make_user
from tests.site.test_database_busy import sqlite_write_lock, timed_get

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

BUSY = "The site is busy; nothing was changed. Try again in a moment."
BUSY_DE = "Die Seite ist gerade ausgelastet; nichts wurde geändert. Versuche es gleich noch einmal."
PASSWORD = "a long enough passphrase"
# The tables these writes touch: the chat's, the accounts', the sessions', axes', the games'.
WRITTEN = ["chat_message", "auth_user", "accounts_profile", "django_session", "axes_accessattempt",
           "games_game", "games_seat"]


@contextmanager
def postgres_tables_lock():
    import psycopg

    settings = connection.settings_dict
    holder = psycopg.connect(dbname=settings["NAME"], user=settings["USER"] or None,
                             password=settings["PASSWORD"] or None, host=settings["HOST"] or None,
                             port=settings["PORT"] or None)
    # EXCLUSIVE: reading them goes on (ACCESS SHARE), changing one waits.
    holder.execute(f"LOCK TABLE {', '.join(WRITTEN)} IN EXCLUSIVE MODE")
    try:
        yield
    finally:
        holder.rollback()
        holder.close()


class Browser:
    """Cookies kept from answer to answer, as a browser keeps them, against one daphne."""

    def __init__(self, daphne, session=""):
        self.daphne, self.cookies = daphne, {"sessionid": session} if session else {}

    def send(self, method, path, data=None, language="en", htmx=False):
        """(status, body, headers by lower-case name) whatever the status; self.seconds: how long it took."""
        headers = {"Accept-Language": language, "Referer": self.daphne.url + path}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        body = None
        if data is not None:
            body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if htmx:
            headers["HX-Request"] = "true"
        started = time.monotonic()
        connection_ = http.client.HTTPConnection("127.0.0.1", self.daphne.port, timeout=60)
        try:
            connection_.request(method, path, body, headers)
            response = connection_.getresponse()
            text = response.read().decode()
            self.seconds = time.monotonic() - started
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    for morsel in SimpleCookie(value).values():
                        self.cookies[morsel.key] = morsel.value
            return response.status, text, {name.lower(): value for name, value in response.getheaders()}
        finally:
            connection_.close()

    def get(self, path, **options):
        return self.send("GET", path, **options)

    def post(self, path, data, **options):
        return self.send("POST", path, data, **options)


def signed_in_browser(user, daphne):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return Browser(daphne, client.cookies["sessionid"].value)


def what_is_stored():
    return (get_user_model().objects.count(), Profile.objects.count(), Message.objects.count(),
            Game.objects.count(), Session.objects.count())


def assert_busy(answer, browser, text=BUSY):
    status, body, headers = answer
    assert status == 503 and text in body, (status, body[:3000])
    assert headers.get("retry-after") == "1"
    assert browser.seconds < 6, f"answered after {browser.seconds:.1f} s"  # not the 20 s a worker waits


def the_story(live_site, lock):
    alice, bob = make_user("alice"), make_user("bob")
    # Carol signs up through the site (its password hasher, not the tests' fast one), then leaves.
    carol = Browser(live_site)
    carol.get("/accounts/signup/")
    assert carol.post("/accounts/signup/", {"username": "carol", "password1": PASSWORD, "password2": PASSWORD})[0] == 302
    table = actions.open_table(alice, Variant(board="6x6"), level="easy")
    actions.join(table, Viewer(user=bob))
    player = signed_in_browser(alice, live_site)
    player.get(f"/tables/{table.code}/")  # the page, and its CSRF cookie
    visitor = Browser(live_site)
    visitor.get("/accounts/signup/")
    chat_path = f"/chat/tables/{table.code}/send/"
    sign_up = {"username": "dora", "password1": PASSWORD, "password2": PASSWORD}
    new_game = {"board": "6x6", "players": "2", "level": "easy", "blocked": "0", "handicap": "0",
                "colour": "black"}
    before = what_is_stored()

    with lock():
        assert_busy(player.post(chat_path, {"chat_text": "hello"}), player)
        assert_busy(visitor.post("/accounts/signup/", sign_up), visitor)
        assert_busy(visitor.post("/accounts/login/", {"username": "carol", "password": PASSWORD}), visitor)
        assert_busy(visitor.post("/play/", new_game, language="de"), visitor, BUSY_DE)

        # htmx: the notice in place, and the element that asked left as it is.
        status, body, headers = answer = player.post(chat_path, {"chat_text": "hello"}, htmx=True)
        assert_busy(answer, player)
        assert headers.get("hx-reswap") == "none" and 'id="site-notice"' in body and "hx-swap-oob" in body

        # Over the table's socket: the chat's notice line says so.
        async def over_the_socket():
            url = live_site.url.replace("http://", "ws://") + f"/ws/page/?table={table.code}"
            async with websockets.connect(url, origin=live_site.url,
                                          additional_headers={"Cookie": f"sessionid={player.cookies['sessionid']}"}) as socket:
                await socket.send(json.dumps({"chat_text": "hello"}))
                while True:
                    frame = await asyncio.wait_for(socket.recv(), timeout=15)
                    if 'id="chat-notice"' in frame:
                        return frame

        assert BUSY in asyncio.run(over_the_socket())

        # More writes waiting at once than daphne has request threads (REQUEST_THREADS, 4):
        # pages that write nothing are still served, quickly.
        answers = []

        def write():  # a new game each (chat has its rate limit: a ninth message would be refused for that)
            writer = Browser(live_site)
            writer.cookies = dict(visitor.cookies)
            answers.append(writer.post("/play/", new_game))

        writers = [threading.Thread(target=write) for _ in range(8)]
        for writer in writers:
            writer.start()
        time.sleep(0.3)  # the writers are waiting now (each is answered only after its wait)
        rules = [timed_get(live_site, "/rules/") for _ in range(3)]
        print(f"GET /rules/ while 8 new games wait on the lock: {', '.join(f'{took:.2f} s' for _, took in rules)}")
        assert all(status == 200 and took < 2 for status, took in rules), rules
        for writer in writers:
            writer.join(30)
        assert [status for status, _, _ in answers] == [503] * 8

        assert what_is_stored() == before  # nothing half-done

    # The lock is gone: the same writes go through.
    assert player.post(chat_path, {"chat_text": "hello"})[0] == 302
    assert Message.objects.filter(game_id=table.game_id, text="hello").count() == 1
    signed_in = visitor.post("/accounts/login/", {"username": "carol", "password": PASSWORD})
    assert signed_in[0] == 302, signed_in[1]
    assert visitor.post("/play/", new_game)[0] == 302
    assert Game.objects.count() == before[3] + 1
    newcomer = Browser(live_site)
    newcomer.get("/accounts/signup/")
    assert newcomer.post("/accounts/signup/", sign_up)[0] == 302
    assert get_user_model().objects.filter(username="dora").count() == 1


def test_writes_meet_a_sqlite_write_lock_and_are_answered_busy_while_other_pages_are_served(live_site):
    if connection.vendor != "sqlite":
        pytest.skip("the test database is not SQLite")
    the_story(live_site, sqlite_write_lock)


def test_writes_meet_locked_postgresql_tables_and_are_answered_busy_while_other_pages_are_served(live_site):
    if connection.vendor != "postgresql":
        pytest.skip("runs when DATABASE_URL is PostgreSQL")
    the_story(live_site, postgres_tables_lock)
