"""Every endpoint of a live daphne under hostile requests: every URL pattern (its path
parameters filled with real ids and with junk) with every method, form fields and
query parameters of wrong types, lengths, encodings and nesting, sent with a proper
CSRF token by a signed-in stranger, a guest and an anonymous visitor; then websocket
paths and frames. No answer is a 5xx, daphne logs no traceback, and nothing that
belongs to someone else changes.

The generator is seeded (FUZZ_SEED, default below) so a failure can be replayed;
the failing requests are listed in the assertion message. The site trusts
127.0.0.1 as a proxy and every request claims one of a few hundred client
addresses, so the per-address limits stay the exception (429 is an answer like
any 4xx) and the views really get the bad values.
"""
import json
import os
import random
import re
import time
from urllib.parse import quote, urlencode

import pytest
import websockets.exceptions
from django.contrib.auth import get_user_model
from django.forms.models import model_to_dict
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from websockets.sync.client import connect

from accounts.models import Profile
from games import Variant
from games.forms import LevelForm, PlayForm
from games.models import Game, Move, Seat
from games.review.forms import GamesFilter, ImportForm
from lobby import actions as tables
from lobby.forms import CodeForm, GuestForm, TableForm
from lobby.models import Table
from tests import servers
from tests.http_session import Session
from tests.review.conftest import FULL_GAME, WIPEOUT, store_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

SEED = int(os.environ.get("FUZZ_SEED", "1313"))
HTTP_REQUESTS = int(os.environ.get("FUZZ_REQUESTS", "5200"))
SOCKETS = 150
# GET and POST reach the views; the others mostly meet require_http_methods (405).
METHODS = {"GET": 30, "POST": 45, "PUT": 5, "DELETE": 5, "HEAD": 5, "OPTIONS": 5, "PATCH": 5}
PASSWORD = "a long enough passphrase"

# Field names the views read besides their forms' own.
EXTRA_FIELDS = ["ply", "square", "public", "seat", "next", "code", "moves", "page", "lang", "name",
                "username", "password", "email", "old_password", "new_password1", "new_password2",
                "password1", "password2", "display_name", "language", "csrfmiddlewaretoken", "_save", "action"]
FORMS = [PlayForm, TableForm, CodeForm, GuestForm, ImportForm, LevelForm, GamesFilter]
FIELDS = sorted({name for form in FORMS for name in form.base_fields} | set(EXTRA_FIELDS))

# ("hard" is left out: every computer game a fuzzer opens at Hard keeps the worker busy 2 s a move.)
PLAUSIBLE = ["8x8", "6x6", "10x10", "octagon", "2", "3", "4", "0", "1", "black", "white", "red", "green",
             "easy", "normal", "on", "true", "d3", "c4", "f5", "pass", "de", "en", "/", "/lobby/",
             "won", "lost", "standard", "anti"]
HOSTILE = [
    "", " ", "-1", "²", "٣", "1_000", "9" * 5000, "1e309", "NaN", "-0", "0x10", "\x00", "a\x00b", "\u202e",
    "💥" * 50, "ß", "İ", "<script>alert(1)</script>", "' OR '1'='1' --", "../../etc/passwd", "%00", "%ff",
    "http://evil.example/", "//evil.example", "javascript:alert(1)", "x" * 70_000, "\r\nSet-Cookie: a=b",
    "[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000, "{", '{"variant": 5, "moves": {}}',
    '{"variant": {"board": [[]]}, "moves": [1]}', '{"variant": {"players": 1e400}, "transcript": 5}',
    "true", "null", "[]", "{}", "ABCDE23456", "abcde-23456",
]
PATH_JUNK = ["x", "%00", "a%00b", "%ff%fe", "..", "%2e%2e", "a" * 3000, "%E2%80%AE", "💥", "²", "-1",
             "99999999999999999999", "%zz", "%", "a/b", "ABCDE23456", "<b>", "'", "%0d%0a", "~", "1"]
LANGUAGES = ["de", "en", "xx", "de;q=abc", "*", "de-DE,de;q=0.9", "a" * 300, "", "zh-Hant-TW"]


def route_templates():
    """'/games/{public_id}/' for every URL pattern (regex groups and converters alike)."""
    def walk(patterns, prefix):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern):
                route = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", route)
                route = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)
                yield "/" + route.replace("^", "").replace("$", "")
    return sorted(set(walk(get_resolver().url_patterns, "")))


