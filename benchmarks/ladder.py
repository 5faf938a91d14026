"""The computer players' ladder: Hard vs Normal, Normal vs Easy, Easy vs random.

    .venv/bin/python benchmarks/ladder.py                     # the full ladder (slow: hours)
    .venv/bin/python benchmarks/ladder.py --games 20 --time 0.5 --jobs 2
    .venv/bin/python benchmarks/ladder.py --only 8x8 --pairs hard-normal

Targets: two players on 8x8, octagon, 10x10 and 8x8 anti: A scores
at least 75% (Hard vs Normal, Normal vs Easy) or 90% (Easy vs random).  Three
players on 8x8 (A against two B): A wins at least twice its fair share, 2/3.
Each match plays every random opening once with A in every seat.  Prints a
table; ``--time`` is Hard's budget per move (the site's default is 2 s).
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import Variant  # noqa: E402
from games.ai.tools.match import run_match  # noqa: E402

BOARDS = {
    "8x8": Variant(),
    "octagon": Variant(board="octagon"),
    "10x10": Variant(board="10x10"),
    "8x8-anti": Variant(anti=True),
    "8x8-3p": Variant(players=3),
}
PAIRS = [("hard", "normal"), ("normal", "easy"), ("easy", "random")]


def target(variant, a, b):
    if variant.players > 2:
        return 200.0 / variant.players
    return 90.0 if b == "random" else 75.0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--time", type=float, default=2.0, help="Hard's seconds per move")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cpu-clock", action="store_true", help="Hard's budget in CPU time (busy machine)")
    p.add_argument("--only", default=None, help="comma-separated: " + ",".join(BOARDS))
    p.add_argument("--pairs", default=None, help="comma-separated, e.g. hard-normal,easy-random")
    args = p.parse_args(argv)
    boards = args.only.split(",") if args.only else list(BOARDS)
    pairs = [tuple(x.split("-")) for x in args.pairs.split(",")] if args.pairs else PAIRS
    rows = []
    for name in boards:
        variant = BOARDS[name]
        for a, b in pairs:
            t0 = time.monotonic()
            r = run_match(variant, a, b, args.games, time_limit=args.time, seed=args.seed, jobs=args.jobs,
                          cpu_clock=args.cpu_clock)
            goal = target(variant, a, b)
            times = sorted(r.times.get(a, [0.0]))
            cpu = sorted(r.cpu_times.get(a, [0.0]))
            row = (name, f"{a}-{b}", r.n, r.wins, r.draws, r.losses, r.percent, goal,
                   "PASS" if r.percent >= goal else "fail", times[len(times) // 2], times[-1],
                   cpu[len(cpu) // 2], cpu[-1], time.monotonic() - t0)
            rows.append(row)
            print("{:9s} {:12s} {:4d} games  W {:3d} D {:3d} L {:3d}  {:5.1f}% (target {:4.1f}%) {:4s}"
                  "  A move wall median {:.2f}s max {:.2f}s, cpu median {:.2f}s max {:.2f}s  [{:.0f}s]"
                  .format(*row), flush=True)
    print()
    hard = any("hard" in (a, b) for a, b in pairs)
    budget = f"Hard {args.time:g} s/move{' of CPU time' if args.cpu_clock else ''}, " if hard else ""
    print(f"Ladder ({budget}seed {args.seed})")
    print(f"{'variant':9s} {'pairing':12s} {'games':>5s} {'W':>4s} {'D':>4s} {'L':>4s} {'score':>7s} {'target':>7s}")
    for row in rows:
        print(f"{row[0]:9s} {row[1]:12s} {row[2]:5d} {row[3]:4d} {row[4]:4d} {row[5]:4d} {row[6]:6.1f}% "
              f"{row[7]:6.1f}%  {row[8]}")


if __name__ == "__main__":
    main()
