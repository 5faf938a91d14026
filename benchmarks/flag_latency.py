"""Clock accuracy: how long after a player's true flag instant the other player's page
hears of it.

Starts the real site (benchmarks/livesite.py: daphne, a Celery worker, a private Redis,
a scratch SQLite database, DEBUG off), opens --flags two-player tables on a clock of
--clock seconds, a few at a time (--stagger seconds apart), and keeps the opponent's
page websocket (/ws/page/?game=<id>) open at each while the player to move does nothing.
The flag instant is the game's deadline (the turn's start plus the clock's time; the
player never answered a ping, so no lag credit); the announcement is the first state
with data-status="finished" on the opponent's socket (the player never made their
first move, so the game is aborted rather than lost: docs/rules.md §11.3; the same
time-out). Prints the median and the largest delay, and every delay sorted.

    .venv/bin/python benchmarks/flag_latency.py                  # 50 flags
    .venv/bin/python benchmarks/flag_latency.py --flags 20 --clock 2
"""
import argparse
import asyncio
import statistics
import tempfile
import time

from livesite import Site, make_players, setup_django  # benchmarks/ is on sys.path when run as a script
from page_clients import connect
from roundtrip import Results


def clock_table(host, guest, seconds):
    """A running 6x6 table on a clock of `seconds`: (game public id, its flag instant)."""
    from games import Variant
    from games.access import Viewer
    from games.models import Game
    from lobby import actions

    table = actions.open_table(host, Variant(board="6x6"), time_control=(Game.TimeControl.CLOCK, seconds, 0))
    actions.join(table, Viewer(user=guest))
    return table.game.public_id, Game.objects.get(pk=table.game_id).deadline.timestamp()


async def one_flag(site, host, guest, session, seconds, results):
    public_id, flag_at = await asyncio.to_thread(clock_table, host, guest, seconds)
    socket = await connect(f"{site.url.replace('http://', 'ws://')}/ws/page/?game={public_id}", site.url, session, results)
    try:
        async for message in socket:
            if 'data-status="finished"' in message:
                heard = time.time()
                break
    finally:
        await socket.close()
    return heard - flag_at


async def run(site, args):
    users, sessions = await asyncio.to_thread(make_players, 2 * args.flags)
    results = Results()
    tasks = []
    for number in range(args.flags):
        host, guest = users[2 * number], users[2 * number + 1]
        tasks.append(asyncio.create_task(one_flag(site, host, guest, sessions[2 * number + 1], args.clock, results)))
        await asyncio.sleep(args.stagger)
    return await asyncio.gather(*tasks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flags", type=int, default=50)
    parser.add_argument("--clock", type=int, default=3, help="seconds on each clock")
    parser.add_argument("--stagger", type=float, default=0.37, help="seconds between two tables' starts")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="reversi-flag-") as scratch:
        site = Site(scratch, 1)
        try:
            setup_django(site)
            delays = asyncio.run(run(site, args))
        finally:
            site.stop()
    print(f"{len(delays)} flags on {args.clock} s clocks, one daphne, one worker")
    print(f"flag instant -> the opponent's websocket: median {statistics.median(delays) * 1000:.0f} ms, "
          f"max {max(delays) * 1000:.0f} ms")
    print("all (ms): " + " ".join(f"{d * 1000:.0f}" for d in sorted(delays)))


if __name__ == "__main__":
    main()
