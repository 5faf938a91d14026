"""The review's analysis: CPU time per position and per game, as a worker spends it.

    .venv/bin/python benchmarks/analysis_times.py [--games 1] [--only 8x8,8x8-4p] [--seed 1]

Plays seeded random games on each variant and weighs every position before a move
with ``games.ai.analyse``, as ``games.analysis.weigh_move`` does (forced moves and
passes are not weighed). Prints per variant the median and maximum CPU time per
weighed position and the CPU time per game. ``--time-limit`` is the guard the worker
gives each position (``TIME_LIMIT`` in games/analysis.py); the values themselves come
from fixed depths and a solver node budget, so the guard only matters when a position
takes longer than it: the count of such positions is printed too. CPU clock.
"""
import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import Board, Variant  # noqa: E402
from games.ai import analyse, clock  # noqa: E402
from games.ai.levels import BUDGET_SHARE  # noqa: E402

VARIANTS = {
    "8x8": Variant(),
    "8x8-anti": Variant(anti=True),
    "6x6": Variant(board="6x6"),
    "octagon": Variant(board="octagon"),
    "10x10": Variant(board="10x10"),
    "8x8-3p": Variant(players=3),
    "8x8-4p": Variant(players=4),
    "10x10-4p": Variant(board="10x10", players=4),
}


def random_game(variant, rng):
    board, moves = Board(variant), []
    while not board.is_game_over():
        move = rng.choice(board.legal_moves)
        moves.append(move)
        board.push(move)
    return moves


def weigh_game(variant, moves, time_limit):
    """CPU seconds of each weighed position of the game."""
    board, times = Board(variant), []
    for move in moves:
        if move != "pass" and len(board.legal_moves) > 1:
            started = time.process_time()
            analyse(board, time_limit=time_limit)
            times.append(time.process_time() - started)
        board.push(move)
    return times


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=1, help="games per variant")
    p.add_argument("--only", default=",".join(VARIANTS), help="comma-separated: " + ",".join(VARIANTS))
    p.add_argument("--time-limit", type=float, default=3.0, help="the guard per position (TIME_LIMIT)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    clock.use_cpu_clock(True)
    guard = args.time_limit * BUDGET_SHARE
    print(f"{'variant':<10} {'games':>5} {'positions':>9} {'median s':>9} {'max s':>7} {'per game s':>14} {'at guard':>8}")
    for name in args.only.split(","):
        variant = VARIANTS[name]
        rng = random.Random(args.seed)
        times, per_game = [], []
        for _ in range(args.games):
            game = weigh_game(variant, random_game(variant, rng), args.time_limit)
            times += game
            per_game.append(sum(game))
        print(f"{name:<10} {args.games:>5} {len(times):>9} {statistics.median(times):>9.3f} {max(times):>7.3f} "
              f"{min(per_game):>6.1f}-{max(per_game):<7.1f} {sum(t >= guard for t in times):>8}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
