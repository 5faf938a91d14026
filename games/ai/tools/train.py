"""Fit the learned pattern evaluation from self-play: ``python -m games.ai.tools.train``.

    python -m games.ai.tools.train --board 8x8 [--anti] all      # every step below, resumable
    python -m games.ai.tools.train --board 8x8 selfplay --games 4000 --minutes 50 --jobs 2
    python -m games.ai.tools.train --board 8x8 testset --count 200
    python -m games.ai.tools.train --board 8x8 fit            # writes games/ai/weights/8x8.bin
    python -m games.ai.tools.train --board 8x8 report         # held-out accuracy per empties
    python -m games.ai.tools.train --board 6x6 perfect        # Hard's moves from 16 empties, checked

Steps (files under ``--data``, default ``var/ai-train/<board>[-anti]/``):

* **selfplay**: games of our own engine in chunks of ``--chunk`` games, chunk
  ``k`` seeded with ``k`` (reproducible; an existing chunk file is kept, so a
  stopped run resumes where it was; ``--minutes`` stops starting new chunks
  after that long, so each call is a step of at most an hour).  A game starts
  with 0-``--random-plies`` uniformly random moves, then each move is drawn
  from a softmax over the moves' values (a 2-ply search with the hand-made
  evaluation, temperature ``--temperature`` centi-discs; ``--player learned``:
  a 4-ply search, ``--player-depth``, with the shipped learned evaluation,
  whose games are nearer to those Hard plays, and change when the weights do).  Every position
  from ``--exact`` empties down is labelled with its exact final margin by the
  endgame solver; the earlier positions of the game get the exact margin of
  the game's first solved position (the result under perfect play from there:
  the noise left is that of the moves played before it, reported by
  ``report``).  ``--fast`` plays and solves on the compiled core: the same
  games and labels, the solves of a game sharing one table.
* **testset**: separate seeds (from 10**6 on), games stopped at 16, 20 (and
  ``--test-empties``) empties, each position solved exactly; the same games
  are also played on to the ``--exact`` horizon to give the label the
  training would have given, measuring the labels' noise.  ``--fast`` labels
  them with the compiled core's solver (``games.ai.core``; built by ``pip install
  -e .``): the same positions and scores, many times faster (benchmarks/README.md,
  "The engine: perft, search and the exact solver").  Each
  solved position is kept at once, so a stopped run (``--minutes``, a kill)
  goes on at the next call with the same positions, and ``report`` already
  counts the solved positions of an unfinished chunk.
* **fit** (needs numpy and scipy: ``pip install -e ".[train]"``): one weight
  set per stage of ``--stage-width`` empties, ridge regression (scipy's lsqr,
  damping chosen on a tenth of the chunks held back) on the positions of the
  stage and one empty either side; mirror-image configurations share one
  weight.  Writes ``games/ai/weights/<board>[-anti].bin`` (see learned.py).
* **report**: mean absolute error in discs on the test set, per number of
  empties, of the learned evaluation, of the hand-made one scaled to discs
  (least squares per stage on the training data, or on the test set when there
  is none) and of the training labels.
* **perfect** (a check, not part of ``all``): Hard plays both sides from the
  test positions at ``--perfect-empties`` (16) to the end, each move checked
  against the exact solver; prints how many keep the exact value and Hard's
  time per move (``--time``, ``--cpu-clock``).

The runtime (``games.ai`` itself) needs none of numpy or scipy.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from pathlib import Path

from games import Board, Variant

from .. import core
from ..bitboard import tables_for
from ..endgame import EndgameSolver
from ..evaluation import make_evaluator
from ..learned import evaluator_from, learned_evaluator, weights_path
from ..search import Searcher, to_stones

TEST_SEED = 10**6


def _variant(board: str, anti: bool) -> Variant:
    return Variant(board=board, anti=anti)


def _start(board: str, anti: bool) -> tuple[int, int]:
    b = Board(_variant(board, anti))
    return b.bits[b.turn_index], b.bits[1 - b.turn_index]


class Player:
    """Self-play: random opening moves, then a softmax over the moves' values:
    a 2-ply search with the hand-made evaluation (``evaluation="handmade"``),
    or a ``depth``-ply one with the shipped learned evaluation (``"learned"``:
    games nearer to Hard's own)."""

    def __init__(self, board: str, anti: bool, temperature: float, depth: int = 2, fast: bool = False,
                 evaluation: str = "handmade"):
        self.geo = tables_for(board)
        self.anti = anti
        if evaluation == "learned":
            evaluate = learned_evaluator(self.geo.lib, anti)
            if evaluate is None:
                raise SystemExit(f"--player learned: no weights are shipped for {board}{' Anti' if anti else ''}")
        else:
            evaluate = make_evaluator(self.geo, anti)
        # the compiled twin gives the same values (tests/ai/test_core.py), so the same games
        native = _core(fast).native_evaluator(self.geo, anti, evaluation) if fast else None
        self.searcher = Searcher(self.geo, evaluate, anti=anti, native=native)
        self.temperature = temperature
        self.depth = depth

    def move(self, P: int, O: int, rng: random.Random, random_move: bool) -> int:
        mv = self.geo.moves(P, O)
        squares = []
        while mv:
            b = mv & -mv
            mv ^= b
            squares.append(b.bit_length() - 1)
        if random_move or len(squares) == 1:
            return rng.choice(squares)
        self.searcher.tt.clear()
        values = self.searcher.move_values(P, O, self.depth)
        top = values[0][1]
        weights = [math.exp(max(-50.0, (v - top) / self.temperature)) for _, v in values]
        return rng.choices([sq for sq, _ in values], weights)[0]


def play(player: Player, rng: random.Random, P: int, O: int, random_plies: int, exact: int,
         stop_at: int = -1, solver: EndgameSolver | None = None):
    """Play from (P, O) (mover first); returns the list of [P, O, empties, colour,
    exact value or None] records and the first exact value as (colour, value),
    or None when the game ended before ``exact`` empties.  Stops at ``stop_at``
    empties when given (records up to there)."""
    geo = player.geo
    moves, flips, playable = geo.moves, geo.flips, geo.playable
    records = []
    colour = 0
    first_exact = None
    ply = 0
    while True:
        mv = moves(P, O)
        if not mv:
            if not moves(O, P):
                break
            P, O, colour = O, P, 1 - colour
            continue
        e = (playable & ~(P | O)).bit_count()
        if e == stop_at:
            records.append([P, O, e, colour, None])
            break
        value = None
        if e <= exact and solver is not None:
            # the last position's value, seen by this mover, is the first guess;
            # the solver's table is kept through the game (exact bounds stay true)
            guess = 0 if first_exact is None else (last if colour == last_colour else -last)
            value = solver.solve_exact(P, O, guess)[0]
            last, last_colour = value, colour
            if first_exact is None:
                first_exact = (colour, value)
        if stop_at < 0:
            records.append([P, O, e, colour, value])
        sq = player.move(P, O, rng, ply < random_plies)
        b = 1 << sq
        f = flips(b, P, O)
        P, O, colour = O ^ f, P | f | b, 1 - colour
        ply += 1
    return records, first_exact


def selfplay_chunk(args) -> str:
    board, anti, chunk, games, random_plies, exact, temperature, fast, (evaluation, depth), out = args
    rng = random.Random(chunk * 7919 + (1 if anti else 0))
    player = Player(board, anti, temperature, depth, fast=fast, evaluation=evaluation)
    lines = []
    for _ in range(games):
        P, O = _start(board, anti)
        solver = exact_solver(player.geo, anti, fast)
        records, first = play(player, rng, P, O, rng.randint(0, random_plies), exact, solver=solver)
        if first is None:
            continue
        fc, fv = first
        for P, O, e, colour, value in records:
            label = value if value is not None else (fv if colour == fc else -fv)
            lines.append(f"{P:x} {O:x} {e} {label} {1 if value is not None else 0}\n")
    _write(out, "".join(lines))
    return str(out)


def _core(fast: bool):
    """``games.ai.core``, checked to be built when ``--fast`` asks for it."""
    if fast and not core.available():
        raise SystemExit("--fast needs the compiled core (games/ai/_core.c): pip install -e . builds it")
    return core


def exact_solver(geo, anti: bool, fast: bool):
    """A fresh exact solver: the compiled core's when ``fast``; both give
    ``value(P, O)``, the same exact scores."""
    if fast:
        return _core(fast).CoreSolver(geo, anti=anti)
    return EndgameSolver(geo, anti=anti)


def testset_chunk(args) -> str:
    """Play and solve one chunk of test positions.  Each solved position is kept
    at once in ``<chunk>.part`` with the random generator's state, so a chunk
    stopped (``--minutes``, a kill) goes on where it was and gives the same
    positions as an unbroken run: at 24 empties one octagon position took the
    C solver over two hours."""
    board, anti, chunk, count, empties_list, random_plies, exact, temperature, fast, (evaluation, depth), out, \
        deadline = args
    rng = random.Random(TEST_SEED + chunk * 7919 + (1 if anti else 0))
    player = Player(board, anti, temperature, depth, fast=fast, evaluation=evaluation)
    part = out.with_suffix(".part")
    lines = []
    if part.exists():
        saved = json.loads(part.read_text())
        lines = saved["lines"]
        version, state, gauss = saved["rng"]
        rng.setstate((version, tuple(state), gauss))
    while len(lines) < count:
        target = empties_list[len(lines) % len(empties_list)]
        P, O = _start(board, anti)
        records, _ = play(player, rng, P, O, rng.randint(0, random_plies), exact, stop_at=target)
        if not records or records[-1][2] != target:
            continue
        P, O, e, _, _ = records[-1]
        value = exact_solver(player.geo, anti, fast).value(P, O)
        # the label the training would give: played on, solved at the horizon
        rest, first = play(player, rng, P, O, 0, exact, solver=exact_solver(player.geo, anti, fast))
        label = value if first is None else (first[1] if first[0] == 0 else -first[1])
        lines.append(f"{P:x} {O:x} {e} {value} {label}\n")
        if len(lines) < count:
            _write(part, json.dumps({"lines": lines, "rng": rng.getstate()}))
            if deadline is not None and time.time() > deadline:
                return f"{part}: {len(lines)} of {count} positions; run again to go on"
    _write(out, "".join(lines))
    part.unlink(missing_ok=True)
    return str(out)


def _write(path: Path, text: str) -> None:
    """Replace ``path`` whole or not at all (a kill leaves the old file)."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _run(tasks, fn, jobs: int, minutes: float | None) -> None:
    """Run the chunks, ``jobs`` at a time; after ``minutes`` start no new one
    (but every call starts at least ``jobs``, so each call makes progress)."""
    start = time.monotonic()

    def time_is_up(started: int) -> bool:
        return (minutes is not None and started >= max(jobs, 1)
                and time.monotonic() - start > minutes * 60)

    if jobs <= 1:
        for started, t in enumerate(tasks):
            if time_is_up(started):
                print("time is up; run again to go on", flush=True)
                return
            print(fn(t), flush=True)
        return
    from multiprocessing import get_context

    with get_context("spawn").Pool(jobs) as pool:
        pending = list(tasks)
        running = []
        started = 0
        while pending or running:
            while pending and len(running) < jobs and not time_is_up(started):
                running.append(pool.apply_async(fn, (pending.pop(0),)))
                started += 1
            if not running:
                print("time is up; run again to go on", flush=True)
                return
            running[0].wait()
            print(running.pop(0).get(), flush=True)


def _position(line: str) -> tuple[int, int, int, int, int]:
    a, b, e, v, x = line.split()
    return int(a, 16), int(b, 16), int(e), int(v), int(x)


def read_positions(paths):
    return [_position(line) for p in paths for line in Path(p).read_text().splitlines()]


def held_out_positions(d: Path):
    """The test set in ``d``: the finished chunks, then the positions already
    solved in unfinished ones (each exact all the same)."""
    started = [line for p in sorted(d.glob("test-*.part")) for line in json.loads(p.read_text())["lines"]]
    return read_positions(sorted(d.glob("test-*.txt"))) + [_position(line) for line in started]


def _data_dir(args) -> Path:
    return Path(args.data) / f"{args.board}{'-anti' if args.anti else ''}"


def _player(args) -> tuple[str, int]:
    """The self-play player's evaluation and search depth."""
    if args.player == "learned":
        return "learned", args.player_depth or 4
    return "handmade", args.player_depth or 2


def cmd_selfplay(args) -> None:
    d = _data_dir(args)
    d.mkdir(parents=True, exist_ok=True)
    chunks = (args.games + args.chunk - 1) // args.chunk
    tasks = []
    for k in range(chunks):
        out = d / f"selfplay-{k:05d}.txt"
        if not out.exists():
            tasks.append((args.board, args.anti, k, args.chunk, args.random_plies, args.exact,
                          args.temperature, args.fast, _player(args), out))
    print(f"{chunks - len(tasks)} of {chunks} chunks done, {len(tasks)} to play", flush=True)
    _run(tasks, selfplay_chunk, args.jobs, args.minutes)


def cmd_testset(args) -> None:
    d = _data_dir(args)
    d.mkdir(parents=True, exist_ok=True)
    empties = [int(x) for x in args.test_empties.split(",")]
    per = 10
    deadline = None if args.minutes is None else time.time() + args.minutes * 60
    tasks = []
    for k in range((args.count + per - 1) // per):
        out = d / f"test-{k:04d}.txt"
        if not out.exists():
            tasks.append((args.board, args.anti, k, per, empties, args.random_plies, args.exact,
                          args.temperature, args.fast, _player(args), out, deadline))
    _run(tasks, testset_chunk, args.jobs, args.minutes)


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
    d = _data_dir(args)
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


def cmd_report(args) -> None:
    from ..learned import read_weights

    geo = tables_for(args.board)
    d = _data_dir(args)
    test = held_out_positions(d)
    if not test:
        sys.exit(f"no test set in {d}; run the testset step first")
    path = Path(args.out) if args.out else weights_path(args.board, args.anti)
    learned = evaluator_from(geo.lib, read_weights(path).stages, args.anti) if path.exists() else None
    hand = make_evaluator(geo, args.anti)
    # scale the hand-made evaluation to discs: least squares per number of empties,
    # on the training data, or without it on the test set itself (the best scale
    # there is, so a comparison that favours the hand-made evaluation)
    train = read_positions(sorted(d.glob("selfplay-*.txt"))[:40])
    scaled_on = "the training data" if train else "the test set itself (no training data here)"
    scale = {}
    for e in sorted({r[2] for r in test}):
        rows = [r for r in (train or test) if abs(r[2] - e) <= 1]
        hv = [hand(P, O) for P, O, *_ in rows]
        num = sum(h * r[3] for h, r in zip(hv, rows))
        den = sum(h * h for h in hv) or 1
        scale[e] = num / den
    unfinished = len(list(d.glob("test-*.part")))
    print(f"{args.board}{' anti' if args.anti else ''}: mean absolute error in discs against the exact "
          f"score, {len(test)} held-out positions; the hand-made evaluation scaled on {scaled_on}")
    if unfinished:
        print(f"({unfinished} chunk(s) not finished: their positions solved so far are counted)")
    print("empties  n   learned  hand-made(scaled)  training-label")
    for e in sorted({r[2] for r in test}):
        rows = [r for r in test if r[2] == e]
        le = (sum(abs(learned(P, O) / 100 - v) for P, O, _, v, _ in rows) / len(rows)
              if learned else float("nan"))
        he = sum(abs(hand(P, O) * scale[e] - v) for P, O, _, v, _ in rows) / len(rows)
        ne = sum(abs(lab - v) for _, _, _, v, lab in rows) / len(rows)
        print(f"{e:7d} {len(rows):3d} {le:9.2f} {he:18.2f} {ne:15.2f}")


def cmd_perfect(args) -> None:
    """Hard (with the evaluation the site uses) plays both sides from every
    test position at ``--perfect-empties`` to the end; each of its moves is
    checked against the exact solver (a move is perfect when it keeps the
    position's exact value)."""
    import statistics

    from .. import OVERHEAD, clock
    from ..levels import BUDGET_SHARE, HARD_DEFAULT_TIME, choose_hard

    geo = tables_for(args.board)
    d = _data_dir(args)
    test = [r for r in held_out_positions(d) if r[2] == args.perfect_empties]
    if not test:
        sys.exit(f"no test positions at {args.perfect_empties} empties in {d}; run the testset step "
                 f"with --test-empties including it")
    limit = args.time or HARD_DEFAULT_TIME
    was_cpu = clock.cpu_clock()
    clock.use_cpu_clock(args.cpu_clock)
    try:
        result = _play_out_checked(geo, args.anti, test, limit, choose_hard, BUDGET_SHARE, OVERHEAD)
    finally:
        clock.use_cpu_clock(was_cpu)
    moves, first_ok, lost_moves, lost_discs, first_times, times = result
    print(f"{args.board}{' anti' if args.anti else ''}: Hard at {limit:g} s "
          f"({'CPU' if args.cpu_clock else 'wall'} clock) from {len(test)} positions at "
          f"{args.perfect_empties} empties, played out by Hard on both sides")
    print(f"  first move exact in {first_ok} of {len(test)}; time of the first move "
          f"median {statistics.median(first_times):.3f} s, max {max(first_times):.3f} s")
    print(f"  all {moves} moves: {moves - lost_moves} keep the exact value, {lost_moves} lose "
          f"{lost_discs} discs in all; time per move max {max(times):.3f} s")


def _play_out_checked(geo, anti, test, limit, choose_hard, share, overhead):
    from .. import clock

    moves = first_ok = lost_moves = lost_discs = 0
    first_times, times = [], []
    for k, (P, O, e, value, _) in enumerate(test):
        rng = random.Random(k)
        solver = EndgameSolver(geo, anti=anti)
        first = True
        while True:
            mv = geo.moves(P, O)
            if not mv:
                if not geo.moves(O, P):
                    break
                P, O = O, P
                continue
            exact = solver.value(P, O)
            start = clock.now()
            deadline = start + max(0.0, limit * share - overhead)
            sq = choose_hard(geo, P, O, anti, rng, deadline)
            took = clock.now() - start
            b = 1 << sq
            f = geo.flips(b, P, O)
            P, O = O ^ f, P | f | b
            got = -solver.value(P, O)
            moves += 1
            times.append(took)
            if first:
                first_times.append(took)
                first_ok += got == exact
                first = False
            if got != exact:
                lost_moves += 1
                lost_discs += exact - got
    return moves, first_ok, lost_moves, lost_discs, first_times, times


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="python -m games.ai.tools.train", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("step", choices=("all", "selfplay", "testset", "fit", "report", "perfect"))
    p.add_argument("--board", default="8x8", choices=("6x6", "8x8", "10x10", "octagon"))
    p.add_argument("--anti", action="store_true")
    p.add_argument("--data", default="var/ai-train")
    p.add_argument("--games", type=int, default=4000, help="self-play games in all")
    p.add_argument("--chunk", type=int, default=25, help="games per chunk file")
    p.add_argument("--count", type=int, default=200, help="test positions")
    p.add_argument("--test-empties", default="16,20")
    p.add_argument("--fast", action="store_true",
                   help="selfplay and testset: play and label on the compiled core (games/ai/_core.c): "
                        "the same games and scores, many times faster")
    p.add_argument("--random-plies", type=int, default=10)
    p.add_argument("--exact", type=int, default=14, help="solve exactly from this many empties")
    p.add_argument("--temperature", type=float, default=150.0, help="softmax temperature, centi-discs")
    p.add_argument("--player", default="handmade", choices=("handmade", "learned"),
                   help="selfplay and testset: the moves' values by the hand-made evaluation (2 plies) "
                        "or by the shipped learned one (4 plies: stronger games, nearer to Hard's)")
    p.add_argument("--player-depth", type=int, default=None, help="the player's search depth")
    p.add_argument("--stage-width", type=int, default=4)
    p.add_argument("--damp", default="2,8", help="ridge damping values to try")
    p.add_argument("--bootstrap", type=int, default=0, metavar="PLIES",
                   help="label the positions before the exact horizon by a search of this depth into "
                        "the stages fitted already, instead of by the game")
    p.add_argument("--toward-previous", action="store_true",
                   help="fit: damp each stage's weights toward the stage before instead of toward 0")
    p.add_argument("--hand", action="store_true",
                   help="fit the hand-made evaluation as one more feature (the patterns then correct it)")
    p.add_argument("--out", default=None, help="weights file (default: the shipped one in games/ai/weights/)")
    p.add_argument("--perfect-empties", type=int, default=16,
                   help="perfect: the test positions Hard plays out from")
    p.add_argument("--time", type=float, default=None, help="perfect: Hard's time per move (default 2)")
    p.add_argument("--cpu-clock", action="store_true", help="perfect: time Hard in process CPU time")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--minutes", type=float, default=None,
                   help="start no new chunk after this long; a test-set chunk also stops after the "
                        "position it is solving (and goes on at the next call)")
    args = p.parse_args(argv)
    steps = ("selfplay", "testset", "fit", "report") if args.step == "all" else (args.step,)
    for step in steps:
        globals()[f"cmd_{step}"](args)


if __name__ == "__main__":
    main()
