"""The lobby at a crowd's scale: --pages open lobby pages while --tables listed tables
open, fill and finish at --rate changes a second.

Starts the site as benchmarks/roundtrip.py does (--daphne N --database postgres), lists
--tables tables (half waiting for a player, half playing), opens --pages lobby
websockets spread over the daphnes, then makes one change after another in this
process, as a request would in a daphne: a table opened (added), a waiting table
joined (it moves to the games being played), a game resigned (removed), in turn, so
the list keeps its size. Prints the time from a change to every lobby page (median,
p99: a page has the change when a frame with its version or a later one arrives),
the CPU the process making the change spent after its commit (drawing and pushing the
lobby), daphne's and Redis' CPU, and the bytes sent per change per page.

    .venv/bin/python benchmarks/lobby_fanout.py                                  # 1000 tables, 300 pages, 10 changes/s
    .venv/bin/python benchmarks/lobby_fanout.py --tables 100 --pages 10 --rate 2 --seconds 20
"""
import argparse
import asyncio
import itertools
import multiprocessing
import os
import random
import re
import statistics
import tempfile
import threading
import time

import websockets

from livesite import Site, cpu_by_part, setup_django
from page_clients import connect
from roundtrip import Results, percentile

VERSION = re.compile(r'data-lobby-version="(\d+)"')
MAIN_THREAD_CPU = time.pthread_getcpuclockid(threading.main_thread().ident)


def change_cpu():
    """CPU of this process but its main thread (the loop timing the changes): the thread making
    the change and any it starts (async_to_sync runs its event loop in one of its own)."""
    return time.process_time() - time.clock_gettime(MAIN_THREAD_CPU)


def make_tables(count):
    """`count` listed tables, the first half waiting for a player, the other playing;
    listed in one update so that making them pushes nothing. (waiting, playing, users):
    lists of table ids and the users that sit."""
    from django.contrib.auth import get_user_model

    from games import Variant
    from games.access import Viewer
    from games.models import Game
    from lobby import actions
    from lobby.models import Table

    from django.conf import settings

    # A crowd's lobby: 20 hosts keep far more tables waiting than the site lets one person.
    settings.WAITING_TABLES_PER_PERSON = count + 1000
    users = [get_user_model().objects.create_user(f"lobby{number}-{os.getpid()}") for number in range(40)]
    waiting, playing = [], []
    for number in range(count):
        table = actions.open_table(users[number % 20], Variant(board="8x8"), level="easy")
        if number % 2:
            actions.join(table, Viewer(user=users[20 + number % 20]))
            playing.append(table.pk)
        else:
            waiting.append(table.pk)
    Table.objects.update(listed=True)
    Game.objects.update(is_public=True)
    return waiting, playing, users


class Changes:
    """The changes this process makes, in turn: open, join, resign."""

    def __init__(self, waiting, playing, users, rng):
        from lobby import broadcast

        self.waiting, self.playing, self.users, self.rng = waiting, playing, users, rng
        self.kinds = itertools.cycle(("open", "join", "resign"))
        self.lobby_cpu, lobby_changed = 0.0, broadcast.lobby_changed

        def measured(*args, **kwargs):  # the lobby's own part: the row read, drawn and pushed
            started = change_cpu()
            try:
                return lobby_changed(*args, **kwargs)
            finally:
                self.lobby_cpu += change_cpu() - started

        broadcast.lobby_changed = measured

    def make(self):
        """One change in its own transaction; (kind, CPU seconds after its commit, of which
        the lobby's, the lobby version once it was pushed)."""
        from django.db import transaction

        from games import Variant, endings
        from games.access import Viewer
        from lobby import actions
        from lobby.broadcast import lobby_version
        from lobby.models import Table

        kind = next(self.kinds)
        committed, self.lobby_cpu = [], 0.0
        with transaction.atomic():
            transaction.on_commit(lambda: committed.append(change_cpu()))  # runs before the change's own
            if kind == "open":
                table = actions.open_table(self.rng.choice(self.users[:20]), Variant(board="8x8"), level="easy",
                                           listed=True)
                self.waiting.append(table.pk)
            elif kind == "join":
                table = Table.objects.select_related("game").get(pk=self.waiting.pop(0))
                guest = next(user for user in self.users[20:] if user.pk != table.host_id)
                actions.join(table, Viewer(user=guest))
                self.playing.append(table.pk)
            else:
                table = Table.objects.select_related("game", "host").get(pk=self.playing.pop(0))
                endings.resign(table.game, Viewer(user=table.host))
        return kind, change_cpu() - committed[0], self.lobby_cpu, lobby_version()


class Page:
    """A lobby page: every frame's arrival, size and version."""

    def __init__(self):
        self.frames = []  # (arrival, bytes, version or None)

    async def listen(self, socket):
        try:
            async for message in socket:
                versions = [int(v) for v in VERSION.findall(message)]
                self.frames.append((time.perf_counter(), len(message.encode()), max(versions) if versions else None))
        except websockets.exceptions.ConnectionClosed:
            pass

    def reached(self, version, started, done):
        """When this page first had the change: a frame of its version or later (a frame
        without a version: the first to arrive after the change was pushed)."""
        for arrival, _size, shown in self.frames:
            if arrival < started:
                continue
            if (shown is not None and shown >= version) or (shown is None and arrival >= done):
                return arrival
        return None


