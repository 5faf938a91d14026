"""From a visitor's click to the computer's answer on their screen.

Starts the real site (daphne, one Celery worker, Redis) on a scratch SQLite
database, plays games against the computer through HTTP (the move POST, as htmx
sends it) and the game's websocket (the pushed state), and prints, per level,
the median and 95th percentile of the time from sending a move to receiving the
state with the computer's answer.

    .venv/bin/python benchmarks/play_latency.py                # Normal and Hard, 50 moves each
    .venv/bin/python benchmarks/play_latency.py --levels easy --moves 20
"""
import argparse
import asyncio
import http.cookiejar
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Site:
    """daphne + a Celery worker (+ a private Redis) on a scratch database."""

    def __init__(self, scratch):
        from config.embedded_redis import EmbeddedRedis

        self.redis = None
        redis_url = os.environ.get("REDIS_URL")
        if not redis_url:
            redis_url = f"unix://{scratch}/redis/redis.sock"
            self.redis = EmbeddedRedis(redis_url).start()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = dict(os.environ, DEBUG="1", REDIS_URL=redis_url, VAR_DIR=str(scratch),
                        DATABASE_URL=os.environ.get("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3"))
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=self.env, check=True)
        log = open(Path(scratch) / "site.log", "wb")
        self.processes = [
            subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
                              "config.asgi:application"], cwd=ROOT, env=self.env, stdout=log,
                             stderr=subprocess.STDOUT, start_new_session=True),
            subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency", "1",
                              "--loglevel", "WARNING", "--without-mingle", "--without-gossip"],
                             cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True),
        ]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=5) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise SystemExit("the site did not become healthy")

    def stop(self):
        for process in self.processes:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for process in self.processes:
            process.wait(timeout=20)
        if self.redis:
            self.redis.stop()


class Visitor:
    """A browser without rendering: cookies, CSRF, htmx headers, the websocket."""

    def __init__(self, site):
        self.site = site
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name):
        return next((c.value for c in self.jar if c.name == name), "")

    def start_game(self, level):
        page = self.opener.open(self.site.url + "/play/").read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "board": "8x8", "players": 2, "blocked": 0,
                                       "handicap": 0, "handicap_colour": "white", "level": level}).encode()
        response = self.opener.open(urllib.request.Request(self.site.url + "/play/", data=data))
        public_id = response.url.rstrip("/").rsplit("/", 1)[1]
        me = re.search(r'data-viewer-colours="(\w+)"', response.read().decode()).group(1)
        return public_id, me

    def post_move(self, public_id, square, ply):
        data = urllib.parse.urlencode({"square": square, "ply": ply}).encode()
        request = urllib.request.Request(f"{self.site.url}/play/{public_id}/move/", data=data, headers={
            "HX-Request": "true", "X-CSRFToken": self.cookie("csrftoken"), "Referer": self.site.url + "/"})
        with self.opener.open(request) as response:
            return response.status


def parse_state(html):
    attributes = dict(re.findall(r'data-(turn|status|ply)="([^"]*)"', html.split(">", 1)[0]))
    legal = re.findall(r'class="cell[^"]*\blegal\b[^"]*" data-square="(\w+)"', html)
    return attributes.get("turn", ""), attributes.get("status", ""), int(attributes.get("ply", 0)), legal


async def measure(site, level, moves):
    visitor = Visitor(site)
    times = []
    while len(times) < moves:
        public_id, me = await asyncio.to_thread(visitor.start_game, level)
        ws_url = site.url.replace("http", "ws") + f"/ws/games/{public_id}/"
        headers = {"Cookie": f"sessionid={visitor.cookie('sessionid')}"}
        async with websockets.connect(ws_url, origin=site.url, additional_headers=headers) as ws:
            turn, status, ply, legal = parse_state(await ws.recv())
            while len(times) < moves:
                while status == "playing" and turn != me:
                    turn, status, ply, legal = parse_state(await asyncio.wait_for(ws.recv(), 60))
                if status != "playing":
                    break
                started = time.perf_counter()
                await asyncio.to_thread(visitor.post_move, public_id, legal[0], ply)
                sent_ply = ply
                while True:
                    turn, status, ply, legal = parse_state(await asyncio.wait_for(ws.recv(), 60))
                    if ply > sent_ply + 1 or status != "playing":
                        break
                if ply > sent_ply + 1:  # the computer answered (not just the echo of my move)
                    times.append(time.perf_counter() - started)
    return times


def report(level, times):
    times = sorted(times)
    p95 = times[max(0, round(0.95 * len(times)) - 1)]
    print(f"{level:>6}: {len(times)} moves, click to answer on screen: median {statistics.median(times) * 1000:.0f} ms, "
          f"p95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="normal,hard")
    parser.add_argument("--moves", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="reversi-bench-") as scratch:
        site = Site(scratch)
        try:
            for level in args.levels.split(","):
                report(level, asyncio.run(measure(site, level, args.moves)))
        finally:
            site.stop()


if __name__ == "__main__":
    main()
