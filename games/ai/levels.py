"""What each level does (two players; multi-player levels are in multiplayer.py).

* **Easy**: a 2-ply search with the hand-made evaluation (kept weak on
  purpose; Normal and Hard search with the learned pattern evaluation where
  its weights are shipped, ``evaluator``), then every move's value
  gets Gaussian noise (sd 5 discs, ``EASY_NOISE``) and the best noisy value
  is played: small and medium mistakes are frequent and varied, giving away
  a corner is rarer (it costs more than the noise).  In the last 8 empties it
  plays the exact best move only half of the time.  Seeded: deterministic.
* **Normal**: iterative deepening PVS to a fixed depth (4 plies on boards up to
  64 squares, 3 on larger ones) with the full evaluation, and an exact
  endgame solve from 10 empties (8 on larger boards).  Depth-limited, so
  fully deterministic; a time limit, if given, still caps it.
* **Hard**: iterative deepening PVS with a transposition table under the time
  budget (2 s by default); Normal's and Hard's search runs in the compiled
  core when it is built (``core.native_evaluator``), with the same values and
  moves.  On the compiled core Hard's search is selective: probability
  cut-offs (``probcut.py``) where they are calibrated for the board's learned
  evaluation; on the pure-Python engine it searches full width, as before
  the core.  Near the end (``_solver_horizon``: how many empties depends on the
  engine, the board, the rule and the budget) it solves exactly at once; a few empties
  further out it runs a short heuristic search for a fallback move (15% of
  the budget, 5% on 6x6), then the solver: win/draw/loss first, then the
  exact score with the rest of the budget, by null-window probes from the
  heuristic value (also when the short search already proves a win: the
  solver looks for the largest); a proven win or draw is never given away.

Every function here takes and returns square *indices* of the geometry.
"""

from __future__ import annotations

import random
from functools import lru_cache

from . import clock
from .bitboard import Tables
from .core import available as core_available, make_solver, native_evaluator
from .endgame import Timeout
from .evaluation import make_evaluator
from .learned import learned_evaluator, previous_weights_dir
from .probcut import cuts_for
from .search import WIN, Searcher, to_stones

LEVELS = ("easy", "normal", "hard")
HARD_DEFAULT_TIME = 2.0
# share of the budget the move may take; the rest is margin for building the
# position, interpreter hiccups and a loaded machine
BUDGET_SHARE = 0.87
# Hard from 13 to 16 empties: share of the budget for the heuristic search
# before the solver (boards of at most 36 squares: 6x6)
PRESEARCH_SHARE = 0.15
PRESEARCH_SHARE_SMALL = 0.05
# Easy: search depth and the standard deviation of the noise (centi-discs)
EASY_DEPTH = 2
EASY_NOISE = 500


EVALUATIONS = ("learned", "handmade", "previous")


@lru_cache(maxsize=32)
def evaluator(geo: Tables, anti: bool, evaluation: str = "learned"):
    """The evaluation Normal and Hard search with: the learned pattern
    evaluation where weights are shipped for the board (``learned.py``; for
    ``"previous"`` the weights in ``previous_weights_dir()``), else (and for
    ``"handmade"``) the hand-made one (``evaluation.py``)."""
    if evaluation != "handmade":
        learned = learned_evaluator(geo.lib, anti, previous_weights_dir() if evaluation == "previous" else None)
        if learned is not None:
            return learned
    return make_evaluator(geo, anti)


def _searcher(geo: Tables, anti: bool, evaluation: str, selective: bool = False) -> Searcher:
    """Normal's and Hard's search: in the compiled core when it is built (the
    same values and moves at a fixed depth, tests/ai/test_core_search.py), else in Python.
    ``selective`` (Hard on the compiled core): with the probability cut-offs
    calibrated for the board's learned evaluation, where there are some."""
    native = native_evaluator(geo, anti, evaluation)
    cuts = None
    if selective and native is not None and evaluation != "handmade" and learned_evaluator(geo.lib, anti):
        cuts = cuts_for(geo.lib.board, anti, len(geo.squares))
    return Searcher(geo, evaluator(geo, anti, evaluation), anti=anti, native=native, cuts=cuts)


def _moves_list(geo: Tables, P: int, O: int) -> list[int]:
    mv = geo.moves(P, O)
    out = []
    while mv:
        b = mv & -mv
        mv ^= b
        out.append(b.bit_length() - 1)
    return out


def _empties(geo: Tables, P: int, O: int) -> int:
    return (geo.playable & ~(P | O)).bit_count()


def _solved_move(geo: Tables, P: int, O: int, anti: bool, deadline: float | None) -> int | None:
    """The exact solver's best move, or None when it runs out of time (or has no move)."""
    try:
        return make_solver(geo, anti=anti, deadline=deadline).solve(P, O)[1]
    except Timeout:
        return None


