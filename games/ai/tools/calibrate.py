"""Calibrate the midgame search's probability cut-off (``games/ai/probcut.py``):

    python -m games.ai.tools.calibrate --board 8x8 [--anti] --positions 600 --max-depth 10 --jobs 2

Positions from the training's self-play (random opening moves, then a softmax
over 2-ply values: ``training_data.Player``), each searched by the compiled search at
every depth from 0 (the evaluation) to ``--max-depth`` plies, without
cut-offs.  For each depth ``d`` from ``probcut.MIN_DEPTH`` and its shallow
depth ``s = probcut.shallow_depth(d)``, the deep value ``v_d`` against the
shallow one ``v_s``: their mean difference and its standard deviation are
fitted as linear functions of the empties and the depth (least squares over
buckets of 4 empties), and printed as the line for ``probcut.MODELS``.  Values
that are finished games (beyond ``search.WIN``) are left out.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from .. import core
from ..bitboard import tables_for
from ..probcut import MIN_DEPTH, shallow_depth
from ..search import WIN, Searcher
from .training_data import Player, _start, play

BUCKET = 4  # empties per bucket of the fit


def sample(board: str, anti: bool, count: int, seed: int) -> list[tuple[int, int, int]]:
    """``count`` self-play positions (P, O, empties), a few from each game,
    from the opening to 12 empties."""
    rng = random.Random(seed)
    player = Player(board, anti, 150.0, fast=True)
    out = []
    while len(out) < count:
        P, O = _start(board, anti)
        records, _ = play(player, rng, P, O, rng.randint(0, 10), -1)
        chosen = [r for r in records if r[2] >= 12 and player.geo.moves(r[0], r[1])]
        for P, O, e, _, _ in rng.sample(chosen, min(4, len(chosen))):
            out.append((P, O, e))
    return out[:count]


def values_by_depth(job) -> list[tuple[int, list[int]]]:
    """Each position's values at depths 0 .. max_depth (one table per position,
    deepened as Hard does)."""
    board, anti, positions, max_depth = job
    geo = tables_for(board)
    native = core.native_evaluator(geo, anti)
    from ..levels import evaluator

    out = []
    for P, O, e in positions:
        searcher = Searcher(geo, evaluator(geo, anti), anti=anti, native=native)
        values = [native.evaluate(P, O)]
        best = -1
        for d in range(1, min(max_depth, e) + 1):
            value, best = searcher.root(P, O, d, first_move=best)
            values.append(value)
        out.append((e, values))
    return out


def least_squares(rows: list[tuple[float, float, float, float]]) -> tuple[float, float, float]:
    """(c0, c1, c2) minimising sum w * (c0 + c1 * x1 + c2 * x2 - y)**2 over rows (x1, x2, y, w)."""
    m = [[0.0] * 4 for _ in range(3)]
    for x1, x2, y, w in rows:
        x = (1.0, x1, x2)
        for i in range(3):
            for j in range(3):
                m[i][j] += w * x[i] * x[j]
            m[i][3] += w * x[i] * y
    for i in range(3):  # Gauss-Jordan with partial pivoting
        p = max(range(i, 3), key=lambda r: abs(m[r][i]))
        m[i], m[p] = m[p], m[i]
        for r in range(3):
            if r != i:
                f = m[r][i] / m[i][i]
                m[r] = [a - f * b for a, b in zip(m[r], m[i])]
    return tuple(m[i][3] / m[i][i] for i in range(3))


def fit(results: list[tuple[int, list[int]]], max_depth: int):
    """Per (depth, bucket of empties) the differences v_d - v_s; the mean and
    the standard deviation fitted over (empties, depth)."""
    cells: dict[tuple[int, int], list[int]] = {}
    for e, values in results:
        for d in range(MIN_DEPTH, min(max_depth, len(values) - 1) + 1):
            deep, shallow = values[d], values[shallow_depth(d)]
            if abs(deep) < WIN // 2 and abs(shallow) < WIN // 2:
                cells.setdefault((d, e // BUCKET * BUCKET), []).append(deep - shallow)
    mean_rows, sd_rows = [], []
    for (d, e0), diffs in sorted(cells.items()):
        if len(diffs) < 8:
            continue
        e = e0 + (BUCKET - 1) / 2
        mean_rows.append((e, d, statistics.fmean(diffs), len(diffs)))
        sd_rows.append((e, d, statistics.pstdev(diffs), len(diffs)))
    return cells, least_squares(mean_rows), least_squares(sd_rows)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--board", default="8x8", choices=("6x6", "8x8", "10x10", "octagon"))
    p.add_argument("--anti", action="store_true")
    p.add_argument("--positions", type=int, default=600)
    p.add_argument("--max-depth", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args(argv)
    if not core.available():
        raise SystemExit("calibrating needs the compiled core (games/ai/_core.c): pip install -e . builds it")
    t0 = time.monotonic()
    positions = sample(args.board, args.anti, args.positions, args.seed)
    jobs = [(args.board, args.anti, positions[k::20], args.max_depth) for k in range(20)]
    results = []

    def collect(part):
        results.extend(part)
        print(f"{len(results)} of {len(positions)} positions searched, {time.monotonic() - t0:.0f} s", flush=True)

    if args.jobs > 1:
        from multiprocessing import get_context

        with get_context("spawn").Pool(args.jobs) as pool:
            for part in pool.imap_unordered(values_by_depth, jobs):
                collect(part)
    else:
        for job in jobs:
            collect(values_by_depth(job))
    cells, mean, sd = fit(results, args.max_depth)
    print(f"{len(results)} positions, depths 0-{args.max_depth}, {time.monotonic() - t0:.0f} s")
    print("depth shallow empties: n mean sd (fitted mean sd), centi-discs")
    for (d, e0), diffs in sorted(cells.items()):
        e = e0 + (BUCKET - 1) / 2
        print(f"{d:3d} {shallow_depth(d):3d} {e0:3d}-{e0 + BUCKET - 1:<3d}: {len(diffs):4d} "
              f"{statistics.fmean(diffs):7.1f} {statistics.pstdev(diffs):6.1f} "
              f"({mean[0] + mean[1] * e + mean[2] * d:7.1f} {sd[0] + sd[1] * e + sd[2] * d:6.1f})")
    key = f'("{args.board}", {args.anti})'
    print(f"    {key}: (({mean[0]:.1f}, {mean[1]:.3f}, {mean[2]:.2f}), ({sd[0]:.1f}, {sd[1]:.3f}, {sd[2]:.2f})),")


if __name__ == "__main__":
    main()
