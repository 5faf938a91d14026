"""Move round trip at online tables: one player's submit to the other player's screen.

Starts --daphne daphne processes and --workers Celery workers (and a private Redis
unless REDIS_URL is set) on a scratch database (SQLite, or --database postgres: a
new database on this machine's PostgreSQL) with DEBUG off, opens --tables two-player 8x8 tables
between signed-in users, and lets every table play at once: the player to move
thinks for a random --think time, sends the move with its expected ply over its
game websocket as the pages do (static/js/moves.js; --via http: POSTs it as htmx
does while the socket is down, with session cookie and CSRF header over a
keep-alive connection), and the clock runs until the opponent's websocket
(/ws/page/?game=<id>) delivers the state with that move. A finished game is replaced
by a new table. With several daphnes, the two players of a table use different
ones, so every move crosses from one process to another through the channel
layer. Prints the median, 95th and 99th percentile of the round trip, the
throughput, daphne's CPU per move, and any lost or failed move.

--spectators K: K more pages watch each table, each on its own websocket without a
session (the table's game is public), spread over the daphnes; it then also prints
the time from the move to the last of them (the opponent included) and daphne's CPU
per delivered page. --idle N: before the tables start, N idle sockets per daphne
(half lobby pages, half pages of a waiting table nobody plays at) open and stay,
held by a process of their own; it prints daphne's resident memory per idle socket.
--profile PATH: py-spy samples the first daphne over the measured time.

    .venv/bin/python benchmarks/roundtrip.py                       # 50 tables, 60 s, think 1-3 s
    .venv/bin/python benchmarks/roundtrip.py --tables 50 --think 0.2,0.6 --seconds 30 --via http
    .venv/bin/python benchmarks/roundtrip.py --clock 10+5          # the same on clocks: their cost on the move path
    .venv/bin/python benchmarks/roundtrip.py --tables 50 --spectators 10    # 50 tables watched by 10 pages each
    .venv/bin/python benchmarks/roundtrip.py --tables 1 --spectators 500    # one table, 500 spectators
    .venv/bin/python benchmarks/roundtrip.py --idle 5000                    # 5,000 idle sockets beside the 50 tables
    PATH=$PATH:/path/to/py-spy .venv/bin/python benchmarks/roundtrip.py --tables 1 --spectators 500 --profile daphne.txt
    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python benchmarks/roundtrip.py --daphne 2 --workers 2 --database postgres
"""
import argparse
import asyncio
import json
import multiprocessing
import os
import random
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import websockets

from livesite import Site, cpu_by_part, make_players, resident_kb, setup_django  # benchmarks/ is on sys.path
from page_clients import HTTP, Screen, connect, parse_state


def new_table(host, guest, clock=None, public=False):
    """A running 8x8 table: host Black, guest White; `clock` "minutes+seconds" or None
    (60 s a move); `public`: anyone with the link may watch (not listed in the lobby).
    (code, game public id)."""
    from games import Variant
    from games.access import Viewer
    from games.models import Game
    from lobby import actions

    time_control = None
    if clock:
        minutes, increment = (int(part) for part in clock.split("+"))
        time_control = (Game.TimeControl.CLOCK, minutes * 60, increment)
    table = actions.open_table(host, Variant(board="8x8"), level="easy", time_control=time_control)
    actions.join(table, Viewer(user=guest))
    if public:
        Game.objects.filter(pk=table.game.pk).update(is_public=True)
    return table.code, table.game.public_id


def waiting_table(host):
    """A public table waiting for players that nobody plays at (idle pages show it)."""
    from games import Variant
    from games.models import Game
    from lobby import actions

    table = actions.open_table(host, Variant(board="8x8"), level="easy")
    Game.objects.filter(pk=table.game.pk).update(is_public=True)
    return table.game.public_id


WATCHERS_OPENING = 10  # spectators' sockets opening at once, all tables together


