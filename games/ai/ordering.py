"""The static order in which both searches (search.py, and the compiled core's, given
it by core.native_evaluator) try a position's moves: the same order, so at a fixed
depth both find the same best move."""
from __future__ import annotations

from .bitboard import Tables


def move_priority(geo: Tables, anti: bool) -> list[int]:
    """Static move priority per square (smaller first): corners, then plain
    squares, then C squares, X squares last (reversed roles in anti)."""
    static = [0] * geo.size
    for i in geo.squares:
        if geo.corners >> i & 1:
            static[i] = 60 if anti else -60
        elif geo.x_squares >> i & 1:
            static[i] = -10 if anti else 40
        elif geo.c_squares >> i & 1:
            static[i] = 0 if anti else 20
    return static