class World:
    """What exists before the fuzz: other people's games, tables and accounts."""

    def __init__(self):
        User = get_user_model()
        self.olivia = User.objects.create_user("olivia", "olivia@example.com", PASSWORD)
        self.bob = User.objects.create_user("bob", "bob@example.com", PASSWORD)
        self.mallory = User.objects.create_user("mallory", "mallory@example.com", PASSWORD)
        for user in (self.olivia, self.bob, self.mallory):
            Profile.objects.create(user=user, display_name=user.username.title())
        self.games = [
            store_game(WIPEOUT, players=[self.olivia], finished=False),         # olivia to move
            store_game(FULL_GAME, players=[self.olivia]),                       # finished, private
            store_game(WIPEOUT, players=[self.olivia, self.bob], public=True),  # finished, public
        ]
        self.waiting = tables.open_table(self.olivia, Variant(board="6x6"))
        self.waiting_public = tables.open_table(self.bob, Variant(board="8x8", players=3), listed=True)
        self.playing = tables.open_table(self.olivia, Variant(board="6x6"), computer_colours=["white"])
        # Nobody moves at the playing table during the fuzz: its time-out is an hour away.
        Game.objects.filter(pk=self.playing.game_id).update(deadline=timezone.now() + timezone.timedelta(hours=1))
        self.tables = [self.waiting, self.waiting_public, self.playing]
        self.joinable = {self.waiting.game_id, self.waiting_public.game_id}
        # Games and tables the fuzzers open themselves (from the redirects they get), to play in.
        self.own = {"public_id": set(), "code": set()}

    def path_values(self, name):
        if name == "public_id":
            return [game.public_id for game in self.games] + [t.game.public_id for t in self.tables] + \
                sorted(self.own["public_id"])
        if name == "code":
            return [t.code for t in self.tables] + [self.waiting.code.lower(), "-".join(self.playing.code)] + \
                sorted(self.own["code"])
        if name == "username":
            return ["olivia", "bob", "mallory", "nobody"]
        if name == "slug":
            return ["8x8", "octagon", "anti", "three-players"]
        if name == "app_label":
            return ["auth", "axes"]
        if name in ("object_id", "id", "content_type_id"):
            return [str(self.olivia.pk), "1", "2"]
        if name in ("uidb64", "token"):
            return ["MQ", "set-password", "Mg-x"]
        return []


def snapshot():
    """Every row a stranger may not touch, by model and primary key."""
    User = get_user_model()
    rows = {}
    for model in (Game, Seat, Table, Move, User, Profile):
        rows[model.__name__] = {row.pk: model_to_dict(row) | {"pk": row.pk} for row in model.objects.all()}
    return rows


