"""Perft: count the leaves of the game tree to a fixed depth.

A pass is one ply, and a game that ends before the depth is one leaf.  The
last ply is bulk-counted (the leaves below a position at depth 1 are its
number of legal moves, or 1 for a pass or a finished game); there is no
transposition table.

How it is fast in pure Python
-----------------------------
Python spends its time per bytecode, not per bit, so ``perft`` works on many
positions at once: a *batch* packs positions side by side in one int, one
lane of ``Lanes.lane_bytes`` bytes per position (the board bits, a guard bit,
and a gap wider than the longest shift, so no shift carries a stone into the
next lane).  The generated ``Geometry.moves`` (and ``neighbours``) use shifts
and masks only, so they run unchanged on a batch with the playable mask
repeated once per lane; ``Geometry.flips_lanes`` computes every lane's flips
for one move bit per lane.  A level costs a fixed number of big-int operations
per batch, and the children of a batch are laid out by C-level bytes
operations (``Lanes.expand``), so no Python code runs per move.  Batches hold
at most :data:`BATCH` lanes and are explored depth first, so memory stays small
at any depth.  The last ply adds up the move bits of the whole batch
(``int.bit_count``) plus one for each lane without a move (a pass or a finished
game), counted with a guard-bit carry: adding ``2**size - 1`` to a lane carries
into its guard bit exactly when the lane is not empty.

:func:`perft_plain` is the ordinary depth-first bitboard perft on the same
primitives, kept as the baseline the benchmark compares against.
"""

from __future__ import annotations

import time
from functools import lru_cache
from itertools import cycle

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
        self.lane_bytes = lb = (g.size + g.max_shift + 7) // 8
        self.playable_lane = g.playable.to_bytes(lb, "little")
        self.add_lane = ((1 << g.size) - 1).to_bytes(lb, "little")
        self.guard_lane = (1 << g.size).to_bytes(lb, "little")
        self.zero_lane = bytes(lb)
        self.lane_ones = int.from_bytes(b"\x01" * lb, "little")
        # one_hot[j][v]: one lane per set bit of the value v at byte j of a lane,
        # holding just that bit
        self.one_hot = [
            [b"".join((1 << (8 * j + t)).to_bytes(lb, "little") for t in range(8) if v >> t & 1) for v in range(256)]
            for j in range(lb)
        ]
        self._rep: dict[int, tuple[int, int, int]] = {}
        self._slices: dict[int, list[slice]] = {}

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

    def expand(self, Mb: bytes, n: int, parts) -> tuple[list[bytes], bytes, bytes]:
        """Children of ``n`` lanes whose move masks are ``Mb`` (lane-packed bytes).

        Returns each of ``parts`` (lane-packed bytes of the same lanes) with
        every lane repeated once per move, the matching one-hot move lanes, and
        the number of moves of each lane (one byte per lane).  Everything runs
        in C: popcounts by ``bytes.translate``; one multiplication sums each
        lane's bytes into its top byte; ``map`` repeats and ``join`` packs.
        """
        lb = self.lane_bytes
        nb = n * lb
        counts = (int.from_bytes(Mb.translate(_POPCOUNT), "little") * self.lane_ones).to_bytes(nb + lb, "little")
        counts = counts[lb - 1 : nb : lb]
        sl = self._slices.get(n)
        if sl is None:
            sl = self._slices[n] = [slice(lo, lo + lb) for lo in range(0, nb, lb)]
        repeated = [b"".join(map(bytes.__mul__, map(p.__getitem__, sl), counts)) for p in parts]
        moves = b"".join(map(list.__getitem__, cycle(self.one_hot), Mb))
        return repeated, moves, counts


_POPCOUNT = bytes(bin(i).count("1") for i in range(256))


@lru_cache(maxsize=64)
def lanes_of(g) -> Lanes:
    """The (cached) lane constants of geometry ``g``."""
    return Lanes(g)


# -- two players -------------------------------------------------------------------


