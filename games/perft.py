"""Perft: count the leaves of the game tree to a fixed depth.

A pass is one ply, and a game that ends before the depth is one leaf.  The
last ply is bulk-counted (the leaves below a position at depth 1 are its
number of legal moves, or 1 for a pass or a finished game); there is no
transposition table.

How it is fast in pure Python
-----------------------------
Python spends its time per bytecode, not per bit, so ``perft`` works on many
positions at once: a *batch* packs the positions of one tree level side by
side in a single int, one lane of ``lane_bits`` bits per position (the board
bits plus a gap wider than the longest shift, so no shift carries a stone into
the next lane).  The generated ``Geometry.moves`` and ``Geometry.flips_many``
are written with shifts and masks only, so they run unchanged on a batch; the
playable mask is simply repeated once per lane.  Per level the Python-level
work is one batch move generation, one batch flip computation and a short
loop per child that writes its move bit into a new lane.  Batches are capped at
:data:`BATCH` lanes and explored depth first, so memory stays small at any
depth.  The last ply adds up the bits of the batch's move masks (``bit_count``)
plus one for each lane without a move, found with a guard-bit carry trick.

:func:`perft_plain` is the ordinary depth-first bitboard perft on the same
primitives, kept as the baseline the benchmark compares against.
"""

from __future__ import annotations

import time

from .board import Board
from .variant import Variant

__all__ = ["perft", "perft_plain", "divide", "Lanes", "BATCH"]

#: most positions packed into one batch
BATCH = 4096


class Lanes:
    """Lane constants of one geometry (cached on the geometry object)."""

    def __init__(self, g):
        self.g = g
        self.size = g.size  # board bits per lane; bit ``size`` is the lane's guard bit
        self.lane_bytes = (g.size + g.max_shift + 7) // 8
        self.lane_bits = 8 * self.lane_bytes
        lb = self.lane_bytes
        self.playable_lane = g.playable.to_bytes(lb, "little")
        self.add_lane = ((1 << g.size) - 1).to_bytes(lb, "little")
        self.guard_lane = (1 << g.size).to_bytes(lb, "little")
        self.zero_lane = bytes(lb)
        self.bit_bytes = {1 << i: (1 << i).to_bytes(lb, "little") for i in g.squares}
        self._rep: dict[int, tuple[int, int, int]] = {}

    def repeated(self, n: int) -> tuple[int, int, int]:
        """(playable, add, guard) masks repeated over ``n`` lanes."""
        r = self._rep.get(n)
        if r is None:
            r = self._rep[n] = (
                int.from_bytes(self.playable_lane * n, "little"),
                int.from_bytes(self.add_lane * n, "little"),
                int.from_bytes(self.guard_lane * n, "little"),
            )
        return r


def lanes_of(g) -> Lanes:
    lanes = g.__dict__.get("_lanes")
    if lanes is None:
        lanes = g._lanes = Lanes(g)
    return lanes


# -- two players -------------------------------------------------------------------


