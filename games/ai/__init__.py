"""Computer players for every variant (standard library only, no Django).

    from games.ai import choose_move, analyse
    choose_move(board, "hard", time_limit=2.0, seed=None) -> "d3" | "pass"
    analyse(board, time_limit=1.0) -> [("d3", 1.5), ("c4", 0.25), ...]

Modules:

* ``bitboard``   -- search tables built on ``games.rules.geometry`` primitives
* ``evaluation`` -- the hand-made two-player evaluations (normal and anti), per geometry
* ``patterns``   -- pattern features (lines, corner regions) read from the bitboards
* ``learned``    -- the learned pattern evaluation and its shipped weights (``weights/``)
* ``search``     -- PVS, iterative deepening, transposition table
* ``endgame``    -- exact two-player endgame solver
* ``multiplayer``-- 3 and 4 players: paranoid search (Normal), opponent-model search (Hard)
* ``levels``     -- what Easy, Normal and Hard do (two players)
* ``core``       -- the compiled core (``_core.c``: moves, flips, perft, exact solver, the
  evaluations and the midgame search on them) when built, else the pure-Python engine;
  ``engine_name()`` says which runs
* ``tools``      -- offline tools the site never imports: the ``play`` and ``solve``
  command line, the match runner, the training of the learned weights
  (``python -m games.ai.tools.train``) and of the 3-4 player weights

Determinism: with a ``seed``, Easy and Normal are fully deterministic (the same
board, level and seed give the same move; Normal ignores the seed): their fixed
depth takes milliseconds on the compiled core, far inside any time limit, once the
learned weights are loaded (``load_shipped_weights``, before the first move).  Hard is
deterministic for a seed as long as it finishes the same search depths, i.e.
not under time pressure; with a time limit its depth depends on the machine.

Time: ``time_limit`` (seconds) is a promise: the move comes within it plus a
small margin.  Hard uses 2 s when no limit is given; Easy and Normal are
depth-limited and quick (benchmarks/README.md, "The computer's answer time"), but a
given time limit caps them too.
"""

from __future__ import annotations

import logging
import os
import random
from . import clock, learned
from .bitboard import Tables, tables, tables_for
from .core import available as core_available
from .core import engine_name, make_solver, native_evaluator
from .endgame import Timeout
from .levels import BUDGET_SHARE, CHOOSERS, EVALUATIONS, HARD_DEFAULT_TIME, LEVELS, evaluator
from .search import Searcher, to_stones

__all__ = ["choose_move", "analyse", "engine_name", "load_shipped_weights", "LEVELS", "HARD_DEFAULT_TIME"]

log = logging.getLogger(__name__)
_announced = False

# the analysis searches with the evaluation Hard plays with: against exact values,
# a move's loss is 5.1 stones off on it against 8.0 on the hand-made one, and the
# review's mistake threshold marks as precisely and finds more true mistakes
# (benchmarks/README.md, "The review's analysis")
ANALYSIS_EVALUATION = "learned"
# the pure-Python engine's analysis: Normal's depths, the exact solver from 14
# empties for this many nodes, a fraction of a second (its nodes per second:
# benchmarks/README.md, "The engine: perft, search and the exact solver"), then
# the search instead
ANALYSIS_SOLVER_NODES = 50_000
ANALYSIS_EXACT = 14
# the compiled core's analysis: deeper, in C, and the compiled solver from more
# empties (benchmarks/README.md, "The review's analysis": a whole 8x8 game in
# about 1 s of CPU)
CORE_ANALYSIS_DEPTH = (6, 5)  # boards up to 64 squares, larger ones
CORE_ANALYSIS_SOLVER_NODES = 1_000_000
CORE_ANALYSIS_EXACT = 16

# fixed cost reserved out of every time limit (position set-up, first-call
# table building, scheduling noise on a busy worker)
OVERHEAD = 0.03


def _deadline(start: float, time_limit: float | None, level: str) -> float | None:
    if time_limit is None:
        if level != "hard":
            return None
        time_limit = HARD_DEFAULT_TIME
    return start + max(0.0, time_limit * BUDGET_SHARE - OVERHEAD)


