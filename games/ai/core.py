"""Which engine runs: the compiled core (``games.ai._core``, built from
``_core.c`` by ``pip install -e .``) or the pure-Python one.

Without a compiler (or in a bare ``python3`` on a fresh checkout) the
extension is missing and everything runs on the Python modules, which stay the
reference the core is tested against (``tests/ai/test_core*.py``).
``GAMES_AI_ENGINE=python`` forces the Python engine (to compare the two);
``GAMES_AI_REQUIRE_CORE=1`` makes a missing core an error at import (CI).

``CoreSolver`` is ``endgame.EndgameSolver``'s interface on the compiled
solver: the same exact scores, found by null-window probes (MTD(f)) driven
from here, each probe searched in C, its moves ordered far from the end by
the learned evaluation (``native_evaluator``).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from functools import lru_cache

from . import clock
from .bitboard import Tables
from .endgame import INF, Timeout, mtdf
from .ordering import move_priority

_why_not = None  # why the compiled core is not in use, in words
try:
    from ._core import SEARCH_TABLE_BYTES, TABLE_BYTES, Core, Evaluator
except ImportError as error:  # no compiler at install, a Python it was not built for, or a bare checkout
    Core, Evaluator, TABLE_BYTES, SEARCH_TABLE_BYTES = None, None, 0, 0
    _why_not = f"it is not built for this Python ({error}); pip install -e . builds it (gcc and the Python headers)"
if os.environ.get("GAMES_AI_ENGINE") == "python":
    Core, Evaluator, TABLE_BYTES, SEARCH_TABLE_BYTES = None, None, 0, 0
    _why_not = "GAMES_AI_ENGINE=python asks for the Python engine"
if Core is None and os.environ.get("GAMES_AI_REQUIRE_CORE") == "1":
    raise ImportError("GAMES_AI_REQUIRE_CORE=1 but the compiled core games.ai._core is not built "
                      "(pip install -e . builds it)")
# TABLE_BYTES: the C solver's transposition table, SEARCH_TABLE_BYTES the C midgame
# search's; one each per process, allocated at their first use


_PYTHON_ONLY = False


@contextmanager
def python_engine():
    """Inside, the computer players run on the pure-Python engine though the
    core is built (the match runner's ``hard-python``: Hard as before the core)."""
    global _PYTHON_ONLY
    before, _PYTHON_ONLY = _PYTHON_ONLY, True
    try:
        yield
    finally:
        _PYTHON_ONLY = before


def available() -> bool:
    return Core is not None and not _PYTHON_ONLY


def engine_name() -> str:
    """What a worker's computer players run on, for the log and /healthz."""
    return "compiled core (games.ai._core)" if Core is not None else "pure Python"


def missing_core_warning() -> str | None:
    """A warning to say loudly (``make run``, each worker, /healthz) when the
    computer players run on the pure-Python engine, None on the compiled core."""
    if Core is not None:
        return None
    return (f"the computer players run on the pure-Python engine, dozens of times slower than on the "
            f"compiled core (games.ai._core), so Hard plays weaker: {_why_not}")


def core_for(geo: Tables, anti: bool):
    """The compiled core set up for a board (``None`` without the core)."""
    return None if _PYTHON_ONLY else _core_for(geo, anti)


@lru_cache(maxsize=64)
def _core_for(geo: Tables, anti: bool):
    if Core is None:
        return None
    return Core(geo.playable, geo.corners, geo.x_squares, geo.stride, max(geo.width, geo.height),
                      list(geo.region_of), list(geo.shallow_priority), anti)


def native_evaluator(geo: Tables, anti: bool, evaluation: str = "learned"):
    """The compiled twin of ``levels.evaluator(geo, anti, evaluation)``, the
    same values (``tests/ai/test_core_search.py``), carrying the midgame search
    (``Searcher(native=...)``); ``None`` without the core."""
    return None if _PYTHON_ONLY else _native_evaluator(geo, anti, evaluation)


@lru_cache(maxsize=64)
def _native_evaluator(geo: Tables, anti: bool, evaluation: str):
    if Core is None:
        return None
    from .learned import previous_weights_dir, shipped_stages

    if evaluation == "handmade":
        return native_evaluator_from(geo, anti, None)
    directory = previous_weights_dir() if evaluation == "previous" else None
    return native_evaluator_from(geo, anti, shipped_stages(geo.lib, anti, directory))


def native_evaluator_from(geo: Tables, anti: bool, stages):
    """The compiled twin of ``learned.evaluator_from(geo.lib, stages, anti)``
    (the hand-made evaluation when ``stages`` is None): the training's labels
    from a search into stages just fitted."""
    from .evaluation import hand_tables
    from .learned import stage_tables
    from .patterns import pattern_set

    hand = hand_tables(geo, anti)
    patterns = None
    if stages is not None:
        ps = pattern_set(geo.lib)
        by_empties, uses_hand = stage_tables(geo.lib, stages)
        instances = [(ps.classes[cls][2], squares) for cls, squares in ps.instances]
        patterns = (instances, ps.features, by_empties, uses_hand)
    return Evaluator(_core_for(geo, anti), geo.edges, hand.table, hand.corner_adj, hand.corner_rays,
                     move_priority(geo, anti), patterns)


class CoreSolver:
    """Exact two-player endgame solver on the compiled core, with the
    interface of ``EndgameSolver`` that the levels use (``solve``, ``value``,
    ``solve_exact``, ``solve_from_guess``, ``proven``, ``nodes``)."""

    def __init__(self, geo: Tables, *, anti: bool = False, deadline: float | None = None,
                 max_nodes: int | None = None):
        self.geo = geo
        self.core = core_for(geo, anti)
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.top = geo.playable.bit_count()
        self.proven: tuple[int, int | None] = (-INF, None)
        self._fresh = True
        # orders the moves far from the end (the value is the same without it)
        self.evaluator = native_evaluator(geo, anti)

    def _probe(self, P: int, O: int, t: int) -> tuple[int, int | None]:
        """(r, move): r >= t, value >= r (move reaches it); r < t, value <= r."""
        if not self.core.moves(P, O) and self.core.moves(O, P):
            # a pass: value(P) >= t exactly when value(O) <= -t, i.e. not >= 1 - t
            r, _ = self._probe(O, P, 1 - t)
            return -r, None
        seconds = 0.0
        if self.deadline is not None:
            seconds = max(1e-9, self.deadline - clock.now())
        nodes_left = -1 if self.max_nodes is None else max(0, self.max_nodes - self.nodes)
        r, sq, nodes, finished = self.core.probe(P, O, t, seconds, clock.cpu_clock(), nodes_left, self._fresh,
                                                 self.evaluator)
        self._fresh = False
        self.nodes += nodes
        if not finished:
            raise Timeout
        return r, (sq if sq >= 0 else None)

    def solve(self, P: int, O: int, alpha: int = -INF, beta: int = INF) -> tuple[int, int | None]:
        """Exact value for the mover and a best move (``None``: a pass or the
        end).  Always the exact value, which is also a bound for any window."""
        self._fresh = True
        return self.solve_exact(P, O, 0, -self.top, self.top)

    def value(self, P: int, O: int) -> int:
        return self.solve(P, O)[0]

    def solve_exact(self, P: int, O: int, guess: int = 0, lo: int = -INF, hi: int = INF,
                    move: int | None = None) -> tuple[int, int | None]:
        """``EndgameSolver.solve_exact``: MTD(f) from ``guess`` between the
        proven bounds ``lo``/``hi``; on a timeout ``proven`` is the best
        (lower bound, move) proven so far."""
        lo, move, _fail_low = mtdf(lambda t: self._probe(P, O, t), max(lo, -self.top), min(hi, self.top), guess,
                                   move, self, bisect=True)
        return lo, (move if move is not None else self._any_move(P, O))

    def solve_from_guess(self, P: int, O: int, guess: int) -> tuple[int, int | None]:
        """Win/draw/loss first (two probes), then the exact score from ``guess``."""
        self._fresh = True
        self.proven = (-INF, None)
        v, sq = self._probe(P, O, 0)
        if v < 0:  # a loss: every move reaches the lowest bound
            return self.solve_exact(P, O, guess, -INF, v, None)
        self.proven = (0, sq)
        w, wsq = self._probe(P, O, 1)
        if w < 1:
            return 0, sq
        return self.solve_exact(P, O, guess, w, INF, wsq)

    def solve_moves(self, P: int, O: int) -> list[tuple[int, int]]:
        """Exact value of every legal move, best first (``EndgameSolver.solve_moves``);
        the moves share one table."""
        out = []
        mv = self.core.moves(P, O)
        self._fresh = True
        while mv:
            b = mv & -mv
            mv ^= b
            sq = b.bit_length() - 1
            f = self.core.flips(sq, P, O)
            nP, nO = P | f | b, O ^ f
            out.append((sq, -mtdf(lambda t: self._probe(nO, nP, t), -self.top, self.top, 0, None, self, bisect=True)[0]))
        out.sort(key=lambda t: -t[1])
        return out

    def _any_move(self, P: int, O: int) -> int | None:
        mv = self.core.moves(P, O)
        return (mv & -mv).bit_length() - 1 if mv else None


def make_solver(geo: Tables, *, anti: bool = False, deadline: float | None = None,
                max_nodes: int | None = None):
    """The exact solver of the engine in use."""
    if available():
        return CoreSolver(geo, anti=anti, deadline=deadline, max_nodes=max_nodes)
    from .endgame import EndgameSolver

    return EndgameSolver(geo, anti=anti, deadline=deadline, max_nodes=max_nodes)
