"""6x6 at 16 empties: the solver's nodes and CPU time, and Hard's first move.

    nice -n 19 .venv/bin/python benchmarks/solve6.py var/ai-train16/6x6 [--no-hard] [--empties 16]

The positions are a test set of ``python -m games.ai.tools.train testset`` (lines
``P O empties value label``).  Per position: nodes and CPU time of win/draw/loss
(the window (-1, 1)) then the exact score on the same solver, with a full
window (Hard until commit "levels: ...probes") and with null-window probes
from a 4-ply heuristic guess (``solve_exact``, Hard since), and of a plain
exact solve; then, unless ``--no-hard``, whether
Hard's first move (2 s, CPU clock, the deadline ``train perfect`` gives it)
keeps the exact value, and its CPU time.  A quick check of the first moves
only; ``train perfect`` plays the positions out.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.ai import OVERHEAD, clock  # noqa: E402
from games.ai.bitboard import tables_for  # noqa: E402
from games.ai.endgame import EndgameSolver  # noqa: E402
from games.ai.levels import BUDGET_SHARE, HARD_DEFAULT_TIME, choose_hard, evaluator  # noqa: E402
from games.ai.search import Searcher, to_stones  # noqa: E402
from games.ai.tools.training_data import read_positions  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("data", help="directory with test-*.txt")
    p.add_argument("--board", default="6x6")
    p.add_argument("--empties", type=int, default=16)
    p.add_argument("--no-hard", action="store_true", help="only the solver figures")
    p.add_argument("--time", type=float, default=HARD_DEFAULT_TIME)
    p.add_argument("--only", default=None, help="only these positions (numbers from 0), e.g. 4,6,8")
    args = p.parse_args()
    geo = tables_for(args.board)
    test = [r for r in read_positions(sorted(Path(args.data).glob("test-*.txt"))) if r[2] == args.empties]
    clock.use_cpu_clock(True)
    print(f"{'#':>3} {'value':>5} {'wld n':>8} {'exact n':>8} {'wld+ex s':>8} {'probes n':>8} {'wld+pr s':>8}"
          f" {'plain n':>8} {'plain s':>7} {'move s':>7} {'ok':>3}")
    rows = []
    only = {int(x) for x in args.only.split(",")} if args.only else None
    for k, (P, O, e, value, _) in enumerate(test):
        if only is not None and k not in only:
            continue
        s = EndgameSolver(geo)
        c0 = time.process_time()
        s.solve(P, O, -1, 1)
        wld_n = s.nodes
        v, _ = s.solve(P, O)
        hard_s = time.process_time() - c0
        assert v == value, (k, v, value)
        # win/draw/loss, then null-window probes from a 4-ply heuristic guess
        # on the same table (what Hard does, its guess from a longer search)
        guess = round(to_stones(Searcher(geo, evaluator(geo, False)).iterate(P, O, max_depth=4)[0]))
        s3 = EndgameSolver(geo)
        c0 = time.process_time()
        v3, _ = s3.solve_from_guess(P, O, guess)
        assert v3 == value, (k, v3, value)
        probe_s = time.process_time() - c0
        s2 = EndgameSolver(geo)
        c0 = time.process_time()
        v2, _ = s2.solve(P, O)
        plain_s = time.process_time() - c0
        assert v2 == value
        move_s, ok = float("nan"), ""
        if not args.no_hard:
            start = clock.now()
            deadline = start + max(0.0, args.time * BUDGET_SHARE - OVERHEAD)
            sq = choose_hard(geo, P, O, False, random.Random(k), deadline)
            move_s = clock.now() - start
            b = 1 << sq
            f = geo.flips(b, P, O)
            got = -EndgameSolver(geo).solve(O ^ f, P | f | b)[0]
            ok = "yes" if got == value else f"{got - value:+d}"
        rows.append((wld_n, s.nodes, hard_s, s2.nodes, plain_s, move_s, ok, s3.nodes, probe_s))
        print(f"{k:3d} {value:+5d} {wld_n:8d} {s.nodes:8d} {hard_s:8.3f} {s3.nodes:8d} {probe_s:8.3f}"
              f" {s2.nodes:8d} {plain_s:7.3f} {move_s:7.3f} {ok:>3}", flush=True)

    def med_max(i):
        xs = [r[i] for r in rows]
        return f"median {statistics.median(xs):.3g} max {max(xs):.3g} total {sum(xs):.4g}"

    print(f"{len(rows)} positions at {args.empties} empties")
    print(f"  wld + exact (full window): nodes {med_max(1)}; CPU s {med_max(2)}")
    print(f"  wld + null-window probes: nodes {med_max(7)}; CPU s {med_max(8)}")
    print(f"  plain exact solve: nodes {med_max(3)}; CPU s {med_max(4)}")
    if not args.no_hard:
        print(f"  first move exact in {sum(r[6] == 'yes' for r in rows)} of {len(rows)}; "
              f"CPU s {med_max(5)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