def forbidden_changes(before, after, world):
    """What changed that the fuzzing strangers were not allowed to change.

    Allowed: new rows of their own (games they started, seats they took, their moves),
    taking a free seat at a waiting table and what follows from it there, and their
    own profile (mallory's). Nothing else of anyone else may differ."""
    problems = []
    old_tokens = {row["guest_token"] for row in before["Seat"].values() if row["guest_token"]}
    strangers = {world.mallory.pk}

    def strangers_seat(row):
        return row["user"] in strangers or (row["guest_token"] and row["guest_token"] not in old_tokens)

    joined = {row["game"] for row in after["Seat"].values() if strangers_seat(row)} & world.joinable
    for model, rows in before.items():
        for pk, row in rows.items():
            new = after[model].get(pk)
            if new is None:
                problems.append(f"{model} {pk} was deleted")
                continue
            if new == row:
                continue
            if model == "Profile" and row["user"] == world.mallory.pk:
                continue
            if model == "User" and pk == world.mallory.pk and row["password"] == new["password"]:
                continue  # last_login and the like
            game = row.get("game") if model in ("Seat", "Move", "Table") else pk if model == "Game" else None
            if game in joined and not (model == "Seat" and row["user"] is not None):
                continue  # a waiting table filled up and started; nobody's own seat changed hands
            if model == "Game" and pk in world.joinable and {key for key in row if row[key] != new[key]} == {"version"}:
                continue  # a free seat taken and given back: one version each (games.events)
            changed = {key: (row[key], new[key]) for key in row if row[key] != new[key]}
            problems.append(f"{model} {pk} changed: {str(changed)[:300]}")
    for model, rows in after.items():
        for pk, row in rows.items():
            if pk in before[model]:
                continue
            if model == "Seat" and not (strangers_seat(row) or row["is_computer"] or row["game"] in joined
                                        or not any(s["game"] == row["game"] for s in before["Seat"].values())):
                problems.append(f"new seat {pk} in someone else's game: {row}")
            if model == "Move":
                old_game = any(g == row["game"] for g in before["Game"])
                if old_game and row["game"] not in joined:
                    problems.append(f"new move in someone else's game: {row}")
    return problems


