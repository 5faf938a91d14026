"""Chat at busy tables: one person's message to every reader's page.

Starts one daphne (and a Celery worker, for /healthz, and a private Redis unless
REDIS_URL is set) on a scratch SQLite database with DEBUG off, opens --tables public
two-player tables, each with --spectators signed-in spectators, every person with the
table page's socket (/ws/page/?table=<code>) open. Each person then sends a message over
that socket, as the page's form does (ws-send), every --every seconds on average
(staying under chat.limits' CHAT_LIMITS), a player's to the players' room and a
spectator's to the spectators' room. A message is timed from its send to the moment
the last page reading its room (its own included) got it. Prints the messages sent
and delivered per second, the median, 95th and 99th percentile of send to every
reader, daphne's CPU per message, and any refused or never delivered.

    .venv/bin/python benchmarks/chat.py                          # 50 tables x (2 + 10), 30 s, every 20 s
    .venv/bin/python benchmarks/chat.py --tables 10 --spectators 5 --every 3 --seconds 20
"""
import argparse
import asyncio
import json
import os
import random
import re
import statistics
import tempfile
import time
from pathlib import Path

from livesite import Site, cpu_by_part, make_players, setup_django  # benchmarks/ is on sys.path
from page_clients import connect
from roundtrip import percentile

SHOWN = re.compile(r'<span class="chat-text">(m\d+-\d+)</span>')
REFUSED = re.compile(r'<p id="chat-notice"[^>]*>([^<]+)</p>')


def public_table(host, guest):
    from games import Variant
    from games.access import Viewer
    from lobby import actions

    table = actions.open_table(host, Variant(board="8x8"), level="easy", listed=True, time_control=None)
    actions.join(table, Viewer(user=guest))
    return table.code


class Results:
    def __init__(self):
        self.sent = {}  # text -> (send time, readers expected)
        self.arrived = {}  # text -> [arrival times]
        self.refused = 0
        self.measuring = False
        self.reconnects = 0


async def listen(socket, results):
    try:
        async for frame in socket:
            now = time.monotonic()
            for text in SHOWN.findall(frame):
                results.arrived.setdefault(text, []).append(now)
            if REFUSED.search(frame):
                results.refused += 1
    except Exception:
        pass


async def person(number, socket, readers, results, every, stop_at, rng):
    sequence = 0
    while True:
        await asyncio.sleep(rng.uniform(0.5 * every, 1.5 * every))
        if time.monotonic() >= stop_at:
            return
        sequence += 1
        text = f"m{number}-{sequence}"
        if results.measuring:
            results.sent[text] = (time.monotonic(), readers)
        await socket.send(json.dumps({"chat_text": text}))


async def run(site, args):
    per_table = 2 + args.spectators
    users, sessions = await asyncio.to_thread(make_players, per_table * args.tables)
    codes = []
    for number in range(args.tables):
        host, guest = users[number * per_table:number * per_table + 2]
        codes.append(await asyncio.to_thread(public_table, host, guest))
    results = Results()
    ws_url = site.url.replace("http://", "ws://")
    sockets, listeners = [], []
    for number, session in enumerate(sessions):
        code = codes[number // per_table]
        socket = await connect(f"{ws_url}/ws/page/?table={code}&lang=en", site.url, session, results)
        sockets.append(socket)
        listeners.append(asyncio.create_task(listen(socket, results)))
    rng = random.Random(args.seed)
    began = time.monotonic()
    stop_at = began + args.warmup + args.seconds + 60  # stopped below
    talkers = [asyncio.create_task(person(number, socket, 2 if number % per_table < 2 else args.spectators,
                                          results, args.every, stop_at, random.Random(rng.random())))
               for number, socket in enumerate(sockets)]
    await asyncio.sleep(args.warmup)
    results.measuring = True
    measured_from, cpu_before = time.monotonic(), cpu_by_part(site)
    await asyncio.sleep(args.seconds)
    results.measuring = False
    elapsed = time.monotonic() - measured_from
    cpu = {part: seconds - cpu_before[part] for part, seconds in cpu_by_part(site).items()}
    for talker in talkers:
        talker.cancel()
    await asyncio.sleep(3)  # the last messages' deliveries
    for socket in sockets:
        await socket.close()
    for listener in listeners:
        listener.cancel()
    return results, elapsed, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--spectators", type=int, default=10, help="spectators at each table")
    parser.add_argument("--every", type=float, default=20, help="seconds between one person's messages, on average")
    parser.add_argument("--seconds", type=float, default=30, help="measured time, after the warm-up")
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="reversi-chat-") as scratch:
        site = Site(scratch, 1, daphnes=1, workers=1)
        try:
            setup_django(site)
            load_before = os.getloadavg()[0]
            results, elapsed, cpu = asyncio.run(run(site, args))
        finally:
            site.stop()
        log = (Path(scratch) / "site.log").read_text(errors="replace").splitlines()
        problems = [line for line in log if any(word in line for word in ("WARNING", "ERROR", "Error", "Traceback"))]
        if problems:
            print("\n".join(["site log, warnings and errors (last 30 lines):", *problems[-30:]]))
    times, delivered, incomplete = [], 0, 0
    for text, (sent, readers) in results.sent.items():
        arrivals = results.arrived.get(text, [])
        delivered += len(arrivals)
        if len(arrivals) >= readers:
            times.append(max(arrivals) - sent)
        else:
            incomplete += 1
    if not times:
        raise SystemExit("no message measured")
    sent = len(results.sent)
    print(f"{args.tables} tables x (2 players + {args.spectators} spectators) = "
          f"{args.tables * (2 + args.spectators)} sockets, a message every {args.every:g} s each, 1 daphne, "
          f"{os.cpu_count()} cores, load average before {load_before:.1f}")
    print(f"{sent} messages in {elapsed:.0f} s ({sent / elapsed:.1f} messages/s sent, "
          f"{delivered / elapsed:.0f} deliveries/s), {incomplete} not delivered to every reader, "
          f"{results.refused} refused, {results.reconnects} websocket retries")
    print(f"send -> every reader's page: median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {percentile(times, 0.95) * 1000:.1f} ms, p99 {percentile(times, 0.99) * 1000:.1f} ms, "
          f"max {max(times) * 1000:.1f} ms")
    print(f"daphne CPU: {cpu['daphne'] / sent * 1000:.2f} ms per message "
          f"({cpu['daphne'] / elapsed * 100:.0f}% of a core); redis {cpu['redis'] / sent * 1000:.2f} ms, "
          f"clients {cpu['clients'] / sent * 1000:.2f} ms per message")


if __name__ == "__main__":
    main()
