"""Probability cut-off (ProbCut, as in Edax and Logistello) for Hard's midgame search.

A search ``d`` plies deep rarely lands far from one ``s = shallow_depth(d)``
plies deep: over self-play positions the difference has a mean and a standard
deviation ``sigma`` that depend on the empties and the depth (fitted per board
and rule by ``python -m games.ai.tools.calibrate``, ``MODELS``).  So before
searching a node ``d`` plies deep, a null-window search ``s`` plies deep asks
whether the node's value is beyond ``beta`` by ``T`` sigmas; if so the node
fails high without the deep search (and low below ``alpha`` alike).  With
``T`` = 1.5 about one cut in fifteen is wrong, by a little; the time saved
goes into searching deeper (benchmarks/README.md, "Probability cut-offs in
Hard's search": five plies more at 2 s on 8x8).

``Cuts.table`` holds, per number of empties and depth, the shallow depth
(-1 where no cut is tried) and the two offsets added to ``beta`` and taken
from ``alpha`` (centi-discs); the Python search and the compiled one read the
same table (``search.Searcher(cuts=...)``), so they stay the same search.
"""

from __future__ import annotations

from array import array
from contextlib import contextmanager
from functools import lru_cache

MIN_DEPTH = 3    # nodes at least this deep are tried
MAX_DEPTH = 32   # deeper nodes use this depth's offsets
T = 1.5          # how many standard deviations beyond the bound

# (board, anti): ((mean: c0, per empty, per ply), (sigma: c0, per empty, per ply)), centi-discs,
# of v_d - v_s (python -m games.ai.tools.calibrate). Not 8x8 Anti: at Hard's 2 s its
# full-width search plays better than with its calibrated cuts (benchmarks/README.md).
MODELS: dict[tuple[str, bool], tuple[tuple[float, float, float], tuple[float, float, float]]] = {
    ("8x8", False): ((75.6, -0.877, -3.46), (607.8, -10.208, 8.38)),
}


def shallow_depth(depth: int) -> int:
    """The depth of the search that stands in for one ``depth`` plies deep:
    about half, of the same parity (Edax's choice)."""
    s = 2 * (depth // 4) + (depth & 1)
    return s if s > 0 else depth - 2


class Cuts:
    """The cut-offs of one board and rule: ``entry(empties, depth)``, laid out
    flat in ``table`` (``array("i")``, read by the compiled search)."""

    def __init__(self, squares: int, model, t: float = T):
        (m0, me, md), (s0, se, sd) = model
        table = array("i")
        for e in range(squares + 1):
            for d in range(MAX_DEPTH + 1):
                mean = m0 + me * e + md * d
                sigma = max(1.0, s0 + se * e + sd * d)
                table.extend((shallow_depth(d) if d >= MIN_DEPTH else -1,
                              round(t * sigma - mean), round(t * sigma + mean)))
        self.table = table

    def entry(self, empties: int, depth: int) -> tuple[int, int, int]:
        """(shallow depth or -1, added to beta, taken from alpha) for a node ``depth`` plies deep."""
        i = 3 * (empties * (MAX_DEPTH + 1) + min(depth, MAX_DEPTH))
        return self.table[i], self.table[i + 1], self.table[i + 2]


_FULL_WIDTH = False


@contextmanager
def full_width():
    """Inside, Hard searches without cut-offs (the match runner's
    ``hard-fullwidth``, to measure what they bring)."""
    global _FULL_WIDTH
    before, _FULL_WIDTH = _FULL_WIDTH, True
    try:
        yield
    finally:
        _FULL_WIDTH = before


def cuts_for(board: str, anti: bool, squares: int) -> Cuts | None:
    """The board's cut-offs, or None where no model is fitted."""
    return None if _FULL_WIDTH else _cuts_for(board, anti, squares)


@lru_cache(maxsize=16)
def _cuts_for(board: str, anti: bool, squares: int) -> Cuts | None:
    model = MODELS.get((board, anti))
    return Cuts(squares, model) if model else None
