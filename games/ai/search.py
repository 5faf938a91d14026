"""Two-player heuristic search: principal-variation search (negamax alpha-beta
with null windows), iterative deepening, a transposition table, and move
ordering (table move, then fastest-first / corner-first keys).

Values are centi-discs for the side to move (see ``evaluation.py``).  A
finished game is worth ``100 * disc difference`` plus ``WIN`` for a win (minus
for a loss), so a sure win always beats a positional advantage.

Two budgets stop a search: ``deadline`` (a ``clock.now()`` value; the
search raises ``Timeout`` between nodes, and iterative deepening keeps the
result of the last finished depth) and the fixed ``depth`` of depth-limited
modes (Easy, Normal), which therefore are deterministic.

With ``native`` (``core.native_evaluator``, the compiled twin of the
evaluation) ``root`` runs in the compiled core: at a fixed depth the same
value and move as here (tests/ai/test_core_search.py), its table bounded (48 MiB).
"""

from __future__ import annotations

from . import clock

from .bitboard import Tables
from .core import core_for
from .ordering import move_priority
from .endgame import Timeout, final_score

WIN = 100_000
INF = 10**9
TABLE_MIN = 2     # MID_TT_MIN in _core.c: the compiled search's table from 2 plies up
TABLE_BITS = 20   # MID_TT_BITS in _core.c
_M64 = (1 << 64) - 1


def table_slot(P: int, O: int) -> int:
    """The slot of a position in the compiled search's table (``position_index``
    in _core.c).  A selective search's values depend on what its table holds,
    so with cut-offs the Python search keeps the same table: a slot per index,
    the last position stored there replacing the one before, from TABLE_MIN
    plies up.  A full-width search's values do not, so without cut-offs it
    keeps every position from 1 ply up, which saves it nodes and time."""
    h = ((P & _M64) * 0x9E3779B97F4A7C15 ^ (P >> 64) * 0xC2B2AE3D27D4EB4F
         ^ (O & _M64) * 0x165667B19E3779F9 ^ (O >> 64) * 0xD6E8FEB86659FD93) & _M64
    h ^= h >> 32
    return ((h * 0x9E3779B97F4A7C15) & _M64) >> (64 - TABLE_BITS)


def terminal_value(P: int, O: int, empties: int, anti: bool) -> int:
    d = final_score(P, O, empties, anti)
    if d > 0:
        return 100 * d + WIN
    if d < 0:
        return 100 * d - WIN
    return 0


def to_stones(v: float) -> float:
    """Convert a search value to stones (disc difference for the mover)."""
    if v >= WIN:
        return (v - WIN) / 100
    if v <= -WIN:
        return (v + WIN) / 100
    return v / 100