def hold_pages(urls, count, frames_out, opened, stop):
    """In a process of its own, so that making the changes does not delay the pages'
    clocks: open the lobby pages, say so, note every frame until told to stop, then
    hand the frames back (time.perf_counter is the machine's monotonic clock, the same
    in every process)."""
    async def main():
        pages, sockets = [Page() for _ in range(count)], []
        for index, page in enumerate(pages):
            url = urls[index % len(urls)]
            socket = await connect(url.replace("http://", "ws://") + "/ws/page/?lobby=1&lang=" + ("de" if index % 3 == 0 else "en"),
                                   url, "", Results())
            sockets.append(socket)
            asyncio.create_task(page.listen(socket))
        opened.set()
        while not stop.is_set():
            await asyncio.sleep(0.2)
        for socket in sockets:
            await socket.close()
        frames_out.put([page.frames for page in pages])

    asyncio.run(main())


async def run(site, args):
    waiting, playing, users = await asyncio.to_thread(make_tables, args.tables)
    changes = Changes(waiting, playing, users, random.Random(args.seed))
    context = multiprocessing.get_context("spawn")
    frames_out, opened, stop = context.Queue(), context.Event(), context.Event()
    holder = context.Process(target=hold_pages, args=(site.urls, args.pages, frames_out, opened, stop))
    holder.start()
    await asyncio.to_thread(opened.wait)
    await asyncio.sleep(2)
    made = []  # (kind, started, done, change CPU, the lobby's part of it, version)
    cpu_before = cpu_by_part(site)
    began = time.perf_counter()
    for number in range(int(args.seconds * args.rate)):
        await asyncio.sleep(max(0.0, began + number / args.rate - time.perf_counter()))
        started = time.perf_counter()
        kind, cpu, lobby_cpu, version = await asyncio.to_thread(changes.make)
        made.append((kind, started, time.perf_counter(), cpu, lobby_cpu, version))
    elapsed = time.perf_counter() - began
    await asyncio.sleep(3)  # the last pushes arrive
    cpu = {part: seconds - cpu_before[part] for part, seconds in cpu_by_part(site).items()}
    stop.set()
    pages = []
    for frames in await asyncio.to_thread(frames_out.get):
        pages.append(Page())
        pages[-1].frames = frames
    await asyncio.to_thread(holder.join)
    return made, pages, cpu, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000, help="listed tables, half waiting, half playing")
    parser.add_argument("--pages", type=int, default=300, help="open lobby pages (a third in German)")
    parser.add_argument("--rate", type=float, default=10, help="table changes a second")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--daphne", type=int, default=1)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--layer", choices=("core", "pubsub"), default=None,
                        help="channels-redis layer (CHANNEL_LAYER in config/settings.py; default: the site's)")
    args = parser.parse_args()
    if args.layer:
        os.environ["CHANNEL_LAYER"] = args.layer
    with tempfile.TemporaryDirectory(prefix="reversi-lobby-") as scratch:
        site = Site(scratch, 1, daphnes=args.daphne, workers=1, database=args.database)
        try:
            setup_django(site)
            load_before = os.getloadavg()[0]
            made, pages, cpu, elapsed = asyncio.run(run(site, args))
        finally:
            site.stop()
    latencies, missed = [], 0
    for _kind, started, done, _cpu, _lobby_cpu, version in made:
        for page in pages:
            arrival = page.reached(version, started, done)
            if arrival is None:
                missed += 1
            else:
                latencies.append(arrival - started)
    frames = [frame for page in pages for frame in page.frames if frame[0] >= made[0][1]]
    sent = sum(size for _arrival, size, _version in frames)
    cpus, lobby_cpus = [change[3] for change in made], [change[4] for change in made]
    print(f"{args.tables} listed tables, {args.pages} lobby pages, {len(made)} changes in {elapsed:.0f} s "
          f"({len(made) / elapsed:.1f}/s), {args.daphne} daphne, DB {site.env['DATABASE_URL'].split(':', 1)[0]}, "
          f"{os.cpu_count()} cores, load average before {load_before:.1f}, "
          f"channel layer {os.environ.get('CHANNEL_LAYER') or 'the default'}")
    if latencies:
        print(f"change -> every lobby page: median {statistics.median(latencies) * 1000:.0f} ms, "
              f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms; "
              f"{missed} (change, page) pairs never arrived")
    print(f"drawing and pushing a change (CPU after its commit, in the process that made it): "
          f"median {statistics.median(cpus) * 1000:.1f} ms, p90 {percentile(cpus, 0.9) * 1000:.1f} ms, "
          f"p99 {percentile(cpus, 0.99) * 1000:.1f} ms; of which the lobby's row read, drawn and pushed "
          f"(lobby.broadcast.lobby_changed): median {statistics.median(lobby_cpus) * 1000:.1f} ms, "
          f"p90 {percentile(lobby_cpus, 0.9) * 1000:.1f} ms, p99 {percentile(lobby_cpus, 0.99) * 1000:.1f} ms")
    print(f"frames: {len(frames) / len(pages) / elapsed:.1f} a second per page, "
          f"{sent / len(made) / len(pages) / 1024:.2f} kB per change per page ({sent / elapsed / 1e6:.2f} MB/s in all)")
    print(f"CPU: daphne {cpu['daphne'] / elapsed / args.daphne * 100:.0f}% of a core per daphne, "
          f"redis {cpu['redis'] / elapsed * 100:.0f}%, worker {cpu['worker'] / elapsed * 100:.0f}%")


if __name__ == "__main__":
    main()
