"""How far from the end Hard's exact solve fits its budget, per board and rule.

    .venv/bin/python benchmarks/solver_horizon.py --board 8x8 --anti --empties 17-21
    .venv/bin/python benchmarks/solver_horizon.py --board 8x8 --anti --empties 18,20 --order
    .venv/bin/python benchmarks/solver_horizon.py --board 8x8 --anti --empties 13-16 --engine python

Positions: Normal plays itself from random 8-ply openings (seeded), and each
game gives its first position at each number of empties asked for where the
mover has two moves or more.  On each, what Hard does between its two
horizons (``levels.choose_hard``), on the CPU clock, on the compiled core
(``--engine python``: the pure-Python engine, as where no compiler is): a
heuristic search for 15% of the budget (5% on 6x6), then win/draw/loss and the
exact score from its value, until the budget ends.  Prints, per number of
empties, how many solves finished in the budget and their median CPU time.

``--order``: each position solved exactly again from a fresh table, with and
without the learned evaluation ordering the compiled solver's moves
(``SORT_EV`` in games/ai/_core.c), nodes and CPU time.  ``--python``: each
position solved exactly by the pure-Python solver (``endgame.EndgameSolver``).
"""

import argparse
import contextlib
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import Board  # noqa: E402
from games.ai import choose_move, clock, core  # noqa: E402
from games.ai.bitboard import tables  # noqa: E402
from games.ai.endgame import EndgameSolver, Timeout  # noqa: E402
from games.ai.levels import BUDGET_SHARE, _searcher, _solver_horizon, presearch_share  # noqa: E402
from games.ai.search import to_stones  # noqa: E402
from games.ai.tools.cli import parse_ids  # noqa: E402
from games.ai.tools.match import random_opening  # noqa: E402
from games.rules.variant import Variant  # noqa: E402


def positions(variant, wanted, count, seed):
    """``count`` positions per number of empties in ``wanted``: {empties: [(P, O)]}."""
    rng = random.Random(seed)
    found = {e: [] for e in wanted}
    geo = tables(variant.geometry)
    while any(len(v) < count for v in found.values()):
        board = Board(variant)
        for m in random_opening(variant, 8, rng):
            board.push(m)
        while not board.is_game_over():
            t = board.turn_index
            P, O = board.bits[t], board.bits[1 - t]
            empties = (geo.playable & ~(P | O)).bit_count()
            if empties < min(wanted):
                break
            if empties in found and len(found[empties]) < count and len(board.legal_moves) > 1 \
                    and (P, O) not in found[empties]:
                found[empties].append((P, O))
            board.push(choose_move(board, "normal", seed=rng.randrange(1 << 30)))
    return found, geo


def hards_solve(geo, anti, P, O, budget):
    """(finished, CPU seconds) of Hard's short search and solve on (P, O)."""
    start = clock.now()
    searcher = _searcher(geo, anti, "learned", selective=True)
    empties = (geo.playable & ~(P | O)).bit_count()
    value, _, _ = searcher.iterate(P, O, deadline=start + budget * presearch_share(geo), max_depth=empties)
    solver = core.make_solver(geo, anti=anti, deadline=start + budget)
    try:
        solver.solve_from_guess(P, O, round(to_stones(value)))
        finished = True
    except Timeout:
        finished = False
    return finished, clock.now() - start


def exact(geo, anti, P, O, ordered=True, python=False):
    """(value, nodes, CPU seconds) of an exact solve from a fresh table."""
    solver = EndgameSolver(geo, anti=anti) if python else core.CoreSolver(geo, anti=anti)
    if not ordered:
        solver.evaluator = None
    c0 = time.process_time()
    value = solver.solve(P, O)[0]
    return value, solver.nodes, time.process_time() - c0


def total(solves) -> str:
    return f"{sum(n for _, n, _ in solves) / 1e6:.2f} M nodes {sum(t for _, _, t in solves):.1f} s"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--board", default="8x8")
    p.add_argument("--anti", action="store_true")
    p.add_argument("--empties", default="17-21")
    p.add_argument("--positions", type=int, default=12, help="per number of empties")
    p.add_argument("--time", type=float, default=2.0, help="Hard's time a move (the budget is 87%%)")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--order", action="store_true", help="also solve with and without the evaluation order")
    p.add_argument("--python", action="store_true", help="also solve on the pure-Python solver")
    p.add_argument("--engine", choices=("core", "python"), default="core",
                   help="the engine Hard's search and solve run on")
    args = p.parse_args()
    if not core.available():
        print("the compiled core is not built (pip install -e .)", file=sys.stderr)
        return 2
    clock.use_cpu_clock(True)
    variant = Variant(board=args.board, anti=args.anti)
    found, geo = positions(variant, sorted(map(int, parse_ids(args.empties))), args.positions, args.seed)
    budget = args.time * BUDGET_SHARE
    engine = core.python_engine if args.engine == "python" else contextlib.nullcontext
    with engine():
        now, to = _solver_horizon(geo, budget, args.anti)
    print(f"{variant.board}{' Anti' if args.anti else ''}, Hard at {args.time} s ({budget:.2f} s of CPU) "
          f"on the {args.engine} engine: exact at once up to {now} empties, the solver tried up to {to}")
    for empties, todo in sorted(found.items()):
        with engine():
            runs = [hards_solve(geo, args.anti, P, O, budget) for P, O in todo]
        done = sum(f for f, _ in runs)
        line = (f"{empties} empties: {done} of {len(runs)} solved in the budget, "
                f"CPU median {statistics.median(t for _, t in runs):.2f} s")
        if args.order:
            with_order = [exact(geo, args.anti, P, O) for P, O in todo]
            without = [exact(geo, args.anti, P, O, ordered=False) for P, O in todo]
            assert [v for v, _, _ in with_order] == [v for v, _, _ in without]
            line += f"; exact solve, evaluation order / without: {total(with_order)} / {total(without)}"
        if args.python:
            line += f"; pure-Python solver: {total([exact(geo, args.anti, P, O, python=True) for P, O in todo])}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