class Fuzzer:
    def __init__(self, url, world, rng):
        self.url, self.world, self.rng = url, world, rng
        templates = route_templates()
        self.admin_templates = [t for t in templates if t.startswith("/admin/")]
        self.site_templates = [t for t in templates if not t.startswith("/admin/")]
        self.sessions = {"mallory": Session(url), "guest": Session(url), "anonymous": Session(url)}
        self.sign_in_mallory()
        self.sent = 0
        self.statuses = {}
        self.failures = []

    def sign_in_mallory(self):
        """A session cookie as after signing in (the test process hashes passwords
        with a hasher daphne does not know, so no password sign-in here)."""
        client = Client()
        client.force_login(self.world.mallory)
        self.sessions["mallory"].cookies["sessionid"] = client.cookies["sessionid"].value

    # -- values ------------------------------------------------------------------------

    def value(self):
        roll = self.rng.random()
        if roll < 0.35:
            return self.rng.choice(PLAUSIBLE)
        if roll < 0.5:
            return str(self.rng.choice([0, 1, 7, 9, 60, 61, -3, 2 ** 31, 2 ** 63, 10 ** 30]))
        if roll < 0.6:
            return self.rng.choice(self.world.path_values(self.rng.choice(["public_id", "code", "username"])))
        if roll < 0.65:
            return "".join(chr(self.rng.randrange(1, 0x3000)) for _ in range(self.rng.randrange(1, 40)))
        return self.rng.choice(HOSTILE)

    def fields(self):
        pairs = []
        for _ in range(self.rng.randrange(0, 8)):
            name = self.rng.choice(FIELDS) if self.rng.random() < 0.9 else self.value()[:50]
            for _ in range(2 if self.rng.random() < 0.1 else 1):  # sometimes a field twice
                pairs.append((name, self.value()))
        return pairs

    def path(self):
        # The admin has half the patterns but is one door (staff only): a sixth of the tries.
        template = self.rng.choice(self.admin_templates if self.rng.random() < 0.15 else self.site_templates)

        def fill(match):
            real = self.world.path_values(match.group(1))
            if real and self.rng.random() < 0.6:
                return quote(self.rng.choice(real), safe="")
            return quote(self.rng.choice(PATH_JUNK), safe="%/")
        path = re.sub(r"\{(\w+)\}", fill, template)
        if self.rng.random() < 0.3:
            query = self.fields()
            path += "?" + (urlencode(query) if self.rng.random() < 0.8 else self.rng.choice(["%zz=%ff", "a=%00",
                                                                                          "&&==&", "ply=%C2%B2"]))
        # Twisted closes the connection on a request line over 16 KB, before daphne sees it.
        return path[:12_000]

    def body(self, method):
        """(bytes, content type) of a body, usually a form, sometimes something else."""
        if method in ("GET", "HEAD", "OPTIONS") and self.rng.random() < 0.9:
            return None, None
        pairs = self.fields()
        roll = self.rng.random()
        if roll < 0.7:
            return urlencode(pairs).encode(), "application/x-www-form-urlencoded"
        if roll < 0.8:
            boundary = "fuzz" + str(self.rng.randrange(10 ** 6))
            parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
                     for name, value in pairs]
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.json"\r\n'
                         f"Content-Type: application/json\r\n\r\n{self.rng.choice(HOSTILE)}\r\n")
            body = "".join(parts) + f"--{boundary}--\r\n"
            return body.encode("utf-8", "surrogatepass"), f"multipart/form-data; boundary={boundary}"
        if roll < 0.85:
            return json.dumps(dict(pairs)).encode(), "application/json"
        if roll < 0.9:
            return bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 200))), \
                "application/x-www-form-urlencoded"
        if roll < 0.95:
            return urlencode(pairs).encode(), "application/x-www-form-urlencoded; charset=latin-1"
        return b"--broken\r\n", "multipart/form-data; boundary=broken"

    def headers(self, session, content_type):
        headers = {"X-Forwarded-For": f"198.51.{self.rng.randrange(2)}.{self.rng.randrange(1, 255)}"}
        if content_type:
            headers["Content-Type"] = content_type
        if "csrftoken" in session.cookies and self.rng.random() < 0.95:
            headers["X-CSRFToken"] = session.cookies["csrftoken"]
        if self.rng.random() < 0.3:
            headers["HX-Request"] = "true"
        if self.rng.random() < 0.2:
            headers["Accept-Language"] = self.rng.choice(LANGUAGES)
        if self.rng.random() < 0.05:
            headers["Origin"] = self.rng.choice(["http://evil.example", "null", self.url])
        if self.rng.random() < 0.05:
            headers["User-Agent"] = self.rng.choice(["", "ü" * 500, "x" * 5000])
        if self.rng.random() < 0.03:
            headers["HX-Current-URL"] = quote(self.rng.choice(PATH_JUNK), safe="%/")
        return headers

    # -- sending -----------------------------------------------------------------------

    def send_one(self, index):
        who = self.rng.choice(list(self.sessions))
        session = self.sessions[who]
        method = self.rng.choices(list(METHODS), weights=list(METHODS.values()))[0]
        path = self.path()
        body, content_type = self.body(method)
        headers = self.headers(session, content_type)
        if who == "anonymous" and self.rng.random() < 0.02:
            session.cookies.clear()  # a new visitor
        if "csrftoken" not in session.cookies and self.rng.random() < 0.9:
            session.csrf_token()  # as a page with a form would
            self.sent += 1
        status, answer_headers, _data = session.request(method, path, body, headers)
        opened = re.match(r"/(play|tables)/([A-Za-z0-9_-]+)/$", answer_headers.get("Location") or "")
        if opened and opened.group(2) not in ("new", "join"):
            self.world.own["public_id" if opened.group(1) == "play" else "code"].add(opened.group(2))
        self.sent += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status >= 500:
            self.failures.append(f"#{index} {who} {method} {path[:200]} {(body or b'')[:200]!r} -> {status}")
        if who == "mallory" and (path.startswith("/accounts/logout/") or path.startswith("/admin/logout/")):
            self.sign_in_mallory()
            self.sent += 1

    def run_http(self, count):
        index = 0
        while self.sent < count:
            self.send_one(index)
            index += 1

    def run_sockets(self, count):
        """Websocket paths (routed and not, with odd query strings), then frames of every kind."""
        real = [f"/ws/page/?game={g.public_id}" for g in self.world.games] + \
               [f"/ws/page/?table={t.code}" for t in self.world.tables] + ["/ws/page/?lobby=1", "/ws/page/?site=1"]
        junk = ["/ws/", "/ws/nothing/", "/", "/ws/page/?game=%00", "/ws/page/?game=" + "a" * 2000,
                "/ws/page/?table=%ff", "/ws/page/?table=ABC%00DE", "/ws/page/extra/", "/ws/page/?game=x/y",
                "/ws/page/", "/ws/games/abc/"]
        base = self.url.replace("http://", "ws://")
        for index in range(count):
            path = self.rng.choice(real if self.rng.random() < 0.6 else junk)
            if self.rng.random() < 0.4:
                path += ("&" if "?" in path else "?") + self.rng.choice(["lang=de", "lang=%ff%fe", "lang=" + "x" * 500, "%zz", "lang"])
            who = self.rng.choice(list(self.sessions))
            cookies = "; ".join(f"{k}={v}" for k, v in self.sessions[who].cookies.items())
            self.sent += 1
            try:
                with connect(base + path, origin=self.url, additional_headers={"Cookie": cookies} if cookies else {},
                             open_timeout=10, close_timeout=2) as socket:
                    for _ in range(self.rng.randrange(0, 4)):
                        frame = self.rng.choice([self.value(), json.dumps({"type": "game.state", "html": "<b>"}),
                                                 bytes(self.rng.randrange(256) for _ in range(64)),
                                                 "x" * 200_000])
                        socket.send(frame)
                    try:
                        socket.recv(timeout=0.05)
                    except TimeoutError:
                        pass
            except websockets.exceptions.InvalidStatus as refused:
                status = refused.response.status_code
                self.statuses[status] = self.statuses.get(status, 0) + 1
                if status >= 500:
                    self.failures.append(f"socket #{index} {who} {path[:200]} -> {status}")
            except websockets.exceptions.ConnectionClosed:
                pass  # the server closed it (too large a frame, a game it may not see)

    def close(self):
        for session in self.sessions.values():
            session.close()