def _batch2(L: Lanes, P: int, O: int, n: int, depth: int) -> int:
    """Leaves ``depth`` >= 1 plies below ``n`` lane-packed positions, ``P`` to move."""
    g = L.g
    moves = g.moves
    lb = L.lane_bytes
    nb = n * lb
    playable, add, guard = L.repeated(n)
    M = moves(P, O, playable)
    if depth == 1:
        return M.bit_count() + n - ((M + add) & guard).bit_count()

    Pb = P.to_bytes(nb, "little")
    Ob = O.to_bytes(nb, "little")
    (own_all, opp_all), mv_all, counts = L.expand(M.to_bytes(nb, "little"), n, (Pb, Ob))
    leaves = 0
    if 0 in counts:
        # no move: a pass (the same position, other side to move, move lane 0)
        # if the opponent can move, else a finished game, which is one leaf
        passes = []
        i = counts.find(0)
        while i >= 0:
            lane = slice(i * lb, i * lb + lb)
            if moves(int.from_bytes(Ob[lane], "little"), int.from_bytes(Pb[lane], "little")):
                passes.append(lane)
            else:
                leaves += 1
            i = counts.find(0, i + 1)
        if passes:
            own_all += b"".join(Pb[lane] for lane in passes)
            opp_all += b"".join(Ob[lane] for lane in passes)
            mv_all += L.zero_lane * len(passes)
    flips_lanes = g.flips_lanes
    from_bytes = int.from_bytes
    total = len(mv_all)
    step = BATCH * lb
    for lo in range(0, total, step):
        hi = lo + step
        own = from_bytes(own_all[lo:hi], "little")
        opp = from_bytes(opp_all[lo:hi], "little")
        mv = from_bytes(mv_all[lo:hi], "little")
        k = min(step, total - lo) // lb
        _, add, guard = L.repeated(k)
        f = flips_lanes(mv, own, opp, add, guard)
        leaves += _batch2(L, opp & ~f, own | f | mv, k, depth - 1)
    return leaves


# -- three or four players ---------------------------------------------------------------


def _batchn(L: Lanes, cs: list[int], N: int, n: int, depth: int) -> int:
    """Like _batch2 for 3-4 players: ``cs`` are the colours in turn order from
    the side to move, ``N`` the neutral stones.  Nobody passes: a lane without
    a flipping move places next to any stone, and a lane without that is a
    finished game."""
    g = L.g
    lb = L.lane_bytes
    nb = n * lb
    size = L.size
    playable, add, guard = L.repeated(n)
    occ = N
    for c in cs:
        occ |= c
    own = cs[0]
    M = g.moves(own, occ ^ own, playable)
    t = (M + add) & guard  # guard bits of the lanes with a flipping move
    M |= g.neighbours(occ, playable) & ~occ & ~(t - (t >> size))
    if depth == 1:
        return M.bit_count() + n - ((M + add) & guard).bit_count()

    parts = [c.to_bytes(nb, "little") for c in cs]
    parts.append(N.to_bytes(nb, "little"))
    alls, mv_all, counts = L.expand(M.to_bytes(nb, "little"), n, parts)
    leaves = counts.count(0)
    flips_lanes = g.flips_lanes
    from_bytes = int.from_bytes
    total = len(mv_all)
    step = BATCH * lb
    for lo in range(0, total, step):
        hi = lo + step
        *c, nt = [from_bytes(a[lo:hi], "little") for a in alls]
        mv = from_bytes(mv_all[lo:hi], "little")
        k = min(step, total - lo) // lb
        _, add, guard = L.repeated(k)
        own = c[0]
        f = flips_lanes(mv, own, nt | _union(c[1:]), add, guard)
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

    def rec(own: int, opp: int, depth: int) -> int:
        m = moves(own, opp)
        if depth == 1:
            return m.bit_count() or 1  # a pass or a finished game is one leaf
        if not m:
            return rec(opp, own, depth - 1) if moves(opp, own) else 1
        total = 0
        while m:
            b = m & -m
            m ^= b
            f = flips(b, own, opp)
            total += rec(opp & ~f, own | f | b, depth - 1)
        return total

    return rec(board.bits[t], board.bits[1 - t], depth)


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
