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
import random
import sys
import time
from pathlib import Path

from ..bitboard import tables_for
from ..endgame import EndgameSolver
from ..evaluation import make_evaluator
from ..learned import evaluator_from, weights_path
from .pattern_fit import cmd_fit
from .training_data import data_dir, held_out_positions, read_positions, selfplay_chunk, testset_chunk


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


def _player(args) -> tuple[str, int]:
    """The self-play player's evaluation and search depth."""
    if args.player == "learned":
        return "learned", args.player_depth or 4
    return "handmade", args.player_depth or 2


def cmd_selfplay(args) -> None:
    d = data_dir(args)
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
    d = data_dir(args)
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


def cmd_report(args) -> None:
    from ..learned import read_weights

    geo = tables_for(args.board)
    d = data_dir(args)
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
    d = data_dir(args)
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
    commands = {"selfplay": cmd_selfplay, "testset": cmd_testset, "fit": cmd_fit, "report": cmd_report,
                "perfect": cmd_perfect}
    steps = ("selfplay", "testset", "fit", "report") if args.step == "all" else (args.step,)
    for step in steps:
        commands[step](args)


if __name__ == "__main__":
    main()
