"""Search tables on top of the rules library's bitboard primitives.

The rules library (``games.rules.geometry``) is the one truth about which squares
exist (board size, octagon cuts, blocked squares), about the bit layout (row
by row with a row stride of ``width + 1``; the extra column is a never-playable
sentinel) and about the primitives the search calls millions of times:
``moves(own, opp)``, ``flips(bit, own, opp)`` and ``neighbours(bits)``.  The
flipping rule for 3-4 players is the same ``flips`` with ``opp`` = every stone
that is not the mover's, neutral included (documented in ``games.rules.geometry``).

This module adds only what the computer players need and the rules do not:
the classification of squares for the evaluation (corner-like unflippable
squares, the X and C squares next to them, edges), per-square neighbour masks
and the parity regions used by the endgame solver.  ``Tables`` objects are
cached per geometry (module level), so a worker process builds them once.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


class Tables:
    """Evaluation and ordering tables for one ``games.rules.geometry.Geometry``."""

    def __init__(self, lib_geo):
        self.lib = lib_geo
        self.width = lib_geo.width
        self.height = lib_geo.height
        self.stride = lib_geo.stride
        self.size = lib_geo.size
        self.playable = lib_geo.playable
        self.moves = lib_geo.moves            # moves(own, opp) -> mask
        self.flips = lib_geo.flips            # flips(bit, own, opp) -> mask
        self.spread = lib_geo.neighbours      # neighbours(bits) -> mask (not bits)
        self.squares = list(lib_geo.squares)
        self.names = {i: lib_geo.square_name(i) for i in self.squares}
        self.index = {n: i for i, n in self.names.items()}
        self.neighbours = [0] * self.size
        for i in self.squares:
            self.neighbours[i] = lib_geo.neighbours(1 << i)
        self._classify()

    def name(self, sq: int) -> str:
        return self.names[sq]

    def _ok(self, r: int, c: int) -> bool:
        return (0 <= r < self.height and 0 <= c < self.width
                and bool(self.playable >> (r * self.stride + c) & 1))

    def _classify(self) -> None:
        """Corner-like squares and the squares next to them, edges, regions.

        A *corner* is a playable square that can never be flipped: on each of
        the four lines through it one side has no playable square.  On square
        boards these are the four corners; on the octagon the eight edge squares
        beside the cuts; blocked squares make new ones.  An *X square* is a
        diagonal neighbour of a corner, a *C square* an orthogonal one (both
        only when not corners themselves).  An *edge* square is a non-corner
        with fewer than eight playable neighbours.
        """
        s = self.stride
        corners = edges = 0
        for i in self.squares:
            r0, c0 = divmod(i, s)
            unflippable = all(
                not (self._ok(r0 + dr, c0 + dc) and self._ok(r0 - dr, c0 - dc))
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
            )
            if unflippable:
                corners |= 1 << i
            elif self.neighbours[i].bit_count() < 8:
                edges |= 1 << i
        self.corners = corners
        self.edges = edges
        x_sq = c_sq = 0
        for i in self.squares:
            if corners >> i & 1:
                continue
            r0, c0 = divmod(i, s)
            for dr, dc in DIRECTIONS:
                r, c = r0 + dr, c0 + dc
                if self._ok(r, c) and corners >> (r * s + c) & 1:
                    if dr and dc:
                        x_sq |= 1 << i
                    else:
                        c_sq |= 1 << i
        self.c_squares = c_sq
        self.x_squares = x_sq & ~c_sq
        # parity regions: the four quadrants of the board
        h, w = self.height, self.width
        hr, hc = (h + 1) // 2, (w + 1) // 2
        regions = []
        for rs in ((0, hr), (hr, h)):
            for cs in ((0, hc), (hc, w)):
                m = 0
                for r in range(*rs):
                    for c in range(*cs):
                        m |= 1 << (r * s + c)
                regions.append(m & self.playable)
        self.regions = regions
        self.region_of = [0] * self.size
        for k, m in enumerate(regions):
            for i in self.squares:
                if m >> i & 1:
                    self.region_of[i] = k

    @cached_property
    def shallow_priority(self) -> list:
        """Per square, its rank when the endgame solvers try the last empties
        (after parity): corners 0, plain squares 1, C squares 2, X squares 3."""
        prio = [1] * self.size
        for i in self.squares:
            if self.corners >> i & 1:
                prio[i] = 0
            elif self.x_squares >> i & 1:
                prio[i] = 3
            elif self.c_squares >> i & 1:
                prio[i] = 2
        return prio

    @cached_property
    def flips_at(self) -> list:
        """Per square ``i``, a function ``(own, opp) -> mask``: the same value as
        ``flips(1 << i, own, opp)``, about twice as fast (the rays through the
        square are unrolled into nested tests on constant masks; the endgame
        solver calls it millions of times).  ``None`` for removed squares."""
        s = self.stride
        src = []
        for i in self.squares:
            r0, c0 = divmod(i, s)
            src.append(f"def f{i}(P, O):")
            src.append("    f = 0")
            for dr, dc in DIRECTIONS:
                ray = []
                r, c = r0 + dr, c0 + dc
                while self._ok(r, c):
                    ray.append(1 << (r * s + c))
                    r += dr
                    c += dc
                if len(ray) < 2:
                    continue
                # if O & ray[0]: if P & ray[1]: f |= ray[0] elif O & ray[1]: ...
                src.append(f"    if O & {ray[0]}:")
                ind, run = "        ", ray[0]
                for j in range(1, len(ray)):
                    src.append(f"{ind}if P & {ray[j]}:")
                    src.append(f"{ind}    f |= {run}")
                    if j < len(ray) - 1:
                        src.append(f"{ind}elif O & {ray[j]}:")
                        ind += "    "
                        run |= ray[j]
            src.append("    return f")
        namespace: dict = {}
        exec(compile("\n".join(src), f"<flips_at {self.width}x{self.height}>", "exec"), namespace)
        out = [None] * self.size
        for i in self.squares:
            out[i] = namespace[f"f{i}"]
        return out


@lru_cache(maxsize=256)
def tables(lib_geo) -> Tables:
    """Cached ``Tables`` for a rules-library geometry."""
    return Tables(lib_geo)


def tables_for(board: str, blocked: tuple[str, ...] = ()) -> Tables:
    from games.rules.geometry import get_geometry

    return tables(get_geometry(board, tuple(blocked)))
