"""Fast two-player bitboard kernel for the search (standard library only).

The rules library (``games.geometry`` / ``games.board``) is the one truth about
*which* squares exist (board size, octagon cuts, blocked squares) and about the
variant rules.  This module only compiles, for one board shape, the tables and
the few functions that the search calls millions of times:

* ``moves(P, O)``        bitboard of the squares where ``P`` may play,
* ``flips(sq, P, O)``    bitboard of the stones a move on ``sq`` turns over,
* per-square masks (neighbours, rays, parity regions, corner/X/C classes).

Bit ``i`` is square ``i = row * width + col``; row 0 is the top row, so index
``i`` is named ``chr(97 + col) + str(row + 1)`` exactly as in the rules library.
A removed square (octagon cut, blocked square) is simply absent from the
playable mask: no stone can stand there, so no line of stones crosses it, which
is exactly the rule.  The two-player flipping rule is the standard one; the
multi-player rule (flip every bracketed line of *not-own* stones) is the same
function with ``O`` = every stone that is not the mover's, neutral included.

``tests/ai/test_kernel.py`` checks these functions against the rules library on
random positions of every board, so the fast path cannot drift from the rules.

``moves`` is generated as straight-line Python with literal constants (one
compiled function per geometry, cached): about 3x faster than a generic loop.
"""

from __future__ import annotations

from functools import lru_cache

DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def square_name(index: int, width: int) -> str:
    return chr(97 + index % width) + str(index // width + 1)


def square_index(name: str, width: int) -> int:
    return (int(name[1:]) - 1) * width + (ord(name[0]) - 97)


class Geometry:
    """Compiled tables for one board shape (width x height minus removed squares)."""

    def __init__(self, width: int, height: int, playable: int):
        self.width = width
        self.height = height
        self.size = width * height
        self.playable = playable
        self.full = (1 << self.size) - 1
        self.squares = [i for i in range(self.size) if playable >> i & 1]
        self.names = [square_name(i, width) for i in range(self.size)]
        self.index = {n: i for i, n in enumerate(self.names) if playable >> i & 1}
        w = width

        def ok(r, c):
            return 0 <= r < height and 0 <= c < width and playable >> (r * w + c) & 1

        # rays: for each square and direction, the playable squares beyond it up
        # to the edge or the first removed square.  Split by bit order so the
        # first non-opponent square is the lowest (pos) or highest (neg) bit.
        self.rays_pos: list[tuple[int, ...]] = []
        self.rays_neg: list[tuple[int, ...]] = []
        self.neighbours: list[int] = []
        self.lines: list[list[list[int]]] = []
        for i in range(self.size):
            r0, c0 = divmod(i, w)
            pos, neg, nb, lines = [], [], 0, []
            if ok(r0, c0):
                for dr, dc in DIRECTIONS:
                    r, c, ray = r0 + dr, c0 + dc, []
                    while ok(r, c):
                        ray.append(r * w + c)
                        r += dr
                        c += dc
                    if ray:
                        nb |= 1 << ray[0]
                        lines.append(ray)
                    if len(ray) >= 2:
                        mask = sum(1 << s for s in ray)
                        (pos if ray[0] > i else neg).append(mask)
            self.rays_pos.append(tuple(pos))
            self.rays_neg.append(tuple(neg))
            self.neighbours.append(nb)
            self.lines.append(lines)
        self.moves = _compile_moves(width, height, playable)
        self._classify()

    # ------------------------------------------------------------------ rules
    def flips(self, sq: int, P: int, O: int) -> int:
        """Stones of ``O`` turned over by ``P`` playing on empty square ``sq``."""
        f = 0
        nO = ~O
        for mask in self.rays_pos[sq]:
            x = mask & nO
            b = x & -x
            if b & P:
                f |= (b - 1) & mask
        for mask in self.rays_neg[sq]:
            x = mask & nO
            if x:
                b = 1 << (x.bit_length() - 1)
                if b & P:
                    f |= mask & -(b << 1)
        return f

    def neighbours_of(self, bits: int) -> int:
        out = 0
        nb = self.neighbours
        while bits:
            b = bits & -bits
            out |= nb[b.bit_length() - 1]
            bits ^= b
        return out & ~bits

    # ---------------------------------------------------------- square classes
    def _classify(self) -> None:
        """Corner-like squares and the squares next to them, edges, regions.

        A *corner* is a playable square that can never be flipped: every line
        through it ends at it on at least one side (no playable square on one
        side of each of the four lines).  On square boards these are the four
        corners; on the octagon the eight edge squares beside the cuts; blocked
        squares create new ones.  An *X square* is a diagonal neighbour of a
        corner, a *C square* an orthogonal neighbour, both only when they are not
        corners themselves.  An *edge* square has a removed/outside neighbour.
        """
        w, h = self.width, self.height
        corners = 0
        edges = 0
        for i in self.squares:
            r0, c0 = divmod(i, w)
            unflippable = True
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                a = self._ok(r0 + dr, c0 + dc)
                b = self._ok(r0 - dr, c0 - dc)
                if a and b:
                    unflippable = False
            if unflippable:
                corners |= 1 << i
            if bin(self.neighbours[i]).count("1") < 8:
                edges |= 1 << i
        self.corners = corners
        self.edges = edges & ~corners
        x_sq = c_sq = 0
        for i in self.squares:
            if corners >> i & 1:
                continue
            r0, c0 = divmod(i, w)
            for dr, dc in DIRECTIONS:
                r, c = r0 + dr, c0 + dc
                if self._ok(r, c) and corners >> (r * w + c) & 1:
                    if dr and dc:
                        x_sq |= 1 << i
                    else:
                        c_sq |= 1 << i
        self.c_squares = c_sq
        self.x_squares = x_sq & ~c_sq
        # parity regions: the four quadrants (the centre lines go to no region
        # twice); each entry is a mask.
        regions = []
        hr, hc = (h + 1) // 2, (w + 1) // 2
        for rs in ((0, hr), (hr, h)):
            for cs in ((0, hc), (hc, w)):
                m = 0
                for r in range(*rs):
                    for c in range(*cs):
                        m |= 1 << (r * w + c)
                regions.append(m & self.playable)
        self.regions = regions
        self.region_of = [0] * self.size
        for k, m in enumerate(regions):
            for i in range(self.size):
                if m >> i & 1:
                    self.region_of[i] = k

    def _ok(self, r: int, c: int) -> bool:
        return 0 <= r < self.height and 0 <= c < self.width and bool(self.playable >> (r * self.width + c) & 1)

    # ---------------------------------------------------------------- helpers
    def name(self, sq: int) -> str:
        return self.names[sq]

    def bits_of(self, names) -> int:
        out = 0
        for n in names:
            out |= 1 << self.index[n]
        return out


def _compile_moves(width: int, height: int, playable: int):
    """Generate ``moves(P, O)`` for this shape as straight-line code."""
    size = width * height
    col0 = sum(1 << (r * width) for r in range(height))
    colw = sum(1 << (r * width + width - 1) for r in range(height))
    inner = playable & ~col0 & ~colw
    steps = max(width, height) - 2  # longest run of opponent stones
    lines = ["def moves(P, O):"]
    lines.append(f"    mh = O & {inner:#x}")
    lines.append("    mv = O")
    lines.append(f"    E = ~(P | O) & {playable:#x}")
    lines.append("    m = 0")
    for shift, mask in ((1, "mh"), (width, "mv"), (width + 1, "mh"), (width - 1, "mh")):
        for op in ("<<", ">>"):
            lines.append(f"    x = {mask} & (P {op} {shift})")
            for _ in range(steps - 1):
                lines.append(f"    x |= {mask} & (x {op} {shift})")
            lines.append(f"    m |= x {op} {shift}")
    lines.append("    return m & E")
    ns: dict = {}
    exec(compile("\n".join(lines), f"<moves {width}x{height}>", "exec"), ns)
    return ns["moves"]


@lru_cache(maxsize=64)
def geometry(width: int, height: int, playable: int) -> Geometry:
    """Cached compiled geometry (module-level, shared by all calls in a process)."""
    return Geometry(width, height, playable)


def square_geometry(n: int) -> Geometry:
    return geometry(n, n, (1 << (n * n)) - 1)


def popcount(x: int) -> int:
    return x.bit_count()