# Django answers these 400 and logs them with their traceback on purpose (django.security).
SUSPICIOUS = ("django.core.exceptions.DisallowedRedirect:", "django.core.exceptions.RequestDataTooBig:",
              "django.core.exceptions.TooManyFieldsSent:", "django.core.exceptions.TooManyFilesSent:")


def unexpected_tracebacks(log):
    tracebacks = re.findall(r"Traceback \(most recent call last\):.*?\n\S[^\n]*", log, re.S)
    return [text for text in tracebacks if not text.splitlines()[-1].startswith(SUSPICIOUS)]


@pytest.fixture
def fuzz_site(live_site, tmp_path):
    """A daphne of its own that trusts 127.0.0.1 as a proxy (the fuzzer's X-Forwarded-For);
    live_site's Celery worker does the rest."""
    daphne = servers.start_daphne(tmp_path, TRUSTED_PROXIES="127.0.0.1")
    yield daphne
    daphne.stop()


def test_no_request_of_any_kind_is_a_server_error_or_changes_what_is_not_the_requesters(fuzz_site):
    world = World()
    before = snapshot()
    rng = random.Random(SEED)
    fuzzer = Fuzzer(fuzz_site.url, world, rng)
    started = time.monotonic()
    try:
        fuzzer.run_http(HTTP_REQUESTS)
        fuzzer.run_sockets(SOCKETS)
    finally:
        fuzzer.close()
    seconds = time.monotonic() - started
    own_moves = Move.objects.filter(game__public_id__in=world.own["public_id"], made_by=Move.MadeBy.PLAYER).count()
    figures = (f"seed {SEED}: {fuzzer.sent} requests in {seconds:.1f} s, "
               f"{sum(n for s, n in fuzzer.statuses.items() if s >= 500)} 5xx; statuses {sorted(fuzzer.statuses.items())}; "
               f"{len(world.own['public_id'])} games and {len(world.own['code'])} tables opened, "
               f"{own_moves} moves played in them")
    print(figures)
    tracebacks = unexpected_tracebacks(fuzz_site.output())
    assert not fuzzer.failures, figures + "\n" + "\n".join(fuzzer.failures[:30]) + "\n" + "\n".join(tracebacks)
    assert fuzzer.sent >= 5000
    assert not tracebacks, "\n".join(tracebacks)[-20000:]
    # Enough of the answers were the views at work, not refusals at the door.
    assert sum(n for s, n in fuzzer.statuses.items() if 200 <= s < 400) > fuzzer.sent // 4, figures
    problems = forbidden_changes(before, snapshot(), world)
    assert not problems, "\n".join(problems[:30])
