"""The web process's CPU for a move that comes too late, at a Hard table.

Starts one daphne and one Celery worker (and a private Redis) on a scratch SQLite
database, opens --tables Hard 8x8 tables between two signed-in users, moves each
table's deadline (plus its grace) into the past and POSTs the late player's move as
htmx does. Prints daphne's CPU (user + system, from /proc) for each late request,
its median and maximum, the answer's status and time, and how long after the request
the worker's time-out move was stored.

    nice -n 10 .venv/bin/python benchmarks/late_move.py --tables 5
"""
import argparse
import http.client
import os
import statistics
import sys
import tempfile
import time
import urllib.parse

from livesite import Site  # benchmarks/ is on sys.path when run as a script


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def request(port, method, path, session, csrf="", body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Cookie": f"sessionid={session}" + (f"; csrftoken={csrf}" if csrf else ""), "HX-Request": "true"}
    if body is not None:
        headers.update({"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": csrf,
                        "Referer": f"http://127.0.0.1:{port}/"})
    connection.request(method, path, urllib.parse.urlencode(body) if body is not None else None, headers)
    response = connection.getresponse()
    response.read()
    cookies = [value for name, value in response.getheaders() if name.lower() == "set-cookie"]
    connection.close()
    token = next((c.split(";", 1)[0].split("=", 1)[1] for c in cookies if c.startswith("csrftoken=")), csrf)
    return response.status, token


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=5)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="late-move-")
    site = Site(scratch, concurrency=1)
    try:
        os.environ.update({key: site.env[key] for key in ("DATABASE_URL", "REDIS_URL", "VAR_DIR", "SECRET_KEY",
                                                            "ALLOWED_HOSTS", "DEBUG", "SECURE_SSL_REDIRECT")})
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django

        django.setup()
        from datetime import timedelta

        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.test import Client
        from django.utils import timezone

        from games import Variant
        from games.access import Viewer
        from games.models import Game, Move
        from lobby import actions

        users = get_user_model().objects
        host, guest = users.create_user(f"late-host-{os.getpid()}"), users.create_user(f"late-guest-{os.getpid()}")
        client = Client()
        client.force_login(host)
        session = client.cookies["sessionid"].value
        daphne = site.daphnes[0].pid
        figures = []
        for _ in range(args.tables):
            table = actions.open_table(host, Variant(board="8x8"), level="hard", host_colour="black")
            actions.join(table, Viewer(user=guest))
            game = Game.objects.prefetch_related("seats").get(pk=table.game_id)
            status, csrf = request(site.port, "GET", f"/tables/{table.code}/", session)
            Game.objects.filter(pk=game.pk).update(
                deadline=timezone.now() - timedelta(seconds=settings.MOVE_TIME_GRACE + 1))
            square = game.board().legal_moves[0]
            time.sleep(0.5)  # let daphne settle
            before, started = cpu_seconds(daphne), time.monotonic()
            status, _ = request(site.port, "POST", f"/tables/{table.code}/move/", session, csrf,
                                {"square": square, "ply": 0})
            answered = time.monotonic() - started
            time.sleep(0.3)
            spent = cpu_seconds(daphne) - before
            while not Move.objects.filter(game=game, ply=1).exists() and time.monotonic() - started < 30:
                time.sleep(0.05)
            made = time.monotonic() - started
            made_by = Move.objects.filter(game=game, ply=1).values_list("made_by", flat=True).first()
            figures.append(spent)
            print(f"late move: HTTP {status} in {answered * 1000:.0f} ms, daphne CPU {spent * 1000:.0f} ms; "
                  f"time-out move ({made_by}) stored {made:.2f} s after the request")
        if figures:
            print(f"daphne CPU per late request over {len(figures)}: median {statistics.median(figures) * 1000:.0f} ms,"
                  f" max {max(figures) * 1000:.0f} ms (includes ~0.3 s of idle daphne)")
    finally:
        site.stop()


if __name__ == "__main__":
    sys.exit(main())
