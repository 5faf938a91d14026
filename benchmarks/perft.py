"""Perft benchmark: leaves per second of the rules library (a benchmark, not a test).

    .venv/bin/python benchmarks/perft.py            # 8x8, 10x10, octagon at depth 9
    .venv/bin/python benchmarks/perft.py --depth 8 --repeat 3 --plain

Reports wall time and process CPU time (the machine may be shared: CPU-time
rates are the steadier figure), the best of ``--repeat`` runs, and each board's
time per leaf relative to 8x8.  ``--plain`` also times the one-position-at-a-time
bitboard perft (games.rules.perft.perft_plain) for comparison.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games import Variant  # noqa: E402
from games.rules.perft import perft, perft_plain, timed  # noqa: E402

CASES = [
    ("8x8", Variant(board="8x8")),
    ("10x10", Variant(board="10x10")),
    ("octagon", Variant(board="octagon")),
    ("8x8 3 players", Variant(board="8x8", players=3)),
    ("10x10 4 players", Variant(board="10x10", players=4)),
]


def best_of(fn, variant, depth, repeat):
    runs = [timed(fn, variant, depth) for _ in range(repeat)]
    leaves = runs[0][0]
    assert all(r[0] == leaves for r in runs)
    return leaves, min(r[1] for r in runs), min(r[2] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--plain", action="store_true", help="also time the plain perft (slow)")
    parser.add_argument("--only", default="", help="comma-separated case names")
    args = parser.parse_args()

    cases = [c for c in CASES if not args.only or c[0] in args.only.split(",")]
    print(f"{'case':<18} {'depth':>5} {'leaves':>12} {'wall s':>8} {'leaves/s':>12} {'CPU s':>8} {'leaves/s CPU':>13} {'ns/leaf CPU':>12}")
    base = None
    for name, variant in cases:
        depth = args.depth - (1 if variant.players == 4 else 0)
        leaves, wall, cpu = best_of(perft, variant, depth, args.repeat)
        per_leaf = cpu / leaves * 1e9
        base = base or per_leaf
        print(
            f"{name:<18} {depth:>5} {leaves:>12,} {wall:>8.3f} {leaves / wall:>12,.0f} {cpu:>8.3f} "
            f"{leaves / cpu:>13,.0f} {per_leaf:>8.0f} ({per_leaf / base:.2f}x)",
            flush=True,
        )
        if args.plain and variant.players == 2:
            leaves, wall, cpu = best_of(perft_plain, variant, depth - 1, 1)
            print(f"{'  plain':<18} {depth - 1:>5} {leaves:>12,} {wall:>8.3f} {leaves / wall:>12,.0f} {cpu:>8.3f} {leaves / cpu:>13,.0f}")


if __name__ == "__main__":
    main()
