"""The review's mistake threshold, checked against exact values.

    .venv/bin/python benchmarks/mistake_threshold.py [--board 8x8] [--anti] [--positions 60] [--empties 18,20]

Plays seeded self-play games (the training's player: a softmax over 2-ply values)
to --empties empties, and weighs every legal move of each position twice: with the
review's analysis (``games.ai.analyse``, on the hand-made and on the learned
evaluation: the search the review runs above its exact horizon) and with the exact
solver. A move's loss is the best value less its own. For each evaluation and each
threshold it prints how many moves the threshold would mark and, of those, how
many truly lose at least --mistake stones (``MISTAKE_THRESHOLD`` in games/analysis.py; precision), and how many of
the moves that truly lose that much it marks (recall). Needs the compiled core.
"""
import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games.ai as ai  # noqa: E402
from games import Board, Variant  # noqa: E402
from games.ai import core  # noqa: E402
from games.ai.tools.training_data import Player  # noqa: E402

THRESHOLDS = (2.0, 3.0, 4.0, 5.0, 6.0, 8.0)


def positions(variant, count, empties, rng):
    """`count` boards, cycling through `empties`, from self-play games."""
    player = Player(variant.board, variant.anti, 150.0, fast=True)
    geo = player.geo
    out = []
    while len(out) < count:
        target = empties[len(out) % len(empties)]
        board, ply = Board(variant), 0
        while not board.is_game_over() and (geo.playable & ~(board.bits[0] | board.bits[1])).bit_count() > target:
            if board.legal_moves == ["pass"]:
                board.push("pass")
                continue
            P, O = board.bits[board.turn_index], board.bits[1 - board.turn_index]
            board.push(geo.name(player.move(P, O, rng, ply < rng.randint(0, 10))))
            ply += 1
        empty = (geo.playable & ~(board.bits[0] | board.bits[1])).bit_count()
        if empty == target and len(board.legal_moves) > 1:
            out.append(board)
    return out


def losses(values):
    best = max(value for _move, value in values)
    return {move: best - value for move, value in values}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="8x8")
    parser.add_argument("--anti", action="store_true")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--empties", default="18,20")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mistake", type=float, default=4.0, help="a true mistake loses this many stones or more")
    parser.add_argument("--time-limit", type=float, default=3.0, help="the guard per position (TIME_LIMIT)")
    args = parser.parse_args()
    if not core.available():
        raise SystemExit("needs the compiled core: pip install -e .")
    variant = Variant(board=args.board, anti=args.anti)
    boards = positions(variant, args.positions, [int(e) for e in args.empties.split(",")], random.Random(args.seed))
    exact_horizon = ai.CORE_ANALYSIS_EXACT
    ai.CORE_ANALYSIS_EXACT = 0  # the search's values, as on positions above the horizon
    truth, judged = [], {"handmade": [], "learned": []}
    for board in boards:
        geo = ai.tables(board.geometry)
        P, O = board.bits[board.turn_index], board.bits[1 - board.turn_index]
        exact = losses([(geo.name(sq), v) for sq, v in core.CoreSolver(geo, anti=args.anti).solve_moves(P, O)])
        moves = sorted(exact)
        truth.extend(exact[move] for move in moves)
        for evaluation in judged:
            ai.ANALYSIS_EVALUATION = evaluation
            found = losses(ai.analyse(board, time_limit=args.time_limit))
            judged[evaluation].extend(found[move] for move in moves)
    ai.CORE_ANALYSIS_EXACT = exact_horizon
    mistakes = sum(loss >= args.mistake for loss in truth)
    print(f"{variant.board}{' Anti' if variant.anti else ''}: {len(boards)} positions at {args.empties} empties, "
          f"{len(truth)} moves, {mistakes} of them losing at least {args.mistake:g} stones exactly")
    for evaluation, found in judged.items():
        error = sum(abs(f - t) for f, t in zip(found, truth)) / len(truth)
        print(f"  {evaluation}: mean error of a move's loss {error:.2f} stones")
        for threshold in THRESHOLDS:
            marked = [t for f, t in zip(found, truth) if f >= threshold]
            right = sum(t >= args.mistake for t in marked)
            print(f"    threshold {threshold:g}: {len(marked)} marked, precision "
                  f"{right / len(marked) * 100 if marked else 0:.0f}%, recall {right / mistakes * 100 if mistakes else 0:.0f}%")


if __name__ == "__main__":
    main()