def _batch2(L: Lanes, P: int, O: int, n: int, depth: int) -> int:
    """Leaves ``depth`` >= 1 plies below ``n`` lane-packed positions, ``P`` to move."""
    g = L.g
    moves = g.moves
    flips_lanes = g.flips_lanes
    lb = L.lane_bytes
    nb = n * lb
    playable, add, guard = L.repeated(n)
    M = moves(P, O, playable)
    if depth == 1:
        return M.bit_count() + n - ((M + add) & guard).bit_count()

    Pb = P.to_bytes(nb, "little")
    Ob = O.to_bytes(nb, "little")
    Mb = M.to_bytes(nb, "little")
    from_bytes = int.from_bytes
    bit_bytes = L.bit_bytes
    zero = L.zero_lane
    owns: list[bytes] = []
    opps: list[bytes] = []
    mvs: list[bytes] = []
    leaves = 0
    for lo in range(0, nb, lb):
        hi = lo + lb
        m = from_bytes(Mb[lo:hi], "little")
        if m:
            k = m.bit_count()
            owns.append(Pb[lo:hi] * k)
            opps.append(Ob[lo:hi] * k)
            while m:
                b = m & -m
                mvs.append(bit_bytes[b])
                m ^= b
        else:
            p = from_bytes(Pb[lo:hi], "little")
            o = from_bytes(Ob[lo:hi], "little")
            if moves(o, p):  # pass: the child is the same position, other side to move
                owns.append(Pb[lo:hi])
                opps.append(Ob[lo:hi])
                mvs.append(zero)
            else:  # finished game: one leaf
                leaves += 1
    own_all = b"".join(owns)
    opp_all = b"".join(opps)
    mv_all = b"".join(mvs)
    count = len(mvs)
    step = BATCH * lb
    for lo in range(0, count * lb, step):
        hi = lo + step
        own = from_bytes(own_all[lo:hi], "little")
        opp = from_bytes(opp_all[lo:hi], "little")
        mv = from_bytes(mv_all[lo:hi], "little")
        k = min(BATCH, count - lo // lb)
        f = flips_lanes(mv, own, opp, *L.repeated(k)[1:])
        leaves += _batch2(L, opp & ~f, own | f | mv, k, depth - 1)
    return leaves


# -- three or four players ---------------------------------------------------------------


def _batchn(L: Lanes, cs: list[int], N: int, n: int, depth: int) -> int:
    """Like _batch2 for 3-4 players: ``cs`` are the colours in turn order from
    the side to move, ``N`` the neutral stones."""
    g = L.g
    moves = g.moves
    flips_lanes = g.flips_lanes
    neighbours = g.neighbours
    lb = L.lane_bytes
    nb = n * lb
    size = L.size
    playable, add, guard = L.repeated(n)
    occ = N
    for c in cs:
        occ |= c
    own = cs[0]
    M = moves(own, occ ^ own, playable)
    # lanes with no flipping move place next to any stone instead
    has = (((M + add) & guard) >> size) * ((1 << size) - 1)
    M |= neighbours(occ, playable) & ~occ & ~has
    if depth == 1:
        return M.bit_count() + n - ((M + add) & guard).bit_count()

    from_bytes = int.from_bytes
    colour_bytes = [c.to_bytes(nb, "little") for c in cs]
    Nb = N.to_bytes(nb, "little")
    Mb = M.to_bytes(nb, "little")
    bit_bytes = L.bit_bytes
    parts: list[list[bytes]] = [[] for _ in cs]
    nparts: list[bytes] = []
    mvs: list[bytes] = []
    leaves = 0
    for lo in range(0, nb, lb):
        hi = lo + lb
        m = from_bytes(Mb[lo:hi], "little")
        if not m:
            leaves += 1  # no empty square touches a stone: the game is over
            continue
        k = m.bit_count()
        for part, cb in zip(parts, colour_bytes):
            part.append(cb[lo:hi] * k)
        nparts.append(Nb[lo:hi] * k)
        while m:
            b = m & -m
            mvs.append(bit_bytes[b])
            m ^= b
    alls = [b"".join(p) for p in parts]
    n_all = b"".join(nparts)
    mv_all = b"".join(mvs)
    count = len(mvs)
    step = BATCH * lb
    for lo in range(0, count * lb, step):
        hi = lo + step
        c = [from_bytes(a[lo:hi], "little") for a in alls]
        nt = from_bytes(n_all[lo:hi], "little")
        mv = from_bytes(mv_all[lo:hi], "little")
        own = c[0]
        k = min(BATCH, count - lo // lb)
        f = flips_lanes(mv, own, nt | _union(c[1:]), *L.repeated(k)[1:])
        keep = ~f
        nxt = [x & keep for x in c[1:]]
        nxt.append(own | f | mv)
        leaves += _batchn(L, nxt, nt & keep, k, depth - 1)
    return leaves


def _union(xs) -> int:
    u = 0
    for x in xs:
        u |= x
    return u


# -- entry points ------------------------------------------------------------------------


def _as_board(position) -> Board:
    if isinstance(position, Board):
        return position.copy()
    if isinstance(position, Variant):
        return Board(position)
    raise TypeError("perft needs a Board or a Variant")


def perft(position, depth: int) -> int:
    """Number of leaves ``depth`` plies below ``position`` (a Board or a Variant,
    meaning its start)."""
    board = _as_board(position)
    return _perft(board, depth)


def _perft(board: Board, depth: int) -> int:
    if depth == 0 or board.is_game_over():
        return 1
    g = board.geometry
    if board.variant.free_opening and g.centre & ~board.occupied:
        # the free opening's placements: few, so walk them with the Board
        total = 0
        for m in board.legal_moves:
            board.push(m)
            total += _perft(board, depth - 1)
            board.pop()
        return total
    L = lanes_of(g)
    bits = board.bits
    t = board.turn_index
    if len(bits) == 2:
        return _batch2(L, bits[t], bits[1 - t], 1, depth)
    cs = list(bits[t:] + bits[:t])
    return _batchn(L, cs, board.neutral, 1, depth)


def divide(position, depth: int) -> dict[str, int]:
    """Perft below each legal move of ``position``: {move: leaves}."""
    board = _as_board(position)
    out = {}
    for m in board.legal_moves:
        board.push(m)
        out[m] = _perft(board, depth - 1)
        board.pop()
    return out


def perft_plain(position, depth: int) -> int:
    """The ordinary depth-first bitboard perft (one position at a time, bulk
    counting at the last ply), for comparison.  Two-player normal play only;
    other positions fall back to the Board."""
    board = _as_board(position)
    v = board.variant
    if v.players != 2 or (v.free_opening and board.geometry.centre & ~board.occupied):
        return _perft_board(board, depth)
    if depth == 0:
        return 1
    g = board.geometry
    t = board.turn_index
    moves, flips = g.moves, g.flips

    def rec(own: int, opp: int, depth: int, passed: bool) -> int:
        m = moves(own, opp)
        if depth == 1:
            return m.bit_count() or 1
        if not m:
            if passed:
                return 1
            if not moves(opp, own):
                return 1
            return rec(opp, own, depth - 1, True)
        total = 0
        while m:
            b = m & -m
            m ^= b
            f = flips(b, own, opp)
            total += rec(opp & ~f, own | f | b, depth - 1, False)
        return total

    return rec(board.bits[t], board.bits[1 - t], depth, False)


def _perft_board(board: Board, depth: int) -> int:
    if depth == 0:
        return 1
    moves = board.legal_moves
    if not moves:
        return 1
    total = 0
    for m in moves:
        board.push(m)
        total += _perft_board(board, depth - 1)
        board.pop()
    return total


def timed(fn, *args) -> tuple[object, float, float]:
    """(result, wall seconds, process CPU seconds) of ``fn(*args)``."""
    w, c = time.perf_counter(), time.process_time()
    result = fn(*args)
    return result, time.perf_counter() - w, time.process_time() - c
