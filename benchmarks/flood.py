"""A flood of Hard games against the computer, and what it does to everyone else.

Starts the site as `make run` has it (benchmarks/livesite.py: daphne, the Celery
workers, a private Redis, a scratch SQLite database, DEBUG off), then for --seconds:

- --visitors visitors, each with a session of their own, spread over --addresses
  addresses (X-Forwarded-For from a trusted proxy), open a Hard 10x10 game each over
  HTTP and keep playing it: whenever it is their turn they post a move at once, so
  the computer is always thinking for every one of them. A refused start or move
  (the limit on games thinking at once) is counted and tried again a second later;
- a player at an online table against the computer at Easy (8x8) posts a move and
  waits for the computer's reply, again and again: "table Easy reply";
- a visitor from an address of their own does the same in an Easy game against the
  computer: "visitor Easy reply";
- every --timeout-every seconds a new two-player table gets a deadline 1 s away:
  "time-out lateness" is how long after the deadline and its grace the worker's
  time-out move is stored.

Prints each figure's count, median, 90th percentile and maximum, the refusals, and the
CPU seconds (user + system, from /proc) of daphne and of each worker with its pool.

    nice -n 10 .venv/bin/python benchmarks/flood.py --visitors 60 --seconds 120
"""
import argparse
import http.client
import os
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

from livesite import Site  # benchmarks/ is on sys.path when run as a script


class Browser:
    """One visitor's cookies and address, posting as htmx does."""

    def __init__(self, port, address, session=""):
        self.port, self.address, self.session, self.csrf = port, address, session, ""

    def request(self, method, path, body=None, htmx=True):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        cookies = "; ".join(f"{name}={value}" for name, value in
                            (("sessionid", self.session), ("csrftoken", self.csrf)) if value)
        headers = {"X-Forwarded-For": self.address, "Cookie": cookies}
        if htmx:
            headers["HX-Request"] = "true"
        if body is not None:
            headers.update({"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self.csrf,
                            "Referer": f"http://127.0.0.1:{self.port}/"})
        try:
            connection.request(method, path, urllib.parse.urlencode(body) if body is not None else None, headers)
            response = connection.getresponse()
            response.read()
        finally:
            connection.close()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                cookie = value.split(";", 1)[0]
                key, _, content = cookie.partition("=")
                if key == "sessionid":
                    self.session = content
                elif key == "csrftoken":
                    self.csrf = content
        return response.status, response.getheader("Location", "")

    def start_game(self, level, board):
        self.request("GET", "/play/", htmx=False)
        status, location = self.request("POST", "/play/", {
            "board": board, "players": 2, "blocked": 0, "handicap": 0, "handicap_colour": "white",
            "level": level}, htmx=False)
        match = re.search(r"/play/([^/]+)/", location or "")
        return status, match.group(1) if match else None


