"""What one lobby change costs the process that makes it, part by part.

Starts the site as benchmarks/roundtrip.py does (one daphne, so the lobby group has
--pages members on open sockets), lists --tables tables (half waiting, half playing),
then pushes --changes changes of tables picked at random through the lobby's own
steps and times each in CPU (time.process_time, this process only): the version's
INCR, reading the row (lobby.listing.row_of), drawing it in every language, the counts,
the group send, and all of them together (lobby.broadcast.lobby_changed). Prints the
median and p90 of each.

    .venv/bin/python benchmarks/lobby_change.py
    .venv/bin/python benchmarks/lobby_change.py --tables 100 --pages 10 --database postgres
"""
import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time

from livesite import Site, setup_django
from lobby_fanout import make_tables
from page_clients import connect
from roundtrip import Results, percentile


def timed(samples, name, work):
    started = time.process_time()
    result = work()
    samples.setdefault(name, []).append(time.process_time() - started)
    return result


def measure(table_ids, changes, rng):
    from lobby import broadcast
    from lobby.counts import counts
    from lobby.drawing import draw_row_in_every_language
    from lobby.listing import row_of

    samples = {}
    for _ in range(changes):
        table_id = rng.choice(table_ids)
        version = timed(samples, "version (INCR)", broadcast.next_lobby_version)
        row = timed(samples, "row read (row_of)", lambda: row_of(table_id))
        html = timed(samples, "row drawn in every language", lambda: draw_row_in_every_language(row))
        now = timed(samples, "counts", counts)
        change = {"id": table_id, "section": row["section"], "category": row["category"], "rated": row["rated"],
                  "html": html}
        timed(samples, "group send", lambda: broadcast.group_send(
            broadcast.LOBBY_GROUP, {"type": "lobby.changes", "version": version, "changes": [change], "counts": now}))
        timed(samples, "all (lobby_changed)", lambda: broadcast.lobby_changed([table_id]))
    return samples


async def open_pages(site, count):
    sockets = []
    for index in range(count):
        url = site.urls[0]
        sockets.append(await connect(url.replace("http://", "ws://") + "/ws/page/?lobby=1&lang=" + ("de" if index % 3 == 0 else "en"),
                                     url, "", Results()))
    return sockets


async def close_pages(sockets):
    for socket in sockets:
        await socket.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000, help="listed tables, half waiting, half playing")
    parser.add_argument("--pages", type=int, default=300, help="open lobby pages (members of the lobby group)")
    parser.add_argument("--changes", type=int, default=300)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="reversi-lobby-change-") as scratch:
        site = Site(scratch, 1, daphnes=1, workers=1, database=args.database)
        try:
            setup_django(site)
            waiting, playing, _users = make_tables(args.tables)
            loop = asyncio.new_event_loop()
            sockets = loop.run_until_complete(open_pages(site, args.pages))
            load_before = os.getloadavg()[0]
            samples = measure(waiting + playing, args.changes, random.Random(args.seed))
            loop.run_until_complete(close_pages(sockets))
        finally:
            site.stop()
    print(f"{args.tables} listed tables, {args.pages} lobby pages, {args.changes} changes, "
          f"DB {args.database}, channel layer {os.environ.get('CHANNEL_LAYER') or 'the default'}, "
          f"load average before {load_before:.1f}; CPU of this process per change:")
    for name, values in samples.items():
        print(f"  {name:30s} median {statistics.median(values) * 1000:6.2f} ms, "
              f"p90 {percentile(values, 0.9) * 1000:6.2f} ms")


if __name__ == "__main__":
    main()
