"""Hard's solve from 13-16 empties on FFO positions 1-19 (8x8, 14-16 empties).

    nice -n 19 .venv/bin/python benchmarks/hard_solve.py [--ids 1-19] [--guess-time 0.257]
    nice -n 10 .venv/bin/python benchmarks/hard_solve.py --core --ids 26-49   # the compiled core

Per position, nodes and CPU time of what Hard's solver does after its short
heuristic search: win/draw/loss (the window (-1, 1)), then the exact score on
the same table, with a full window (Hard before ``solve_exact``) and with
null-window probes from the heuristic value (``solve_exact``, Hard since).
The guess comes from a heuristic search of ``--guess-time`` CPU seconds
(Hard's 15% of 2 s * 0.87 - 0.03).  ``--core``: the compiled search and
solver (``core.native_evaluator``, ``core.CoreSolver``), and whether the
guess and the probes together fit Hard's 2 s (1.71 s of CPU), i.e. whether
Hard plays the exact best move there (the core's ``solve`` takes no window:
its first columns are two exact solves).
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.ai import clock, core  # noqa: E402
from games.ai.bitboard import tables_for  # noqa: E402
from games.ai.tools.cli import parse_ffo_line, parse_ids  # noqa: E402
from games.ai.endgame import EndgameSolver  # noqa: E402
from games.ai.levels import evaluator  # noqa: E402
from games.ai.search import Searcher, to_stones  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--file", default=str(ROOT / "tests" / "data" / "ffo.txt"))
    p.add_argument("--ids", default="1-19")
    p.add_argument("--guess-time", type=float, default=0.257)
    p.add_argument("--core", action="store_true", help="the compiled search and solver")
    args = p.parse_args()
    if args.core and not core.available():
        print("the compiled core is not built (pip install -e .)", file=sys.stderr)
        return 2
    solver_type = core.CoreSolver if args.core else EndgameSolver
    native = core.native_evaluator(tables_for("8x8"), False) if args.core else None
    budget = 2 * 0.87 - 0.03
    geo = tables_for("8x8")
    wanted = parse_ids(args.ids)
    clock.use_cpu_clock(True)
    rows = []
    print(f"{'id':>4} {'empties':>7} {'score':>6} {'guess':>6} {'wld+full n':>10} {'cpu s':>6} "
          f"{'wld+probes n':>12} {'cpu s':>6} {'in 2 s':>6}")
    for line in Path(args.file).read_text().splitlines():
        pos = parse_ffo_line(line)
        if not pos or pos[0] not in wanted:
            continue
        ident, black, white, side, _, score = pos
        P, O = (black, white) if side == "X" else (white, black)
        value, _, _ = Searcher(geo, evaluator(geo, False), native=native).iterate(
            P, O, deadline=clock.now() + args.guess_time)
        guess = round(to_stones(value))
        s = solver_type(geo)
        c0 = time.process_time()
        s.solve(P, O, -1, 1)
        v1 = s.solve(P, O)[0]
        t1 = time.process_time() - c0
        s2 = solver_type(geo)
        c0 = time.process_time()
        v2 = s2.solve_from_guess(P, O, guess)[0]
        t2 = time.process_time() - c0
        assert v1 == v2 == score, (ident, v1, v2, score)
        rows.append((s.nodes, t1, s2.nodes, t2))
        fits = "yes" if args.guess_time + t2 <= budget else "no"
        print(f"{ident:>4} {64 - (P | O).bit_count():>7} {score:+6d} {guess:+6d} {s.nodes:10d} {t1:6.2f} "
              f"{s2.nodes:12d} {t2:6.2f} {fits:>6}", flush=True)
    for i, name in ((0, "wld + full window"), (2, "wld + probes")):
        n = [r[i] for r in rows]
        t = [r[i + 1] for r in rows]
        print(f"{name}: nodes total {sum(n)} max {max(n)}; CPU s median {statistics.median(t):.2f} "
              f"max {max(t):.2f} total {sum(t):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
