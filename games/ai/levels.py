"""What each level does (two players; multi-player levels are in multiplayer.py).

* **Easy**: a 2-ply search with the full evaluation, then every move's value
  gets Gaussian noise (sd 5 discs, ``EASY_NOISE``) and the best noisy value
  is played: small and medium mistakes are frequent and varied, giving away
  a corner is rarer (it costs more than the noise).  In the last 8 empties it
  plays the exact best move only half of the time.  Seeded: deterministic.
* **Normal**: iterative deepening PVS to a fixed depth (4 plies on boards up to
  64 squares, 3 on larger ones) with the full evaluation, and an exact
  endgame solve from 10 empties (8 on larger boards).  Depth-limited, so
  fully deterministic; a time limit, if given, still caps it.
* **Hard**: iterative deepening PVS with a transposition table under the time
  budget (2 s by default); from 14 empties (12 on larger boards) it first
  reserves a short heuristic search, then runs the exact solver with the rest
  of the budget and plays its move when it finishes in time.

Every function here takes and returns square *indices* of the geometry.
"""

from __future__ import annotations

import random
from functools import lru_cache

from . import clock
from .bitboard import Tables
from .endgame import EndgameSolver, Timeout
from .evaluation import make_evaluator
from .search import WIN, Searcher

LEVELS = ("easy", "normal", "hard")
HARD_DEFAULT_TIME = 2.0
# share of the budget the move may take; the rest is margin for building the
# position, interpreter hiccups and a loaded machine
BUDGET_SHARE = 0.82
# Easy: search depth and the standard deviation of the noise (centi-discs)
EASY_DEPTH = 2
EASY_NOISE = 500


@lru_cache(maxsize=32)
def evaluator(geo: Tables, anti: bool):
    return make_evaluator(geo, anti)


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


def choose_easy(geo: Tables, P: int, O: int, anti: bool, rng: random.Random,
                deadline: float | None) -> int:
    moves = _moves_list(geo, P, O)
    if len(moves) == 1:
        return moves[0]
    n = _empties(geo, P, O)
    if n <= 8 and rng.random() < 0.5:
        solver = EndgameSolver(geo, anti=anti, deadline=deadline)
        try:
            sq = solver.solve(P, O)[1]
            if sq is not None:
                return sq
        except Timeout:
            pass
    searcher = Searcher(geo, evaluator(geo, anti), anti=anti)
    values = searcher.move_values(P, O, EASY_DEPTH)
    noisy = [(v + rng.gauss(0, EASY_NOISE), sq) for sq, v in values]
    noisy.sort(reverse=True)
    return noisy[0][1]


def choose_normal(geo: Tables, P: int, O: int, anti: bool, rng: random.Random,
                  deadline: float | None) -> int:
    moves = _moves_list(geo, P, O)
    if len(moves) == 1:
        return moves[0]
    big = len(geo.squares) > 64
    n = _empties(geo, P, O)
    if n <= (8 if big else 10):
        solver = EndgameSolver(geo, anti=anti, deadline=deadline)
        try:
            sq = solver.solve(P, O)[1]
            if sq is not None:
                return sq
        except Timeout:
            pass
    searcher = Searcher(geo, evaluator(geo, anti), anti=anti)
    _, best, _ = searcher.iterate(P, O, max_depth=3 if big else 4, deadline=deadline)
    return best if best >= 0 else moves[0]


def choose_hard(geo: Tables, P: int, O: int, anti: bool, rng: random.Random,
                deadline: float | None) -> int:
    moves = _moves_list(geo, P, O)
    if len(moves) == 1:
        return moves[0]
    start = clock.now()
    if deadline is None:
        deadline = start + HARD_DEFAULT_TIME * BUDGET_SHARE
    budget = deadline - start
    big = len(geo.squares) > 64
    n = _empties(geo, P, O)
    solve_from = 12 if big else 14
    if budget >= 1.0:
        solve_from += 2
    searcher = Searcher(geo, evaluator(geo, anti), anti=anti)
    if n <= solve_from - 6:
        # small endgame: the solver is certain to be quick
        try:
            sq = EndgameSolver(geo, anti=anti, deadline=deadline).solve(P, O)[1]
            if sq is not None:
                return sq
        except Timeout:
            pass
    if n <= solve_from:
        pre = start + budget * 0.15
        value, best, _ = searcher.iterate(P, O, deadline=pre, max_depth=n)
        if abs(value) >= WIN:
            return best
        try:
            sq = EndgameSolver(geo, anti=anti, deadline=deadline).solve(P, O)[1]
            if sq is not None:
                return sq
        except Timeout:
            return best
    value, best, _ = searcher.iterate(P, O, deadline=deadline, max_depth=n)
    return best if best >= 0 else moves[0]


CHOOSERS = {"easy": choose_easy, "normal": choose_normal, "hard": choose_hard}
