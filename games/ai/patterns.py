"""Pattern features of two-player positions: the exact contents of lines and
corner regions, read from the bitboards with small lookup tables.

A *pattern* is an ordered list of squares; its *index* in a position is the
base-3 number whose digit ``j`` is the state of square ``j`` (0 empty, 1 the
mover's stone, 2 the opponent's).  A learned evaluation (``learned.py``)
holds one weight per pattern index and game stage and adds them up.

The shapes, drawn for the top-left corner of an ``n x n`` board
(``shapes(n)``), are the usual ones since Logistello: the edge with its two
X squares (the bare edge on 10x10, where edge + 2X would have 3^12 indices),
the 3x3 and 2x5 corner regions, the rows one to three in from the edge and
the diagonals of length 4 and up.  Every shape is turned by the board's eight
symmetries; the copies that cover the same squares are one *instance*, and all
instances of a shape share one weight table (a *class*), so a position and its
mirror image get the same value (the fitting also ties the indices a
symmetry maps onto each other within one instance, see ``canonical_maps``).

Removed squares: the octagon's cut corners are dropped from every shape (a
square that never holds a stone is a constant, it needs no digit); the cuts
are symmetric, so every instance of a class keeps the same size.  Blocked
squares are not symmetric, so a board with blocked squares has no pattern
set (``pattern_set`` returns None) and keeps the hand-made evaluation.

Speed (pure Python): each index is a sum of table look-ups, one per *line*
(row, column or diagonal) the pattern crosses.  A line's stones are gathered
into a compact number once per evaluation: a shift and a mask for rows, and a
multiplication by a "magic" constant for columns and diagonals (the line's
bits ``p0 + d*k`` land at ``SH + k`` without carries, since every partial
product has its own bit; it needs length <= d, true on every board here).
``PatternSet.compile`` writes this out as straight-line Python per geometry.
"""

from __future__ import annotations

from functools import cache

from games.rules.geometry import SYMMETRIES, get_geometry