class Results:
    def __init__(self):
        self.round_trips, self.failed, self.lost, self.games, self.reconnects = [], 0, 0, 0, 0
        self.to_last = []  # move -> the last page of the table (opponent and spectators) that shows it
        self.delivered = 0  # pages that showed a measured move
        self.closed = []  # close codes of sockets that ended while their table played
        self.measuring = False
        self.late_watchers = 0  # spectators' sockets opened after the warm-up
        self.watchers_opening = asyncio.Semaphore(WATCHERS_OPENING)
        self.cpu = {}


async def play_table(site, number, pair, sessions, results, think, stop_at, rng, via, delay=0.0, clock=None,
                     spectators=0):
    await asyncio.sleep(delay)  # tables open one after another, as they would on a site
    host, guest = pair
    # With several daphnes the two players sit at different ones.
    black, white = number % len(site.ports), (number + 1) % len(site.ports)
    http = {"black": HTTP(site.ports[black], sessions[0]), "white": HTTP(site.ports[white], sessions[1])}
    urls = {"black": site.urls[black], "white": site.urls[white]}
    while time.monotonic() < stop_at:
        code, public_id = await asyncio.to_thread(new_table, host, guest, clock, spectators > 0)
        screens = {"black": Screen(), "white": Screen()}
        sockets, listeners = [], []
        for colour in ("black", "white"):
            ws_url = urls[colour].replace("http://", "ws://")
            socket = await connect(f"{ws_url}/ws/page/?game={public_id}", urls[colour], http[colour].session, results)
            sockets.append(socket)
            listeners.append(asyncio.create_task(screens[colour].listen(socket, results)))
        watchers = [Screen() for _ in range(spectators)]

        async def watch(index):  # spread over the daphnes, a few opening at once as a crowd arrives
            url = site.urls[(number + index) % len(site.urls)]
            async with results.watchers_opening:
                socket = await connect(f"{url.replace('http://', 'ws://')}/ws/page/?game={public_id}", url, "", results)
            if results.measuring:
                results.late_watchers += 1  # its opening counts in the measured CPU
            return socket

        for socket, screen in zip(await asyncio.gather(*(watch(index) for index in range(spectators))), watchers):
            sockets.append(socket)
            listeners.append(asyncio.create_task(screen.listen(socket, results)))
        if watchers and not http["white"].csrf:
            status, _html = await http["white"].request("GET", f"/tables/{code}/")
            assert status == 200 and http["white"].csrf, f"GET table page: {status}"
        try:
            await screens["black"].wait_for_ply(0, 30)
            while time.monotonic() < stop_at:
                ply, turn, status, legal = screens["black"].state
                if status != "playing":
                    break
                mover, other = turn, "white" if turn == "black" else "black"
                await screens[mover].wait_for_ply(ply, 30)
                await asyncio.sleep(rng.uniform(*think))
                square = rng.choice(screens[mover].state[3])
                started = time.perf_counter()
                if via == "ws":  # as the page does while its socket is open
                    await sockets[0 if mover == "black" else 1].send(json.dumps({"move": square, "ply": str(ply)}))
                    new_ply = ply + 1  # or more, with passes: the first state past ply
                else:
                    status_code, html = await http[mover].request(
                        "POST", f"/tables/{code}/move/", {"square": square, "ply": ply},
                        headers=["HX-Request: true", f"X-CSRFToken: {http[mover].csrf}", f"Referer: {urls[mover]}/"])
                    if status_code != 200:
                        results.failed += 1
                        await asyncio.sleep(0.5)
                        continue
                    new_ply = parse_state(html)[0]
                try:
                    arrived = await screens[other].wait_for_ply(new_ply, 30)
                except asyncio.TimeoutError:
                    results.lost += 1
                    continue
                if watchers:
                    try:
                        last = max([arrived] + [await screen.wait_for_ply(new_ply, 30) for screen in watchers])
                    except asyncio.TimeoutError:
                        results.lost += 1
                        continue
                if results.measuring:
                    results.round_trips.append(arrived - started)
                    if watchers:
                        results.to_last.append(last - started)
                        results.delivered += 2 + len(watchers)
                await screens["black"].wait_for_ply(new_ply, 30)
            else:
                break
            results.games += 1
        finally:
            for listener in listeners:
                listener.cancel()
            for socket in sockets:
                await socket.close()
    for client in http.values():
        client.close()


