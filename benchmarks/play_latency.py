"""From a visitor's click to the computer's answer on their screen.

Starts the real site (daphne, one Celery worker, Redis; DEBUG off) on a scratch
database, plays games against the computer through the game's websocket (the
move sent over it, as static/js/moves.js does, and the pushed states; --via http
posts the move as htmx does while the socket is down), and prints, per level,
the median and 95th percentile of the time from sending a move to receiving the
state with the computer's answer.

    .venv/bin/python benchmarks/play_latency.py                # Normal and Hard, 50 moves each
    .venv/bin/python benchmarks/play_latency.py --levels easy --moves 20 --via http
"""
import argparse
import asyncio
import http.cookiejar
import json
import re
import statistics
import tempfile
import time
import urllib.parse
import urllib.request

import websockets

from livesite import Site  # benchmarks/ is on sys.path when run as a script


class LoopbackCookies(http.cookiejar.DefaultCookiePolicy):
    """Send the site's Secure cookies over plain HTTP on loopback (no TLS proxy here)."""

    def return_ok_secure(self, cookie, request):
        return True


class Visitor:
    """A browser without rendering: cookies, CSRF, htmx headers, the websocket."""

    def __init__(self, site):
        self.site = site
        self.jar = http.cookiejar.CookieJar(LoopbackCookies())
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


async def measure(site, level, moves, via):
    visitor = Visitor(site)
    times = []
    while len(times) < moves:
        public_id, me = await asyncio.to_thread(visitor.start_game, level)
        ws_url = site.url.replace("http", "ws") + f"/ws/page/?game={public_id}"
        headers = {"Cookie": f"sessionid={visitor.cookie('sessionid')}"}
        async with websockets.connect(ws_url, origin=site.url, additional_headers=headers) as ws:
            turn, status, ply, legal = parse_state(await ws.recv())
            while len(times) < moves:
                while status == "playing" and turn != me:
                    turn, status, ply, legal = parse_state(await asyncio.wait_for(ws.recv(), 60))
                if status != "playing":
                    break
                started = time.perf_counter()
                if via == "ws":
                    await ws.send(json.dumps({"move": legal[0], "ply": str(ply)}))
                else:
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
    parser.add_argument("--via", choices=("ws", "http"), default="ws")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="reversi-bench-") as scratch:
        site = Site(scratch, concurrency=1)
        try:
            for level in args.levels.split(","):
                report(level, asyncio.run(measure(site, level, args.moves, args.via)))
        finally:
            site.stop()


if __name__ == "__main__":
    main()
