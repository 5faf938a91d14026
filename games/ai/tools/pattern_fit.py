"""The ``fit`` step of ``python -m games.ai.tools.train``: the learned pattern
evaluation's weights, one set per stage of empties, by ridge regression on the
self-play data (:mod:`games.ai.tools.training_data`); the step is described in
train.py.  Needs numpy and scipy (``pip install -e ".[train]"``), imported only
when the step runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .. import core
from ..bitboard import tables_for
from ..evaluation import make_evaluator
from ..learned import evaluator_from, weights_path
from ..search import Searcher, to_stones
from .training_data import data_dir, read_positions


def stages_for(squares: int, width: int) -> list[tuple[int, int]]:
    return [(lo, min(lo + width - 1, squares)) for lo in range(0, squares + 1, width)]


def _label_chunk(task) -> list[float]:
    board, anti, depth, stages, positions = task
    geo = tables_for(board)
    # in C when the core is built: the same values (tests/ai/test_train.py)
    native = core.native_evaluator_from(geo, anti, stages) if core.available() else None
    searcher = Searcher(geo, evaluator_from(geo.lib, stages, anti), anti=anti, native=native)
    out = []
    for P, O in positions:
        searcher.tt.clear()
        out.append(to_stones(searcher.root(P, O, depth)[0]))
    return out


def _search_labels(args, stages, positions) -> list[float]:
    """The value of a ``--bootstrap``-ply search of each position, in discs."""
    per = 500
    tasks = [(args.board, args.anti, args.bootstrap, stages, positions[k:k + per])
             for k in range(0, len(positions), per)]
    if args.jobs <= 1:
        return [v for t in tasks for v in _label_chunk(t)]
    from multiprocessing import get_context

    with get_context("spawn").Pool(args.jobs) as pool:
        return [v for part in pool.map(_label_chunk, tasks) for v in part]


def cmd_fit(args) -> None:
    d = data_dir(args)
    files = sorted(d.glob("selfplay-*.txt"))
    if not files:
        sys.exit(f"no self-play data in {d}; run the selfplay step first")
    try:
        import numpy as np
        from scipy.sparse import csr_matrix
        from scipy.sparse.linalg import lsqr
    except ImportError:
        sys.exit('the fit needs numpy and scipy: pip install -e ".[train]"')
    from array import array

    from ..learned import Weights, write_weights
    from ..patterns import pattern_set

    geo = tables_for(args.board)
    ps = pattern_set(geo.lib)
    valid_files = files[::10] if len(files) >= 10 else []
    train = read_positions([f for f in files if f not in valid_files])
    valid = read_positions(valid_files)
    print(f"{len(train)} training positions, {len(valid)} validation positions", flush=True)
    canon = ps.canonical_maps()
    F = ps.features
    canon_flat = np.zeros(F + 2, dtype=np.int64)
    for (_, size, off), cmap in zip(ps.classes, canon):
        canon_flat[off:off + 3 ** size] = off + np.asarray(cmap)
    canon_flat[F] = F
    canon_flat[F + 1] = F + 1
    n_inst = len(ps.instances)
    hand = make_evaluator(geo, args.anti)

    def design(rows):
        # filled in blocks into int32 columns: millions of positions as one list
        # of Python index tuples would take several times the matrix's memory
        width = n_inst + 1 + (1 if args.hand else 0)
        idx = np.empty((len(rows), width), dtype=np.int32)
        data = np.ones((len(rows), width))
        idx[:, n_inst] = F
        if args.hand:
            idx[:, n_inst + 1] = F + 1
        block = 100_000
        for k in range(0, len(rows), block):
            part = rows[k:k + block]
            found = np.array([ps.evaluate_indices(P, O) for P, O, *_ in part], dtype=np.int64)
            idx[k:k + len(part), :n_inst] = canon_flat[found.reshape(-1, n_inst)]
            if args.hand:
                # the hand-made evaluation in discs, one dense column
                data[k:k + len(part), n_inst + 1] = [hand(P, O) / 100 for P, O, *_ in part]
        indptr = np.arange(0, idx.size + 1, width, dtype=np.int32 if idx.size < 2**31 else np.int64)
        X = csr_matrix((data.ravel(), idx.ravel(), indptr), shape=(len(rows), F + 2))
        y = np.array([r[3] for r in rows], dtype=float)
        return X, y

    empties_train = np.array([r[2] for r in train])
    empties_valid = np.array([r[2] for r in valid]) if valid else np.zeros(0, dtype=int)
    exact_train = np.array([r[4] for r in train], dtype=bool)
    exact_valid = np.array([r[4] for r in valid], dtype=bool)
    Xt, yt = design(train)
    Xv, yv = design(valid) if valid else (None, None)
    stages = []
    squares = geo.lib.playable_count
    damps = [float(x) for x in args.damp.split(",")]
    previous = None
    for lo, hi in stages_for(squares, args.stage_width):
        sel = (empties_train >= lo - 1) & (empties_train <= hi + 1)
        vsel = (empties_valid >= lo) & (empties_valid <= hi)
        if sel.sum() < 50:
            print(f"stage {lo:2d}-{hi:2d}: too few positions, the weights of the stage before", flush=True)
            stages.append((lo, hi, stages[-1][2]))
            continue
        if args.bootstrap and stages:
            # labels from a short search into the stages fitted already (the stage
            # being fitted borrows the weights of the one before)
            cover = stages + [(lo, squares, stages[-1][2])]
            for y, rows, want in ((yt, train, sel & ~exact_train), (yv, valid, vsel & ~exact_valid)):
                pick = np.flatnonzero(want)
                if y is None or not len(pick):
                    continue
                y[pick] = _search_labels(args, cover, [rows[k][:2] for k in pick])
        best = None
        # damped toward the stage before (its weights the starting point, only the
        # difference paid for): a pattern seen rarely in this stage keeps its neighbour's
        # value instead of falling to 0
        start = previous if args.toward_previous and previous is not None else np.zeros(F + 2)
        residual = yt[sel] - Xt[sel] @ start
        for damp in damps:
            sol = start + lsqr(Xt[sel], residual, damp=damp, atol=1e-6, btol=1e-6, iter_lim=2000)[0]
            err = (float(np.abs(Xv[vsel] @ sol - yv[vsel]).mean())
                   if Xv is not None and vsel.sum() else 0.0)
            if best is None or err < best[0]:
                best = (err, damp, sol)
            if Xv is None or not vsel.sum():
                break
        err, damp, w = best
        previous = w
        print(f"stage {lo:2d}-{hi:2d}: {int(sel.sum())} positions, damping {damp:g}, "
              f"validation MAE {err:.2f} discs", flush=True)
        full = np.clip(np.rint(w[canon_flat] * 100), -32000, 32000)
        # the hand-made evaluation is in centi-discs already: its weight is kept in 1/1000
        full[F + 1] = np.clip(np.rint(w[F + 1] * 1000), -32000, 32000)
        full = full.astype(np.int16)
        stages.append((lo, hi, array("h", full.tobytes())))
    path = Path(args.out) if args.out else weights_path(args.board, args.anti)
    write_weights(path, Weights(args.board, args.anti, squares, stages))
    print(f"wrote {path} ({path.stat().st_size} bytes)")
