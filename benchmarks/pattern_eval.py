"""The learned pattern evaluation against the hand-made one: speed and depth.

    .venv/bin/python benchmarks/pattern_eval.py --board 8x8 [--anti] [--time 2] [--positions 20]

Prints evaluations per second of each evaluation on positions from random
games, and the depth Hard's iterative deepening completes with each in
``--time`` seconds of CPU (0.87 of it, Hard's share; positions after 8-40
random moves); with the compiled core built, also the compiled search
(``core.native_evaluator``) on the same positions, with its nodes per second,
and with the learned evaluation also with Hard's probability cut-offs
(``probcut.py``, "C cut").
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import Board, Variant  # noqa: E402
from games.ai import clock  # noqa: E402
from games.ai.bitboard import tables  # noqa: E402
from games.ai import core  # noqa: E402
from games.ai.levels import evaluator  # noqa: E402
from games.ai.probcut import cuts_for  # noqa: E402
from games.ai.search import Searcher  # noqa: E402


def positions(variant, count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        b = Board(variant)
        plies = rng.randint(8, 40)
        for _ in range(plies):
            if b.is_game_over():
                break
            b.push(rng.choice(b.legal_moves))
        if b.is_game_over() or b.legal_moves == ["pass"]:
            continue
        out.append((b.bits[b.turn_index], b.bits[1 - b.turn_index]))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--board", default="8x8")
    p.add_argument("--anti", action="store_true")
    p.add_argument("--time", type=float, default=2.0)
    p.add_argument("--positions", type=int, default=20)
    args = p.parse_args()
    variant = Variant(board=args.board, anti=args.anti)
    geo = tables(variant.geometry)
    sample = positions(variant, 200, 1)
    clock.use_cpu_clock(True)
    for kind in ("handmade", "learned"):
        ev = evaluator(geo, args.anti, kind)
        t0 = time.process_time()
        n = 0
        while time.process_time() - t0 < 1.0:
            for P, O in sample:
                ev(P, O)
            n += len(sample)
        rate = n / (time.process_time() - t0)
        depths, nps = _depths(geo, ev, None, variant, args)
        print(f"{args.board}{' anti' if args.anti else ''} {kind:8s}: {rate:8.0f} evaluations/s, "
              f"{nps:8.0f} nodes/s (CPU), depth at {args.time:g} s: mean {statistics.mean(depths):.2f}, "
              f"median {statistics.median(depths):g}, min {min(depths)}, max {max(depths)}", flush=True)
        native = core.native_evaluator(geo, args.anti, kind)
        if native is None:
            continue
        cuts = cuts_for(args.board, args.anti, len(geo.squares)) if kind == "learned" else None
        for label, with_cuts in ((" C", None), (" C cut", cuts)):
            if label == " C cut" and cuts is None:
                continue
            depths, nps = _depths(geo, ev, native, variant, args, with_cuts)
            print(f"{'':{len(args.board) + (5 if args.anti else 0)}} {kind + label:8s}: {'':22s}{nps:8.0f} nodes/s (CPU), "
                  f"depth at {args.time:g} s: mean {statistics.mean(depths):.2f}, "
                  f"median {statistics.median(depths):g}, min {min(depths)}, max {max(depths)}", flush=True)


def _depths(geo, ev, native, variant, args, cuts=None):
    """Completed depths of Hard's iterative deepening, and nodes per second of CPU."""
    depths, nodes, spent = [], 0, 0.0
    for P, O in positions(variant, args.positions, 2):
        s = Searcher(geo, ev, anti=args.anti, native=native, cuts=cuts)
        t0 = time.process_time()
        _, _, depth = s.iterate(P, O, deadline=clock.now() + args.time * 0.87)
        spent += time.process_time() - t0
        nodes += s.nodes
        depths.append(depth)
    return depths, nodes / spent


if __name__ == "__main__":
    main()