async def open_idle(urls, count, public_id, results):
    """`count` idle sockets on every daphne, half lobby pages and half pages of a game
    nobody plays; each reads what it is sent and sits."""
    sockets = []

    async def drain(socket):
        try:
            async for _message in socket:
                pass
        except websockets.exceptions.ConnectionClosed:
            pass

    for url in urls:
        ws_url = url.replace("http://", "ws://")
        for index in range(count):
            path = "/ws/page/?lobby=1" if index % 2 else f"/ws/page/?game={public_id}"
            socket = await connect(ws_url + path, url, "", results)
            sockets.append(socket)
            asyncio.create_task(drain(socket))
    return sockets


def hold_idle(urls, count, public_id, opened, stop):
    """In a process of its own, so that the players' client is not slowed by holding
    thousands of sockets: open them, say how many, sit until told to stop."""
    async def main():
        sockets = await open_idle(urls, count, public_id, Results())
        opened.put(len(sockets))
        while not stop.is_set():
            await asyncio.sleep(0.2)
        for socket in sockets:
            await socket.close()

    asyncio.run(main())


def start_profile(site, path):
    """py-spy sampling the first daphne over the measured time (idle samples kept, so the
    share of the event loop's waits shows too), written to `path` in its raw format."""
    return subprocess.Popen(["py-spy", "record", "--rate", "250", "--format", "raw", "--idle", "--output", path,
                             "--pid", str(site.daphnes[0].pid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


async def run(site, args):
    users, sessions = await asyncio.to_thread(make_players, 2 * args.tables)
    results = Results()
    holder = None
    if args.idle:
        public_id = await asyncio.to_thread(waiting_table, users[0])
        before = resident_kb(site.daphnes)
        context = multiprocessing.get_context("spawn")
        opened, stop = context.Queue(), context.Event()
        holder = context.Process(target=hold_idle, args=(site.urls, args.idle, public_id, opened, stop))
        holder.start()
        idle = await asyncio.to_thread(opened.get)
        await asyncio.sleep(3)
        results.idle_kb = (resident_kb(site.daphnes) - before) / idle
        results.idle_total_kb = resident_kb(site.daphnes)
    rng = random.Random(args.seed)
    began = time.monotonic()
    stop_at = began + args.warmup + args.seconds
    tasks = [asyncio.create_task(play_table(site, i, users[2 * i:2 * i + 2], sessions[2 * i:2 * i + 2], results,
                                            args.think, stop_at, random.Random(rng.random()), args.via,
                                            delay=i * args.warmup / 2 / args.tables, clock=args.clock,
                                            spectators=args.spectators))
             for i in range(args.tables)]
    await asyncio.sleep(args.warmup)
    results.measuring = True
    measured_from = time.monotonic()
    cpu_before = cpu_by_part(site)
    profiler = start_profile(site, args.profile) if args.profile else None
    await asyncio.sleep(max(0.0, stop_at - time.monotonic()))
    # measured until now, before the tables close their sockets (500 spectators' goodbyes are not a move's cost)
    results.measuring = False
    measured = time.monotonic() - measured_from
    results.cpu = {part: seconds - cpu_before[part] for part, seconds in cpu_by_part(site).items()}
    if profiler is not None:
        profiler.send_signal(signal.SIGINT)  # py-spy writes its samples as it stops
        await asyncio.to_thread(profiler.wait)
    await asyncio.gather(*tasks)
    if holder is not None:
        stop.set()
        await asyncio.to_thread(holder.join)
    return results, measured


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60, help="measured time, after the warm-up")
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--think", default="1,3", help="a player's thinking time in seconds: min,max")
    parser.add_argument("--daphne", type=int, default=1, help="daphne processes")
    parser.add_argument("--workers", type=int, default=1, help="Celery worker processes")
    parser.add_argument("--worker-concurrency", type=int, default=1)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--via", choices=("ws", "http"), default="ws",
                        help="moves over the page's websocket (as the site's pages send them) or HTTP posts "
                             "(pages without JavaScript or with their socket down)")
    parser.add_argument("--clock", nargs="?", const="10+5", default=None,
                        help="play on a clock, minutes+seconds (default 10+5), instead of 60 s a move")
    parser.add_argument("--spectators", type=int, default=0, help="pages watching each table, besides its players")
    parser.add_argument("--profile", metavar="PATH", help="py-spy (on PATH) samples the first daphne over the measured "
                        "time into PATH (raw format: one stack and its count a line)")
    parser.add_argument("--idle", type=int, default=0, help="idle lobby and game sockets per daphne, open throughout")
    parser.add_argument("--layer", choices=("core", "pubsub"), default=None,
                        help="channels-redis layer (CHANNEL_LAYER in config/settings.py; default: the site's)")
    args = parser.parse_args()
    if args.layer:
        os.environ["CHANNEL_LAYER"] = args.layer
    args.think = tuple(float(x) for x in args.think.split(","))
    with tempfile.TemporaryDirectory(prefix="reversi-rt-") as scratch:
        site = Site(scratch, args.worker_concurrency, daphnes=args.daphne, workers=args.workers,
                    database=args.database)
        try:
            setup_django(site)
            load_before = os.getloadavg()[0]
            results, elapsed = asyncio.run(run(site, args))
        finally:
            site.stop()
        if results.lost or results.failed:  # what the servers said about it
            log = (Path(scratch) / "site.log").read_text(errors="replace").splitlines()
            print("\n".join(["site log, warnings and errors (last 60 lines):"] + [
                line for line in log if any(word in line for word in ("WARNING", "ERROR", "Error", "Traceback"))][-60:]))
    times = results.round_trips
    if not times:
        raise SystemExit("no move measured")
    print(f"{args.clock + ' clocks' if args.clock else '60 s a move'}, {args.tables} tables, think {args.think[0]:g}-{args.think[1]:g} s, {args.daphne} daphne, "
          f"{args.workers} worker (concurrency {args.worker_concurrency}), "
          f"DB {site.env['DATABASE_URL'].split(':', 1)[0]}, Redis {site.env['REDIS_URL'].split(':', 1)[0]}, "
          f"{os.cpu_count()} cores, load average before {load_before:.1f}, "
          f"channel layer {os.environ.get('CHANNEL_LAYER', 'pubsub')}")
    print(f"{len(times)} moves in {elapsed:.0f} s ({len(times) / elapsed:.1f} moves/s), {results.games} games finished, "
          f"{results.failed} refused, {results.lost} never arrived, {results.reconnects} websocket retries, "
          f"{len(results.closed)} sockets closed under a table{' (' + ', '.join(results.closed) + ')' if results.closed else ''}")
    print(f"round trip (submit -> opponent's websocket): median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {percentile(times, 0.95) * 1000:.1f} ms, p99 {percentile(times, 0.99) * 1000:.1f} ms, "
          f"max {max(times) * 1000:.1f} ms")
    print(f"daphne CPU: {results.cpu['daphne'] / len(times) * 1000:.1f} ms per move "
          f"({results.cpu['daphne'] / elapsed / args.daphne * 100:.0f}% of a core per daphne)")
    if results.to_last:
        print(f"{args.spectators} spectators a table: move -> last page of the table: "
              f"median {statistics.median(results.to_last) * 1000:.1f} ms, p95 {percentile(results.to_last, 0.95) * 1000:.1f} ms, "
              f"p99 {percentile(results.to_last, 0.99) * 1000:.1f} ms, max {max(results.to_last) * 1000:.1f} ms; "
              f"{results.delivered} pages delivered ({results.delivered / elapsed:.0f}/s), daphne CPU "
              f"{results.cpu['daphne'] / results.delivered * 1000:.3f} ms per delivered page; "
              f"{results.late_watchers} spectators' sockets opened after the warm-up")
    if args.idle:
        print(f"{args.idle} idle sockets per daphne: {results.idle_kb:.1f} kB resident per socket "
              f"(daphnes {results.idle_total_kb / 1024:.0f} MB in all)")
    print("CPU per move elsewhere: " + ", ".join(
        f"{part} {results.cpu[part] / len(times) * 1000:.1f} ms" for part in ("worker", "redis", "clients")
        if part != "redis" or site.redis))


if __name__ == "__main__":
    main()
