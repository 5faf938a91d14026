"""Board geometry and bitboard primitives (standard library only).

One :class:`Geometry` exists per (board, blocked squares) combination; get it
with :func:`get_geometry` (cached) or from ``Variant.geometry`` /
``Board.geometry``.

Bit layout
----------
A position is a handful of Python ints, one bit per square. Squares are laid
out row by row from the top-left with a row *stride* of ``width + 1``::

    index(col, row) = row * stride + col        # col 0 = "a", row 0 = "1"

The extra column ``width`` of every row is a sentinel that is never playable.
A stone shifted east off the last column, or west off the first one, lands on
a sentinel, so every directional step is one shift and one mask and no
wrap-around masks are needed.  The eight directions are the shifts by
``1, stride - 1, stride, stride + 1``, to the left (east, south-west, south,
south-east) and to the right (west, north-east, north, north-west).

``playable`` is the mask of the squares that exist in the game: the board
minus octagon cuts and blocked squares.  Every stone mask handed to the
primitives below must be a subset of ``playable``; removed squares are then
never crossed by a line, because a line can only run through stones.

Primitives (all take and return ints)
-------------------------------------
``g.moves(own, opp)``
    Mask of the empty playable squares where a stone of ``own`` would bracket
    at least one unbroken line of ``opp`` stones ending on an ``own`` stone.
    In a 3-4 player game pass ``opp = occupied & ~own`` (every stone that is
    not yours, neutral included).
``g.flips(bit, own, opp)``
    Mask of the stones flipped when ``own`` plays the single-bit mask ``bit``
    (``1 << index``); ``0`` when it brackets nothing.  The caller applies it:
    ``own |= bit | f; opp &= ~f`` (in 3-4 player games clear ``f`` from every
    other colour and from the neutral stone).
``g.neighbours(bits)``
    Mask of the playable squares next to (8-neighbourhood) some square of
    ``bits``, not including ``bits`` itself.  The 3-4 player fallback
    placements are ``g.neighbours(occupied) & g.empty(occupied)``.
``g.empty(occupied)``
    ``playable & ~occupied``.
``g.moves`` and ``g.neighbours`` also work lane-parallel, on many positions
packed side by side in one int, given ``playable`` repeated per lane as their
optional last argument; together
with ``g.flips_lanes(mv, own, opp, add, guard)`` (one move bit per lane) they
drive ``games.rules.perft``, which documents the lane layout.

Sizes: ``g.width``, ``g.height``, ``g.stride``, ``g.size`` (bit positions in
use, ``height * stride``: 42, 72, 110 and 110), ``g.playable_count``.
Squares: ``g.squares`` (indices of the playable squares in board order),
``g.cell(i)`` -> (col, row), ``g.cell_index(col, row)``,
``g.square_index("d3")``, ``g.square_name(21)``, ``g.bit("d3")``,
``g.names(mask)`` (board order), ``g.indices(mask)``, ``iter_bits(mask)``
(single-bit ints, low first).  Masks: ``playable``, ``removed`` (cuts and
blocked), ``cuts``, ``blocked_mask``, ``corners`` (playable corners),
``edges``, ``centre`` (the four central squares), ``centre_block`` (the
central 4x4 block).  Symmetries of the square boards: ``g.transform_index(i,
k)``, ``g.transform_bits(mask, k)``, ``g.transform_name(name, k)`` for
``k in range(8)`` (see :data:`SYMMETRIES`).

``moves``, ``flips``, ``flips_lanes`` and ``neighbours`` are generated per
geometry with the shift amounts and masks written in as constants and the
loops unrolled (Python spends its time per bytecode, not per bit).
"""

from __future__ import annotations

from functools import lru_cache

__all__ = [
    "BOARDS",
    "COLUMNS",
    "SYMMETRIES",
    "Geometry",
    "get_geometry",
    "iter_bits",
    "octagon_cut_names",
]

COLUMNS = "abcdefghij"

#: board name -> (width, height)
BOARDS = {"6x6": (6, 6), "8x8": (8, 8), "10x10": (10, 10), "octagon": (10, 10)}

#: The eight symmetries of a square board, as maps of (col, row) on an n x n grid.
SYMMETRIES = (
    ("identity", lambda c, r, n: (c, r)),
    ("rotate 90", lambda c, r, n: (n - 1 - r, c)),
    ("rotate 180", lambda c, r, n: (n - 1 - c, n - 1 - r)),
    ("rotate 270", lambda c, r, n: (r, n - 1 - c)),
    ("mirror left-right", lambda c, r, n: (n - 1 - c, r)),
    ("mirror top-bottom", lambda c, r, n: (c, n - 1 - r)),
    ("transpose", lambda c, r, n: (r, c)),
    ("anti-transpose", lambda c, r, n: (n - 1 - r, n - 1 - c)),
)


