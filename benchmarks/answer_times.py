"""Answer times of choose_move on 8x8 midgame positions (and other boards).

    .venv/bin/python benchmarks/answer_times.py [--positions 30] [--board 8x8] [--time 2]

Positions: random openings of 12-40 plies (seeded).  Prints median and max
wall/CPU time per level; Hard is checked against its budget plus 10%.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import Board, Variant  # noqa: E402
from games.ai import choose_move  # noqa: E402


def positions(variant, n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        b = Board(variant)
        plies = rng.randrange(12, 41)
        for _ in range(plies):
            if b.is_game_over():
                break
            b.push(rng.choice(b.legal_moves))
        if not b.is_game_over() and len(b.legal_moves) > 1:
            out.append(b)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--positions", type=int, default=30)
    p.add_argument("--board", default="8x8")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--time", type=float, default=None, help="Hard's limit (default: its 2 s)")
    p.add_argument("--levels", default="easy,normal,hard")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    variant = Variant(board=a.board, players=a.players)
    boards = positions(variant, a.positions, a.seed)
    for level in a.levels.split(","):
        walls, cpus = [], []
        for b in boards:
            t0, c0 = time.monotonic(), time.process_time()
            choose_move(b, level, time_limit=a.time if level == "hard" else None, seed=0)
            walls.append(time.monotonic() - t0)
            cpus.append(time.process_time() - c0)
        budget = (a.time or 2.0) if level == "hard" else None
        extra = f"; budget {budget:g}s, over budget+10%: {sum(w > budget * 1.1 for w in walls)}" if budget else ""
        print(f"{level:6s} {len(walls)} positions on {variant.label}: wall median {statistics.median(walls):.3f}s "
              f"max {max(walls):.3f}s; cpu median {statistics.median(cpus):.3f}s max {max(cpus):.3f}s{extra}",
              flush=True)


if __name__ == "__main__":
    main()