def cpu_of_group(pgid):
    """CPU seconds of every live process in the process group `pgid`."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def summary(name, values, unit="s"):
    if not values:
        return f"{name}: none measured"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"{name}: n={len(values)} median {statistics.median(values):.2f} {unit}, "
            f"p90 {p90:.2f} {unit}, max {max(values):.2f} {unit}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visitors", type=int, default=60)
    parser.add_argument("--addresses", type=int, default=0, help="default: one per visitor")
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--timeout-every", type=float, default=8)
    args = parser.parse_args()
    addresses = args.addresses or args.visitors
    os.environ["TRUSTED_PROXIES"] = "127.0.0.1"
    os.environ["MOVE_TIME_GRACE"] = "1"
    scratch = tempfile.mkdtemp(prefix="flood-")
    site = Site(scratch, concurrency=2)
    stop = threading.Event()
    figures = {"table": [], "visitor": [], "lateness": []}
    counts = {"refused": 0, "moves": 0, "errors": 0}
    lock = threading.Lock()
    try:
        os.environ.update({key: site.env[key] for key in ("DATABASE_URL", "REDIS_URL", "VAR_DIR", "SECRET_KEY",
                                                            "ALLOWED_HOSTS", "DEBUG", "SECURE_SSL_REDIRECT")})
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django

        django.setup()
        from datetime import timedelta

        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.test import Client
        from django.utils import timezone

        from games import Variant
        from games.access import Viewer
        from games.models import Game, Move
        from lobby import actions

        def count(key):
            with lock:
                counts[key] += 1

        def game_of(public_id):
            return Game.objects.prefetch_related("seats").get(public_id=public_id)

        def human_to_move(game):
            seat = game.seat_of(game.turn)
            return game.status == Game.Status.PLAYING and seat is not None and not seat.is_computer

        def flooder(number):
            browser = Browser(site.port, f"10.0.{number % addresses // 250}.{number % addresses % 250 + 1}")
            public_id = None
            try:
                while not stop.is_set():
                    if public_id is None:
                        status, public_id = browser.start_game("hard", "10x10")
                        if status == 429:
                            count("refused")
                            stop.wait(1)
                        continue
                    game = game_of(public_id)
                    if game.status != Game.Status.PLAYING:
                        public_id = None
                    elif human_to_move(game):
                        status, _ = browser.request("POST", f"/play/{public_id}/move/",
                                                    {"square": game.board().legal_moves[0], "ply": game.ply})
                        count("refused" if status == 429 else "moves")
                        if status == 429:
                            stop.wait(1)
                    else:
                        stop.wait(0.2)
            except Exception as error:  # noqa: BLE001 - a benchmark reports and goes on
                print(f"flooder {number}: {error!r}", file=sys.stderr)
                count("errors")
            finally:
                connection.close()

        def measure_replies(name, start, move_path):
            """Post a move whenever it is this player's turn; time until the computer's reply is stored."""
            try:
                public_id, browser = start()
                while not stop.is_set():
                    game = game_of(public_id)
                    if game.status != Game.Status.PLAYING:
                        public_id, browser = start()
                        continue
                    if not human_to_move(game):
                        stop.wait(0.1)
                        continue
                    ply = game.ply
                    sent = time.monotonic()
                    status, _ = browser.request("POST", move_path(public_id),
                                                {"square": game.board().legal_moves[0], "ply": ply})
                    if status != 200:
                        print(f"{name}: HTTP {status}", file=sys.stderr)
                        stop.wait(1)
                        continue
                    while not stop.is_set() and not Move.objects.filter(
                            game__public_id=public_id, ply__gt=ply + 1, made_by="computer").exists():
                        if game_of(public_id).status != Game.Status.PLAYING:
                            break
                        time.sleep(0.05)
                    else:
                        if not stop.is_set():
                            figures[name].append(time.monotonic() - sent)
                    stop.wait(0.5)
            finally:
                connection.close()

        users = get_user_model().objects
        host = users.create_user(f"flood-host-{os.getpid()}")
        tables = {}

        def table_start():
            table = actions.open_table(host, Variant(board="8x8"), level="easy", host_colour="black",
                                        computer_colours=["white"])
            client = Client()
            client.force_login(host)
            browser = Browser(site.port, "10.250.0.1", client.cookies["sessionid"].value)
            browser.request("GET", f"/tables/{table.code}/", htmx=False)
            game = Game.objects.get(pk=table.game_id)
            tables[game.public_id] = table.code
            return game.public_id, browser

        def visitor_start():
            browser = Browser(site.port, "10.251.0.1")
            while True:
                status, public_id = browser.start_game("easy", "8x8")
                if status == 302:
                    return public_id, browser
                time.sleep(1)

        def time_outs():
            players = [users.create_user(f"flood-{name}-{os.getpid()}") for name in ("a", "b")]
            try:
                while not stop.wait(args.timeout_every):
                    table = actions.open_table(players[0], Variant(board="8x8"), level="easy", host_colour="black")
                    actions.join(table, Viewer(user=players[1]))
                    deadline = timezone.now() + timedelta(seconds=1)
                    Game.objects.filter(pk=table.game_id).update(deadline=deadline)
                    due = deadline + timedelta(seconds=settings.MOVE_TIME_GRACE)
                    while not stop.is_set():
                        move = Move.objects.filter(game_id=table.game_id, ply=1).first()
                        if move is not None:
                            if move.made_by == "timeout":
                                made = Game.objects.get(pk=table.game_id).updated_at
                                figures["lateness"].append((made - due).total_seconds())
                            break
                        time.sleep(0.05)
            finally:
                connection.close()

        before = {"daphne": cpu_of_group(site.daphnes[0].pid),
                  **{f"worker {n}": cpu_of_group(w.pid) for n, w in enumerate(site.workers)}}
        started = time.monotonic()
        threads = [threading.Thread(target=flooder, args=(number,)) for number in range(args.visitors)]
        threads += [
            threading.Thread(target=measure_replies, args=("table", table_start, lambda p: f"/tables/{tables[p]}/move/")),
            threading.Thread(target=measure_replies, args=("visitor", visitor_start, lambda p: f"/play/{p}/move/")),
            threading.Thread(target=time_outs),
        ]
        for thread in threads:
            thread.start()
        stop.wait(args.seconds)
        stop.set()
        for thread in threads:
            thread.join(timeout=150)
        elapsed = time.monotonic() - started
        cpu = {"daphne": cpu_of_group(site.daphnes[0].pid),
               **{f"worker {n}": cpu_of_group(w.pid) for n, w in enumerate(site.workers)}}
        print(f"flood: {args.visitors} visitors from {addresses} addresses, Hard 10x10, {elapsed:.0f} s; "
              f"{counts['moves']} flood moves, {counts['refused']} refused (limit), {counts['errors']} errors")
        print(summary("table Easy reply (post to the computer's move stored)", figures["table"]))
        print(summary("visitor Easy reply (post to the computer's move stored)", figures["visitor"]))
        print(summary("time-out lateness (after deadline + grace)", figures["lateness"]))
        print("CPU seconds during the run: " + ", ".join(f"{name} {cpu[name] - before[name]:.1f}" for name in cpu))
    finally:
        stop.set()
        site.stop()


if __name__ == "__main__":
    sys.exit(main())