def octagon_cut_names() -> tuple[str, ...]:
    """The twelve squares the octagon removes from the 10x10 board (docs/rules.md §1)."""
    return ("a1", "b1", "a2", "i1", "j1", "j2", "a9", "a10", "b10", "j9", "i10", "j10")


def iter_bits(mask: int):
    """Yield the single-bit ints of ``mask``, lowest first."""
    while mask:
        b = mask & -mask
        yield b
        mask ^= b


def _fill_code(var: str, src: str, prop: str, p2: str, op: str, s: int, maxrun: int) -> list[str]:
    """Lines setting ``var`` to the squares reached from ``src`` by walking in
    one direction (``op`` = ``<<`` or ``>>`` by ``s``) over an unbroken run of
    ``prop`` squares, at most ``maxrun`` long.  ``p2`` names a mask of the
    ``prop`` squares whose predecessor in that direction is also ``prop``.
    Runs are extended by one, then by two (Kogge-Stone style)."""
    lines = [f"{var} = {prop} & ({src} {op} {s})"]
    covered = 1
    if covered < maxrun:
        lines.append(f"{var} |= {prop} & ({var} {op} {s})")
        covered = 2
    while covered < maxrun:
        lines.append(f"{var} |= {p2} & ({var} {op} {2 * s})")
        covered += 2
    return lines


def _compile(width: int, height: int, stride: int, playable: int):
    """Generate the hot primitives for one geometry."""
    maxrun = max(width, height) - 2  # longest possible run of bracketed stones
    shifts = (1, stride - 1, stride, stride + 1)
    needs_p2 = maxrun > 2
    src: list[str] = []
    emit = src.append

    # moves(own, opp): for each direction fill from own over opp, then step once more.
    emit(f"def moves(own, opp, playable={playable}):")
    emit("    m = 0")
    for s in shifts:
        if needs_p2:
            emit(f"    q = opp & (opp << {s})")
        for op in ("<<", ">>"):
            if op == ">>" and needs_p2:
                emit(f"    q >>= {s}")
            for line in _fill_code("t", "own", "opp", "q", op, s, maxrun):
                emit("    " + line)
            emit(f"    m |= t {op} {s}")
    emit("    return m & ~(own | opp) & playable")
    emit("")

    # flips(bit, own, opp): walk each ray from the single bit, early exits.
    emit("def flips(bit, own, opp):")
    emit("    f = 0")
    for s in shifts:
        for op in ("<<", ">>"):
            emit(f"    x = (bit {op} {s}) & opp")
            emit("    if x:")
            emit("        t = x")
            emit(f"        x = (x {op} {s}) & opp")
            emit("        while x:")
            emit("            t |= x")
            emit(f"            x = (x {op} {s}) & opp")
            emit(f"        if (t {op} {s}) & own:")
            emit("            f |= t")
    emit("    return f")
    emit("")

    # flips_lanes(mv, own, opp, add, guard): lane-parallel flips of one move bit
    # per lane (see games.rules.perft).  In each direction r is the run of opp after
    # mv; it flips in the lanes where the square after the run is own.  Those
    # lanes are selected without a branch: adding 2**size - 1 to each lane
    # carries into its guard bit (bit ``size``) exactly when the lane's end
    # test is non-zero, and t - (t >> size) turns each guard bit into a mask
    # of its lane's board bits.
    size = height * stride
    emit("def flips_lanes(mv, own, opp, add, guard):")
    emit("    f = 0")
    for s in shifts:
        if needs_p2:
            emit(f"    q = opp & (opp << {s})")
        for op in ("<<", ">>"):
            if op == ">>" and needs_p2:
                emit(f"    q >>= {s}")
            for line in _fill_code("r", "mv", "opp", "q", op, s, maxrun):
                emit("    " + line)
            emit(f"    t = (((r {op} {s}) & own) + add) & guard")
            emit(f"    f |= r & (t - (t >> {size}))")
    emit("    return f")
    emit("")

    emit(f"def neighbours(bits, playable={playable}):")
    emit("    h = bits | (bits << 1) | (bits >> 1)")
    emit(f"    return (h | (h << {stride}) | (h >> {stride})) & ~bits & playable")
    emit("")

    code = "\n".join(src)
    namespace: dict = {}
    exec(compile(code, f"<games.rules.geometry {width}x{height}>", "exec"), namespace)
    # largest shift used: bounds the gap needed between lane-packed positions
    max_shift = 2 * (stride + 1) if needs_p2 and maxrun > 2 else stride + 1
    return namespace, code, max_shift