class Searcher:
    """Alpha-beta/PVS over one geometry.  Reuse an instance to keep its table."""

    def __init__(self, geo: Tables, evaluate, *, anti: bool = False, compiled: bool = True, native=None,
                 cuts=None):
        self.geo = geo
        self.cuts = cuts  # probcut.Cuts: probability cut-offs (Hard), None: a full-width search
        self.compiled = compiled  # move generation by the compiled core when it is built
        self.evaluate = evaluate
        # ``core.native_evaluator`` of the same evaluation: root() searches in C
        self.native = native if compiled else None
        self._table = native.new_table() if self.native is not None else 0
        self.anti = anti
        # table_slot, or (P, O) in a full-width search -> (P, O, depth, lower bound, upper bound, best square)
        self.tt: dict = {}
        self.nodes = 0
        self.deadline: float | None = None
        self._build()

    def _build(self) -> None:
        geo = self.geo
        # the compiled core's move generation when built (the same masks, tests/ai/test_core.py)
        fast = core_for(geo, False) if self.compiled else None
        moves = fast.moves if fast else geo.moves
        flips = fast.flips_bit if fast else geo.flips
        playable = geo.playable
        evaluate = self.evaluate
        anti = self.anti
        tt = self.tt
        me = self
        monotonic = clock.now
        static = move_priority(geo, anti)
        cut_entry = self.cuts.entry if self.cuts is not None else None
        table_min = 1 if cut_entry is None else TABLE_MIN
        half = WIN // 2

        def children(P, O, mv, tt_move, depth):
            cand = []
            while mv:
                b = mv & -mv
                mv ^= b
                sq = b.bit_length() - 1
                f = flips(b, P, O)
                nP = P | f | b
                nO = O ^ f
                if sq == tt_move:
                    k = -10_000
                elif depth >= 3:
                    k = moves(nO, nP).bit_count() * 10 + static[sq]
                else:
                    k = static[sq]
                cand.append((k, sq, nP, nO))
            cand.sort()
            return cand

        def pvs(P, O, depth, alpha, beta, passed):
            me.nodes += 1
            if not me.nodes & 255 and me.deadline is not None and monotonic() > me.deadline:
                raise Timeout
            if depth <= 0:
                mv = moves(P, O)
                if mv or moves(O, P):
                    return evaluate(P, O)
                return terminal_value(P, O, (playable & ~(P | O)).bit_count(), anti)
            key = None if depth < table_min else (P, O) if cut_entry is None else table_slot(P, O)
            entry = tt.get(key)
            tt_move = -1
            if entry is not None and entry[0] == P and entry[1] == O:
                _, _, d, lo, hi, tt_move = entry
                if d >= depth:
                    if lo >= beta:
                        return lo
                    if hi <= alpha:
                        return hi
                    if lo == hi:
                        return lo
            if cut_entry is not None:
                shallow, above, below = cut_entry((playable & ~(P | O)).bit_count(), depth)
                if shallow >= 0:
                    # a shallow search sure enough that this node fails high (or low)
                    if -half < beta and beta + above < half:
                        bound = beta + above
                        if pvs(P, O, shallow, bound - 1, bound, passed) >= bound:
                            return beta
                    if alpha < half and alpha - below > -half:
                        bound = alpha - below
                        if pvs(P, O, shallow, bound, bound + 1, passed) <= bound:
                            return alpha
            mv = moves(P, O)
            if not mv:
                if passed or not moves(O, P):
                    return terminal_value(P, O, (playable & ~(P | O)).bit_count(), anti)
                return -pvs(O, P, depth, -beta, -alpha, True)
            alpha0 = alpha
            best = -INF
            best_sq = -1
            first = True
            for _, sq, nP, nO in children(P, O, mv, tt_move, depth):
                if first:
                    v = -pvs(nO, nP, depth - 1, -beta, -alpha, False)
                    first = False
                else:
                    v = -pvs(nO, nP, depth - 1, -alpha - 1, -alpha, False)
                    if alpha < v < beta:
                        v = -pvs(nO, nP, depth - 1, -beta, -v, False)
                if v > best:
                    best = v
                    best_sq = sq
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            if key is not None:
                tt[key] = (P, O, depth, -INF if best <= alpha0 else best, INF if best >= beta else best, best_sq)
            return best

        self._pvs = pvs
        self._children = children

    # ------------------------------------------------------------------ API
    def root(self, P: int, O: int, depth: int, alpha: int = -INF, beta: int = INF,
             first_move: int = -1) -> tuple[int, int]:
        """Search to ``depth``; returns (value, best square).  Needs a legal move."""
        if self.native is not None and alpha == -INF and beta == INF:
            return self._native_root(P, O, depth, first_move)
        mv = self.geo.moves(P, O)
        assert mv, "root() needs a position with a legal move"
        key = (P, O) if self.cuts is None else table_slot(P, O)
        entry = self.tt.get(key)
        tt_move = first_move if first_move >= 0 else (entry[5] if entry and entry[:2] == (P, O) else -1)
        cand = self._children(P, O, mv, tt_move, max(depth, 3))
        best, best_sq = -INF, cand[0][1]
        first = True
        pvs = self._pvs
        for _, sq, nP, nO in cand:
            if first:
                v = -pvs(nO, nP, depth - 1, -beta, -alpha, False)
                first = False
            else:
                v = -pvs(nO, nP, depth - 1, -alpha - 1, -alpha, False)
                if alpha < v < beta:
                    v = -pvs(nO, nP, depth - 1, -beta, -v, False)
            if v > best:
                best, best_sq = v, sq
                self._partial = (best, best_sq)
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        self.tt[key] = (P, O, depth, best, best if best < beta else INF, best_sq)
        return best, best_sq

    def _native_root(self, P: int, O: int, depth: int, first_move: int) -> tuple[int, int]:
        seconds = 0.0
        if self.deadline is not None:
            seconds = max(1e-9, self.deadline - clock.now())
        value, best, nodes, finished, partial = self.native.root(P, O, depth, first_move, self._table, seconds,
                                                                 clock.cpu_clock(),
                                                                 self.cuts.table if self.cuts is not None else None)
        self.nodes += nodes
        if partial is not None:
            self._partial = partial
        if not finished:
            raise Timeout
        return value, best

    def iterate(self, P: int, O: int, *, max_depth: int = 64, deadline: float | None = None,
                min_depth: int = 1) -> tuple[int, int, int]:
        """Iterative deepening; returns (value, best square, depth completed).

        With a deadline, stops when the next depth is unlikely to finish; an
        interrupted depth still counts if its first (previous best) move was
        searched and another move beat it.
        """
        self.deadline = None
        value, best, done = 0, -1, 0
        last_iter = 0.0
        for depth in range(1, max_depth + 1):
            self.deadline = deadline if depth > min_depth else None
            t0 = clock.now()
            if deadline is not None and depth > min_depth:
                remaining = deadline - t0
                # branching estimate: an iteration costs ~3x the previous one
                if remaining < last_iter * 1.5:
                    break
            self._partial = None
            try:
                value, best = self.root(P, O, depth, first_move=best)
                done = depth
            except Timeout:
                if self._partial is not None and best >= 0:
                    pv, psq = self._partial
                    if psq != best:
                        value, best = pv, psq
                break
            last_iter = clock.now() - t0
            if abs(value) >= WIN:  # game-theoretic result found
                break
        self.deadline = None
        return value, best, done

    def move_values(self, P: int, O: int, depth: int) -> list[tuple[int, int]]:
        """Value of every legal move searched to ``depth``, best first (each
        reply searched in C when the core is built and the opponent can move:
        the same values)."""
        out = []
        moves = self.geo.moves
        for _, sq, nP, nO in self._children(P, O, moves(P, O), -1, 0):
            if self.native is not None and depth > 1 and moves(nO, nP):
                out.append((sq, -self._native_root(nO, nP, depth - 1, -1)[0]))
            else:
                out.append((sq, -self._pvs(nO, nP, depth - 1, -INF, INF, False)))
        out.sort(key=lambda t: -t[1])
        return out
