"""The compiled core against the pure-Python engine on the same positions.

    .venv/bin/python benchmarks/core.py              # perft and the exact solver, both engines
    .venv/bin/python benchmarks/core.py --ffo 1-10   # which FFO positions the solver part takes

Prints, per board, perft leaves per second of CPU (move generation and flips);
on 8x8 the midgame search with the learned evaluation to a fixed depth
(5 plies, then ``--depth`` for the compiled search alone): the Python PVS with
the Python and with the compiled move generation, and the compiled search
(``Searcher(native=...)``), nodes per second and the same value and move; and the exact solver's nodes per second of CPU and
time per position on FFO positions (tests/data/ffo.txt), for each engine.  CPU time, so a busy
machine changes the figures little.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import Board, Variant  # noqa: E402
from games.ai import core  # noqa: E402
from games.ai.bitboard import tables, tables_for  # noqa: E402
from games.ai import search  # noqa: E402
from games.ai.endgame import EndgameSolver  # noqa: E402
from games.ai.levels import evaluator  # noqa: E402
from games.ai.tools.cli import parse_ffo_line, parse_ids  # noqa: E402
from games.rules.perft import perft_plain  # noqa: E402

PERFT = [("6x6", 8), ("8x8", 8), ("10x10", 6), ("octagon", 7)]


def cpu(fn):
    t0 = time.process_time()
    out = fn()
    return out, time.process_time() - t0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ffo", default="1-10", help="FFO ids for the solver part (default 1-10, 14-18 empties)")
    p.add_argument("--depth", type=int, default=9, help="the compiled search's own depth (default 9)")
    args = p.parse_args()
    if not core.available():
        print("the compiled core is not built (pip install -e .)", file=sys.stderr)
        return 2
    print(f"{'perft':<10} {'depth':>5} {'leaves':>12} {'python/s':>12} {'core/s':>14} {'ratio':>7}")
    for board, depth in PERFT:
        b = Board(Variant(board=board))
        t = b.turn_index
        leaves, py = cpu(lambda: perft_plain(b, depth))
        c = core.core_for(tables(b.geometry), False)
        leaves_c, cc = cpu(lambda: c.perft(b.bits[t], b.bits[1 - t], depth))
        assert leaves == leaves_c
        print(f"{board:<10} {depth:>5} {leaves:>12,} {leaves / py:>12,.0f} {leaves / cc:>14,.0f} {py / cc:>7.0f}",
              flush=True)
    geo = tables_for("8x8")
    print(f"\n{'search':<10} {'depth':>5} {'positions':>9} {'python n/s':>11} {'core moves n/s':>15} "
          f"{'compiled n/s':>13}")
    boards = []
    import random

    for seed in range(8):
        rng = random.Random(seed)
        b = Board(Variant(board="8x8"))
        for _ in range(12 + 2 * seed):
            if b.is_game_over():
                break
            b.push(rng.choice(b.legal_moves))
        if not b.is_game_over() and b.legal_moves != ["pass"]:
            boards.append((b.bits[b.turn_index], b.bits[1 - b.turn_index]))
    native = core.native_evaluator(geo, False)

    def searches(depth, engines):
        rates, results = [], []
        for use_core, use_native in engines:
            nodes, spent, out = 0, 0.0, []
            for P, O in boards:
                s = search.Searcher(geo, evaluator(geo, False), anti=False, compiled=use_core,
                                    native=native if use_native else None)
                r, dt = cpu(lambda: s.iterate(P, O, max_depth=depth, deadline=None))
                nodes += s.nodes
                spent += dt
                out.append(r[:2])
            rates.append(nodes / spent)
            results.append(out)
        assert all(r == results[0] for r in results)
        return rates

    rates = searches(5, [(False, False), (True, False), (True, True)])
    print(f"{'8x8':<10} {5:>5} {len(boards):>9} {rates[0]:>11,.0f} {rates[1]:>15,.0f} {rates[2]:>13,.0f}",
          flush=True)
    rate = searches(args.depth, [(True, True)])[0]
    print(f"{'8x8':<10} {args.depth:>5} {len(boards):>9} {'':>11} {'':>15} {rate:>13,.0f}", flush=True)
    wanted = parse_ids(args.ffo)
    positions = [q for q in (parse_ffo_line(line) for line in (ROOT / "tests" / "data" / "ffo.txt").open()) if q]
    print(f"\n{'ffo':<4} {'score':>6} {'python s':>9} {'nodes/s':>10} {'core s':>8} {'nodes/s':>12} {'ratio':>6}")
    totals = [0.0, 0, 0.0, 0]
    for ident, black, white, side, _, score in positions:
        if ident not in wanted:
            continue
        P, O = (black, white) if side == "X" else (white, black)
        py_solver = EndgameSolver(geo)
        (v, _), py = cpu(lambda: py_solver.solve(P, O))
        c_solver = core.CoreSolver(geo)
        (vc, _), cc = cpu(lambda: c_solver.solve(P, O))
        assert v == vc == score, ident
        totals[0] += py
        totals[1] += py_solver.nodes
        totals[2] += cc
        totals[3] += c_solver.nodes
        print(f"{ident:<4} {score:>+6d} {py:>9.2f} {py_solver.nodes / py:>10,.0f} {cc:>8.3f} "
              f"{c_solver.nodes / cc:>12,.0f} {py / cc:>6.0f}", flush=True)
    if totals[0]:
        print(f"{'all':<4} {'':>6} {totals[0]:>9.2f} {totals[1] / totals[0]:>10,.0f} {totals[2]:>8.3f} "
              f"{totals[3] / totals[2]:>12,.0f} {totals[0] / totals[2]:>6.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