def choose_easy(geo: Tables, P: int, O: int, anti: bool, rng: random.Random,
                deadline: float | None, evaluation: str = "learned") -> int:
    moves = _moves_list(geo, P, O)
    if len(moves) == 1:
        return moves[0]
    n = _empties(geo, P, O)
    if n <= 8 and rng.random() < 0.5:
        sq = _solved_move(geo, P, O, anti, deadline)
        if sq is not None:
            return sq
    searcher = Searcher(geo, evaluator(geo, anti, "handmade"), anti=anti)
    searcher.deadline = deadline
    try:
        values = searcher.move_values(P, O, EASY_DEPTH)
    except Timeout:
        searcher.deadline = None
        values = searcher.move_values(P, O, 1)
    noisy = [(v + rng.gauss(0, EASY_NOISE), sq) for sq, v in values]
    noisy.sort(reverse=True)
    return noisy[0][1]


def choose_normal(geo: Tables, P: int, O: int, anti: bool, rng: random.Random,
                  deadline: float | None, evaluation: str = "learned") -> int:
    moves = _moves_list(geo, P, O)
    if len(moves) == 1:
        return moves[0]
    big = len(geo.squares) > 64
    n = _empties(geo, P, O)
    if n <= (8 if big else 10):
        sq = _solved_move(geo, P, O, anti, deadline)
        if sq is not None:
            return sq
    searcher = _searcher(geo, anti, evaluation)
    _, best, _ = searcher.iterate(P, O, max_depth=3 if big else 4, deadline=deadline)
    return best if best >= 0 else moves[0]


def choose_hard(geo: Tables, P: int, O: int, anti: bool, rng: random.Random,
                deadline: float | None, evaluation: str = "learned") -> int:
    moves = _moves_list(geo, P, O)
    if len(moves) == 1:
        return moves[0]
    start = clock.now()
    if deadline is None:
        deadline = start + HARD_DEFAULT_TIME * BUDGET_SHARE
    budget = deadline - start
    n = _empties(geo, P, O)
    exact_now, solve_to = _solver_horizon(geo, budget, anti)
    searcher = _searcher(geo, anti, evaluation, selective=True)
    if n <= exact_now:
        # small endgame: the exact solver is certain to be quick
        sq = _solved_move(geo, P, O, anti, deadline)
        if sq is not None:
            return sq
    elif n <= solve_to:
        # a short heuristic search first, as the fallback move and the guess
        # the exact score is searched from
        value, best, _ = searcher.iterate(P, O, deadline=start + budget * presearch_share(geo), max_depth=n)
        solver = make_solver(geo, anti=anti, deadline=deadline)
        guess = round(to_stones(value))
        try:
            if value >= WIN:
                # a win the search already proves, by at least ``guess``: the
                # solver still looks for the largest one
                return solver.solve_exact(P, O, guess, guess, move=best)[1]
            # win/draw/loss, then the exact score by probes from the heuristic value
            return solver.solve_from_guess(P, O, guess)[1]
        except Timeout:
            # a proven win or draw is kept (the best proven so far); a proven
            # loss fights on heuristically
            proven, proven_sq = solver.proven
            return proven_sq if proven >= 0 and proven_sq is not None else best
    value, best, _ = searcher.iterate(P, O, deadline=deadline, max_depth=n)
    return best if best >= 0 else moves[0]


def presearch_share(geo: Tables) -> float:
    """Share of the budget for the heuristic search before a solve (less on
    boards of at most 36 squares, 6x6, where the solve needs nearly all of it)."""
    return PRESEARCH_SHARE if len(geo.squares) > 36 else PRESEARCH_SHARE_SMALL


def _solver_horizon(geo: Tables, budget: float, anti: bool = False) -> tuple[int, int]:
    """(solve exactly at once up to, try the solver up to) empties for a budget.

    Up to ``now`` empties the exact solve is quick enough to run at once; up to
    ``to`` it usually fits this budget, and the short search before it is the
    fallback.  The compiled core (``core.py``) solves many times faster than the
    pure-Python solver, so it reaches further; larger boards are slower per node,
    and Anti one empty short of the rest (it cuts less: no corner or stability
    bounds, which would not reach its scores near nought) on boards of up to 64
    squares in the core, on 8x8 in Python (whose 6x6 Anti solves fit).  The
    solver's times on both engines are in benchmarks/README.md, "The engine:
    perft, search and the exact solver"; Anti's in "The solver's move order".
    """
    big = len(geo.squares) > 64
    if core_available():
        now = 16
        to = 20 if budget >= 1.5 else 18 if budget >= 0.4 else 16
        if anti and not big:
            to -= 1
    else:
        now = 12
        to = 16 if budget >= 1.5 else 15 if budget >= 0.4 else 13
        if anti and len(geo.squares) == 64:
            to -= 1
    if big:
        to -= 2
        now -= 2
    return now, to


CHOOSERS = {"easy": choose_easy, "normal": choose_normal, "hard": choose_hard}