def load_shipped_weights() -> list[str]:
    """Read the learned weights of every board and rule set shipped in ``weights/`` and
    build the evaluations Normal and Hard search with (on the compiled core too), so that
    no move pays for them: a Celery worker calls this when it starts (config.celery).
    Read inside a move, 10x10 Anti's take 0.25-0.7 s of its time, which can cut Normal's
    search short and change its move. Returns the weights this process holds
    (``learned.loaded_weights``)."""
    for board, anti in learned.shipped():
        geo = tables_for(board)
        evaluator(geo, anti)
        native_evaluator(geo, anti)
    return learned.loaded_weights()


def _in_free_opening(board) -> bool:
    g = board.geometry
    return board.variant.free_opening and bool(g.centre & ~board.occupied)


def choose_move(board, level: str, *, time_limit: float | None = None, seed=None,
                evaluation: str = "learned") -> str:
    """A legal move for the side to move of ``board`` (a ``games.Board``).

    ``level`` is ``"easy"``, ``"normal"`` or ``"hard"``.  Returns a square
    name, or ``"pass"`` when that is the only legal move.  Raises
    ``ValueError`` for an unknown level or a finished game.  ``evaluation``
    ``"handmade"`` makes Normal and Hard search with the hand-made evaluation
    even where learned weights are shipped (for matches against today's
    levels).
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    if evaluation not in EVALUATIONS:
        raise ValueError(f"evaluation must be one of {', '.join(EVALUATIONS)}, not {evaluation!r}")
    start = clock.now()
    global _announced
    if not _announced:  # once per process: which engine this worker's moves come from
        _announced = True
        log.info("computer players run on the %s", engine_name())
    legal = board.legal_moves
    if not legal:
        raise ValueError("the game is over: there is no move to choose")
    if len(legal) == 1:
        return legal[0]
    rng = random.Random(seed)
    deadline = _deadline(start, time_limit, level)
    try:
        move = _choose(board, level, rng, deadline, evaluation)
    except Exception:  # pragma: no cover - a bug must never stall a game
        if os.environ.get("GAMES_AI_STRICT"):
            raise
        log.exception("computer player failed on %r; playing a fallback move", board)
        move = None
    if move not in legal:
        if os.environ.get("GAMES_AI_STRICT"):
            raise AssertionError(f"computer chose {move!r}, not among {legal}")
        move = legal[0]
    return move


def _choose(board, level: str, rng: random.Random, deadline: float | None, evaluation: str) -> str:
    geo = tables(board.geometry)
    anti = board.variant.anti
    t = board.turn_index
    bits = board.bits
    if len(bits) > 2:
        from .multiplayer import choose

        sq = choose(geo, bits, board.neutral, t, level, anti, rng, deadline)
        return geo.name(sq)
    if _in_free_opening(board):
        values = _opening_values(board, 2 if level == "easy" else 3)
        if level == "easy":
            values = [(v + rng.gauss(0, 300), m) for m, v in values]
        else:
            values = [(v, m) for m, v in values]
        return max(values)[1]
    P, O = bits[t], bits[1 - t]
    sq = CHOOSERS[level](geo, P, O, anti, rng, deadline, evaluation)
    return geo.name(sq)


def _opening_values(board, depth: int) -> list[tuple[str, float]]:
    """Free opening (docs/rules.md §5): negamax over the remaining central placements,
    then a short search once the centre is full.  Centi-discs, mover's view."""
    geo = tables(board.geometry)
    anti = board.variant.anti
    searcher = Searcher(geo, evaluator(geo, anti), anti=anti)

    def value(b) -> float:
        if not _in_free_opening(b):
            t = b.turn_index
            P, O = b.bits[t], b.bits[1 - t]
            if not geo.moves(P, O):
                return searcher._pvs(P, O, 1, -10**9, 10**9, False)
            return searcher.root(P, O, depth)[0]
        best = -10**9
        for m in b.legal_moves:
            b.push(m)
            best = max(best, -value(b))
            b.pop()
        return best

    out = []
    b = board.copy(history=False)
    for m in b.legal_moves:
        b.push(m)
        out.append((m, -value(b)))
        b.pop()
    return out