def shapes(n: int) -> list[tuple[str, list[tuple[int, int]]]]:
    """Canonical shapes for an ``n x n`` board as (name, [(col, row), ...])."""
    out = []
    if n <= 8:
        out.append(("edge+2x", [(c, 0) for c in range(n)] + [(1, 1), (n - 2, 1)]))
    else:
        out.append(("edge", [(c, 0) for c in range(n)]))
    out.append(("corner3x3", [(c, r) for r in range(3) for c in range(3)]))
    out.append(("corner2x5", [(c, r) for r in range(2) for c in range(5)]))
    for r in range(1, min(4, n // 2)):
        out.append((f"row{r}", [(c, r) for c in range(n)]))
    out.append((f"diag{n}", [(k, k) for k in range(n)]))
    for length in range(n - 1, 3, -1):
        out.append((f"diag{length}", [(n - length + k, k) for k in range(length)]))
    return out


class PatternSet:
    """The pattern classes and instances of one (square, unblocked) geometry.

    ``classes``: list of (name, size, offset) -- a class's indices are
    ``offset .. offset + 3**size - 1`` in the flat feature space of
    ``features`` entries.  ``instances``: list of (class number, [square
    indices in digit order]).
    """

    def __init__(self, lib_geo):
        self.geo = lib_geo
        n = lib_geo.width
        playable = lib_geo.playable
        ok = lambda c, r: bool(playable >> lib_geo.cell_index(c, r) & 1)  # noqa: E731
        self.classes = []
        self.instances = []
        self.stabilisers = []   # per class: digit permutations that map the canonical instance onto itself
        offset = 0
        for name, cells in shapes(n):
            cells = [cell for cell in cells if ok(*cell)]
            cls = len(self.classes)
            self.classes.append((name, len(cells), offset))
            offset += 3 ** len(cells)
            canonical = [lib_geo.cell_index(c, r) for c, r in cells]
            seen = set()
            perms = set()
            for _, f in SYMMETRIES:
                squares = [lib_geo.cell_index(*f(c, r, n)) for c, r in cells]
                key = frozenset(squares)
                if key not in seen:
                    seen.add(key)
                    self.instances.append((cls, squares))
                if key == frozenset(canonical):
                    # a symmetry that maps the shape onto itself: digit j goes to digit perm[j]
                    perms.add(tuple(canonical.index(sq) for sq in squares))
            self.stabilisers.append(sorted(perms))
        self.features = offset
        self.evaluate_indices = self.compile()

    # -- a slow reference, square by square --------------------------------
    def indices_slow(self, P: int, O: int) -> list[int]:
        """Flat feature index of every instance (the mover owns ``P``)."""
        out = []
        for cls, squares in self.instances:
            idx = 0
            for j, s in enumerate(squares):
                if P >> s & 1:
                    idx += 3 ** j
                elif O >> s & 1:
                    idx += 2 * 3 ** j
            out.append(self.classes[cls][2] + idx)
        return out

    def canonical_maps(self) -> list[list[int]]:
        """Per class, ``canon[i]``: the smallest index a symmetry of the
        instance maps index ``i`` to.  Indices with the same ``canon`` describe
        mirror images of one configuration and get one weight."""
        maps = []
        for (name, size, _), perms in zip(self.classes, self.stabilisers):
            base = list(range(3 ** size))
            if len(perms) <= 1:
                maps.append(base)
                continue
            canon = base[:]
            for perm in perms:
                # digit j of the image is digit perm[j] of the original
                moved = [0]
                for j in range(size):
                    p = 3 ** perm[j]
                    moved = [m + d * p for d in range(3) for m in moved]
                # moved[i] enumerates images in the order of i's digits
                for i in range(3 ** size):
                    if moved[i] < canon[i]:
                        canon[i] = moved[i]
            # make canon idempotent (a representative's representative is itself)
            maps.append([min(canon[i], canon[canon[i]]) for i in range(3 ** size)])
        return maps

    # -- the fast path -------------------------------------------------------
    def _lines(self):
        """Every maximal line of the full grid as (start index, step, length)."""
        g = self.geo
        w, h, s = g.width, g.height, g.stride
        lines = []
        for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
            for r in range(h):
                for c in range(w):
                    pc, pr = c - dc, r - dr
                    if 0 <= pc < w and 0 <= pr < h:
                        continue  # not the start of a line
                    cells = []
                    cc, rr = c, r
                    while 0 <= cc < w and 0 <= rr < h:
                        cells.append(rr * s + cc)
                        cc += dc
                        rr += dr
                    if len(cells) >= 2 or (dc, dr) == (1, 0):
                        lines.append((cells[0], dr * s + dc, len(cells), cells))
        return lines

    def compile(self):
        """Generate ``indices(P, O) -> tuple of flat feature indices``."""
        lines = self._lines()
        used = {}       # line number -> variable suffix
        tables = {}
        body = []
        exprs = []
        for inst_no, (cls, squares) in enumerate(self.instances):
            remaining = set(squares)
            digit = {sq: j for j, sq in enumerate(squares)}
            terms = []
            first = True
            while remaining:
                # the line covering most of the remaining squares (rows first on ties)
                best = max(range(len(lines)),
                           key=lambda k: (len(remaining & set(lines[k][3])), -k))
                start, step, length, cells = lines[best]
                part = [k for k, sq in enumerate(cells) if sq in remaining]
                remaining -= {cells[k] for k in part}
                if best not in used:
                    used[best] = len(used)
                    v = used[best]
                    mask = (1 << length) - 1
                    if step == 1:
                        body.append(f"    p{v} = (P >> {start}) & {mask}")
                        body.append(f"    o{v} = (O >> {start}) & {mask}")
                    else:
                        m = sum(1 << (step * k) for k in range(length))
                        sh = (step - 1) * (length - 1)
                        magic = sum(1 << (sh - (step - 1) * j) for j in range(length))
                        body.append(f"    p{v} = ((P >> {start}) & {m}) * {magic} >> {sh} & {mask}")
                        body.append(f"    o{v} = ((O >> {start}) & {m}) * {magic} >> {sh} & {mask}")
                v = used[best]
                off = self.classes[cls][2] if first else 0
                first = False
                tp = [off] * (1 << length)
                to = [0] * (1 << length)
                for code in range(1 << length):
                    for k in part:
                        if code >> k & 1:
                            tp[code] += 3 ** digit[cells[k]]
                            to[code] += 2 * 3 ** digit[cells[k]]
                name = f"T{inst_no}_{len(terms)}"
                tables[name + "p"] = tuple(tp)
                tables[name + "o"] = tuple(to)
                terms.append(f"{name}p[p{used[best]}] + {name}o[o{used[best]}]")
            exprs.append(" + ".join(terms))
        self._body, self._exprs, self.tables = body, exprs, tables
        src = ["def indices(P, O):"] + body + ["    return ("] + [f"        {e}," for e in exprs] + ["    )"]
        self.source = "\n".join(src)
        namespace = dict(tables)
        exec(compile(self.source, f"<patterns {self.geo.board}>", "exec"), namespace)
        return namespace["indices"]

    def make_evaluator(self, stages, hand=None):
        """``evaluate(P, O)`` from ``stages[empties]``, a flat weight array per
        stage: the sum of the weights of every instance's index, plus the
        stage's constant (index ``features``: the value of having the move),
        plus, when ``hand`` is given, ``w[features + 1] / 1000`` times
        ``hand(P, O)`` (the hand-made evaluation as one more feature)."""
        squares = self.geo.playable_count
        f = self.features
        src = ["def evaluate(P, O):", f"    w = STAGES[{squares} - (P | O).bit_count()]"] + self._body
        src.append("    return (")
        src += [f"        {'+ ' if k else ''}w[{e}]" for k, e in enumerate(self._exprs)]
        src.append(f"        + w[{f}]")
        if hand is not None:
            src.append(f"        + w[{f + 1}] * HAND(P, O) // 1000")
        src.append("    )")
        namespace = dict(self.tables, STAGES=stages, HAND=hand)
        exec(compile("\n".join(src), f"<pattern evaluation {self.geo.board}>", "exec"), namespace)
        return namespace["evaluate"]


def pattern_set(lib_geo) -> PatternSet | None:
    """The pattern set of a square board without blocked squares, else None."""
    if lib_geo.width != lib_geo.height or lib_geo.blocked_mask:
        return None
    return _pattern_set(lib_geo.board)


@cache  # one per board, kept: boards with blocked squares (a geometry each game) never push it out
def _pattern_set(board: str) -> PatternSet:
    return PatternSet(get_geometry(board))