class Geometry:
    """The squares and precomputed masks of one board with its removed squares.

    Build it with :func:`get_geometry`; it is immutable and shared.  ``blocked``
    is a tuple of square names; it is not validated here (``Variant`` does that).
    """

    def __init__(self, board: str, blocked: tuple[str, ...] = ()):
        if board not in BOARDS:
            raise ValueError(f"unknown board {board!r}")
        self.board = board
        self.width, self.height = BOARDS[board]
        self.stride = self.width + 1
        #: number of bit positions a position can use
        self.size = self.height * self.stride
        self._names: dict[int, str] = {}
        self._index: dict[str, int] = {}
        for row in range(self.height):
            for col in range(self.width):
                i = row * self.stride + col
                name = f"{COLUMNS[col]}{row + 1}"
                self._names[i] = name
                self._index[name] = i
        grid = 0
        for i in self._names:
            grid |= 1 << i
        #: every square of the full rectangle, removed or not
        self.grid = grid
        cuts = 0
        if board == "octagon":
            for name in octagon_cut_names():
                cuts |= self.bit(name)
        self.cuts = cuts
        self.blocked = tuple(blocked)
        bm = 0
        for name in self.blocked:
            bm |= self.bit(name)
        self.blocked_mask = bm
        self.removed = cuts | bm
        self.playable = grid & ~self.removed
        self.playable_count = self.playable.bit_count()
        #: indices of the playable squares in board order (a1, b1, ..., then row 2)
        self.squares = tuple(i for i in sorted(self._names) if (self.playable >> i) & 1)
        w, h = self.width, self.height
        self.centre = self.mask_of_cells(
            [(w // 2 - 1, h // 2 - 1), (w // 2, h // 2 - 1), (w // 2 - 1, h // 2), (w // 2, h // 2)]
        )
        self.centre_block = self.mask_of_cells(
            [(c, r) for c in range(w // 2 - 2, w // 2 + 2) for r in range(h // 2 - 2, h // 2 + 2)]
        )
        #: the four corners in handicap order: top-left, bottom-right, top-right, bottom-left
        self.corner_cells = ((0, 0), (w - 1, h - 1), (w - 1, 0), (0, h - 1))
        self.corners = self.mask_of_cells(self.corner_cells) & self.playable
        self.edges = (
            self.mask_of_cells(
                [(c, r) for c in range(w) for r in range(h) if c in (0, w - 1) or r in (0, h - 1)]
            )
            & self.playable
        )
        ns, self.source, self.max_shift = _compile(w, h, self.stride, self.playable)
        self.moves = ns["moves"]
        self.flips = ns["flips"]
        self.flips_lanes = ns["flips_lanes"]
        self.neighbours = ns["neighbours"]

    # -- squares ---------------------------------------------------------
    def cell_index(self, col: int, row: int) -> int:
        return row * self.stride + col

    def cell(self, index: int) -> tuple[int, int]:
        """(col, row) of an index, both from 0."""
        return index % self.stride, index // self.stride

    def mask_of_cells(self, cells) -> int:
        m = 0
        for c, r in cells:
            m |= 1 << (r * self.stride + c)
        return m

    def square_index(self, name: str) -> int:
        """Index of a square name such as ``"d3"`` (any square of the rectangle,
        removed or not); ``ValueError`` for a name not on the board."""
        try:
            return self._index[name.strip().lower()]
        except (KeyError, AttributeError):
            raise ValueError(f"{name!r} is not a square of the {self.board} board") from None

    def square_name(self, index: int) -> str:
        return self._names[index]

    def bit(self, name: str) -> int:
        return 1 << self.square_index(name)

    def is_playable(self, name: str) -> bool:
        try:
            return bool(self.playable & self.bit(name))
        except ValueError:
            return False

    def indices(self, mask: int) -> list[int]:
        """Indices of the set bits of ``mask``, in board order."""
        out = []
        while mask:
            b = mask & -mask
            out.append(b.bit_length() - 1)
            mask ^= b
        return out

    def names(self, mask: int) -> list[str]:
        """Square names of the set bits of ``mask``, in board order."""
        names = self._names
        return [names[i] for i in self.indices(mask)]

    def mask(self, names) -> int:
        m = 0
        for name in names:
            m |= self.bit(name)
        return m

    def empty(self, occupied: int) -> int:
        return self.playable & ~occupied

    def twin(self, name: str) -> str:
        """The square a 180° turn of the board maps ``name`` to."""
        return self.transform_name(name, 2)

    # -- symmetries ------------------------------------------------------
    def transform_index(self, index: int, k: int) -> int:
        """Apply symmetry ``k`` (0-7, see SYMMETRIES) to a square index."""
        c, r = self.cell(index)
        c2, r2 = SYMMETRIES[k][1](c, r, self.width)
        return r2 * self.stride + c2

    def transform_name(self, name: str, k: int) -> str:
        return self._names[self.transform_index(self.square_index(name), k)]

    def transform_bits(self, mask: int, k: int) -> int:
        out = 0
        for i in self.indices(mask):
            out |= 1 << self.transform_index(i, k)
        return out

    def __repr__(self) -> str:
        extra = f", blocked={self.blocked!r}" if self.blocked else ""
        return f"Geometry({self.board!r}{extra})"


@lru_cache(maxsize=256)
def get_geometry(board: str, blocked: tuple[str, ...] = ()) -> Geometry:
    """The shared geometry of ``board`` with the given removed squares."""
    return Geometry(board, tuple(blocked))