def analyse(board, *, time_limit: float) -> list[tuple[str, float]]:
    """Every legal move with its value, best first.

    The values do not depend on how busy the machine is, so a game analysed
    twice is marked the same: the solver works within a node budget
    (``ANALYSIS_SOLVER_NODES``; ``CORE_ANALYSIS_SOLVER_NODES`` on the compiled
    core) and the search goes to a fixed depth on Hard's evaluation
    (``ANALYSIS_EVALUATION``): Normal's in pure Python, ``CORE_ANALYSIS_DEPTH``
    with the compiled core.
    ``time_limit`` only guards against a position far slower than usual (the
    solver and the search get it each); when it runs out, the search keeps its
    last finished depth.

    Values are for the side to move, in stones:

    * two players, when the solver finishes (small endgames): the exact final
      disc difference (empties to the winner, docs/rules.md §4; in ``anti`` the
      opponent's stones minus the mover's);
    * otherwise search values (iterative deepening to 4 plies, 3 on boards
      over 64 squares; ``CORE_ANALYSIS_DEPTH`` on the compiled core) in
      evaluation units scaled to about one stone (100 centi-discs); a forced
      game result shows as its exact margin;
    * three or four players: paranoid-search value to a fixed depth, the
      mover's margin over the best opponent, same scale.

    A forced pass gives ``[("pass", value)]``; a finished game ``[]``.
    """
    def guard():
        return clock.now() + max(0.01, time_limit * BUDGET_SHARE - OVERHEAD)

    legal = board.legal_moves
    if not legal:
        return []
    geo = tables(board.geometry)
    anti = board.variant.anti
    t = board.turn_index
    bits = board.bits
    if len(bits) > 2:
        return _analyse_multi(board, geo, guard())
    if _in_free_opening(board):
        vals = _opening_values(board, 2)
        return sorted(((m, round(v / 100, 2)) for m, v in vals), key=lambda x: -x[1])
    P, O = bits[t], bits[1 - t]
    evaluation = ANALYSIS_EVALUATION
    if legal == ["pass"]:
        s = Searcher(geo, evaluator(geo, anti, evaluation), anti=anti)
        v = -s._pvs(O, P, 2, -10**9, 10**9, True)
        return [("pass", round(to_stones(v), 2))]
    empties = (geo.playable & ~(P | O)).bit_count()
    big = len(geo.squares) > 64
    if core_available():
        exact_from, max_depth = CORE_ANALYSIS_EXACT - (2 if big else 0), CORE_ANALYSIS_DEPTH[big]
    else:
        exact_from, max_depth = ANALYSIS_EXACT, 3 if big else 4
    if empties <= exact_from:
        try:
            nodes = CORE_ANALYSIS_SOLVER_NODES if core_available() else ANALYSIS_SOLVER_NODES
            solver = make_solver(geo, anti=anti, deadline=guard(), max_nodes=nodes)
            exact = solver.solve_moves(P, O)
            return [(geo.name(sq), float(v)) for sq, v in exact]
        except Timeout:
            pass
    searcher = Searcher(geo, evaluator(geo, anti, evaluation), anti=anti,
                        native=native_evaluator(geo, anti, evaluation))
    result = None
    deadline = guard()
    for depth in range(1, max_depth + 1):
        searcher.deadline = deadline if depth > 1 else None
        try:
            result = searcher.move_values(P, O, depth)
        except Timeout:
            break
    searcher.deadline = None
    return [(geo.name(sq), round(to_stones(v), 2)) for sq, v in result]


def _analyse_multi(board, geo: Tables, deadline: float) -> list[tuple[str, float]]:
    from .multiplayer import MultiSearch

    bits, neutral, t = board.bits, board.neutral, board.turn_index
    ms = MultiSearch(geo, len(bits), t, anti=board.variant.anti)
    result = ms.move_values(bits, neutral, 1)
    # a full round (one move each) on boards up to 64 squares; four players on
    # larger ones would take seconds a position at 4 plies, so 3 there
    max_depth = len(bits) if len(geo.squares) <= 64 else 3
    for depth in range(2, max_depth + 1):
        ms.deadline = deadline
        try:
            result = ms.move_values(bits, neutral, depth)
        except Timeout:
            break
        finally:
            ms.deadline = None
    return [(geo.name(sq), round(to_stones(v), 2)) for sq, v in result]
