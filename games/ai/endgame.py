"""Exact endgame solver for two players (any board shape, normal or anti).

Negamax alpha-beta with principal-variation (null-window) search on bitboards:

* ``n > SHALLOW`` empties: full move generation, fastest-first ordering (the
  move that leaves the opponent the fewest replies first, corners favoured,
  the transposition-table move before all), transposition table, PVS.
* ``n <= SHALLOW``: no move generation; the empty squares are tried directly,
  those in regions with an odd number of empties first (parity), with a
  hand-unrolled last-empty case that only counts flips.

Scores are the final disc difference for the side to move, empties going to
the winner (the usual Othello convention and the ``ffo.txt`` convention).  In
``anti`` the disc difference is the opponent's minus the mover's, stones as
they stand (empties are not added, docs/rules.md §4), so fewer stones is better.

A deadline (``clock.now()`` value) or a node budget (``max_nodes``, which
gives up at the same point however busy the machine is) makes the solver
raise ``Timeout`` between nodes; callers fall back to the heuristic search.
"""

from __future__ import annotations

from . import clock

from .bitboard import Tables

INF = 10_000
SHALLOW = 6


class Timeout(Exception):
    """Raised inside a search when its deadline has passed."""


def final_score(P: int, O: int, empties: int, anti: bool = False) -> int:
    """Final disc difference for the side owning ``P`` (docs/rules.md §4)."""
    d = P.bit_count() - O.bit_count()
    if anti:
        return -d
    if d > 0:
        return d + empties
    if d < 0:
        return d - empties
    return 0


def mtdf(probe, lo: int, hi: int, guess: int, move: int | None, solver, *,
         bisect: bool = False) -> tuple[int, int | None, int | None]:
    """MTD(f) between the proven bounds ``lo`` < value <= ``hi``, shared by both
    solvers: ``probe(t)`` answers (v, move) with v >= t exactly when the value is at
    least t. Starts from ``guess``; after each further fail-high the next question
    jumps twice as far (a bad guess costs few probes), and a fail-low after a jump
    asks half-way back. With ``bisect`` (the compiled solver, whose probes refute far
    more slowly than they prove), once one probe has failed low and one high, each
    next question is half-way between the bounds: a fail-low's bound alone often
    moves by one score step only. Each proven bound is kept in ``solver.proven``
    (what a timeout leaves). Returns (value, the move reaching it or ``move`` when
    none was proven, a move from a fail-low: the fallback when there is no other)."""
    fallback = move
    solver.proven = (lo, move)
    step, failed_low, failed_high = 1, False, False
    while lo < hi:
        if bisect and failed_low and failed_high:
            t = (lo + hi + 1) // 2
        else:
            t = lo + 1 if guess <= lo else hi if guess > hi else guess
        v, sq = probe(t)
        if v >= t:
            lo, move = v, sq
            solver.proven = (lo, move)
            guess = v + step
            step *= 2
            failed_high = True
        else:
            hi = v
            guess = v if step == 1 else (lo + v + 1) // 2
            step = 1
            failed_low = True
            if fallback is None:
                fallback = sq
    return lo, move, fallback


class EndgameSolver:
    """Exact solver; one instance may be reused (its table is kept)."""

    def __init__(self, geo: Tables, *, anti: bool = False, deadline: float | None = None,
                 max_nodes: int | None = None):
        self.geo = geo
        self.anti = anti
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.next_check = 0
        self.tt: dict = {}
        self.proven: tuple[int, int | None] = (-INF, None)
        self._build()

    # ------------------------------------------------------------------ API
    def solve(self, P: int, O: int, alpha: int = -INF, beta: int = INF) -> tuple[int, int | None]:
        """Exact value of the position for the mover and a best move (index).

        ``None`` as move means the mover must pass (or the game is over).
        """
        return self._root(P, O, alpha, beta)

    def value(self, P: int, O: int) -> int:
        """Exact value of the position for the mover (``solve`` without the move)."""
        return self._root(P, O, -INF, INF)[0]

    def solve_exact(self, P: int, O: int, guess: int = 0, lo: int = -INF, hi: int = INF,
                    move: int | None = None) -> tuple[int, int | None]:
        """Exact value and a best move, like ``solve``, by null-window probes
        only (MTD(f)): each asks whether the value is at least ``t``, from
        ``t = guess`` on, and moves the bounds (galloping upwards after
        repeated fail-highs); the table carries the work from one probe to
        the next.  Fewer nodes than a full window when the guess is near.
        ``lo``/``hi`` are bounds already proven (``move`` a move reaching
        ``lo``), e.g. by a win/draw/loss solve.  On a timeout,
        ``self.proven`` is the best (lower bound, move) proven so far."""
        top = self.top
        lo, move, fallback = mtdf(lambda t: self._root(P, O, t - 1, t), max(lo, -top), min(hi, top), guess, move,
                                  self)
        return lo, (move if move is not None else fallback)

    def solve_from_guess(self, P: int, O: int, guess: int) -> tuple[int, int | None]:
        """Exact value and a best move, like ``solve``: win/draw/loss first (a
        null window around 0, several times faster than the exact score), then
        ``solve_exact`` from ``guess`` (e.g. a heuristic search's value) on the
        same table.  On a timeout, ``self.proven`` is the best (lower bound,
        move) proven so far: a win or draw once win/draw/loss is done."""
        self.proven = (-INF, None)
        wld, sq = self._root(P, O, -1, 1)
        if wld == 0:
            return 0, sq
        if wld > 0:
            return self.solve_exact(P, O, guess, wld, INF, sq)
        # a loss: any move reaches the lowest bound, so none is left without one
        return self.solve_exact(P, O, guess, -INF, wld, sq)

    def solve_moves(self, P: int, O: int) -> list[tuple[int, int]]:
        """Exact value of every legal move, best first (slower than ``solve``)."""
        geo = self.geo
        out = []
        mv = geo.moves(P, O)
        n = (geo.playable & ~(P | O)).bit_count()
        while mv:
            b = mv & -mv
            mv ^= b
            sq = b.bit_length() - 1
            f = geo.flips(b, P, O)
            v = -self._search(O ^ f, P | f | b, -INF, INF, n - 1, False)
            out.append((sq, v))
        out.sort(key=lambda t: -t[1])
        return out

    # -------------------------------------------------------------- compiled
    def _build(self) -> None:
        geo = self.geo
        moves = geo.moves
        flips_at = geo.flips_at  # flips_at[sq](own, opp) == flips(1 << sq, own, opp)
        NB = geo.neighbours
        corners = geo.corners
        x_squares = geo.x_squares
        region_of = geo.region_of
        playable = geo.playable
        anti = self.anti
        tt = self.tt
        solver = self
        monotonic = clock.now
        top = self.top = playable.bit_count()

        prio = geo.shallow_priority

        def final(P, O, n):
            d = P.bit_count() - O.bit_count()
            if anti:
                return -d
            if d > 0:
                return d + n
            if d < 0:
                return d - n
            return 0

        def last1(P, O, sq):
            # one empty square (bit, neighbours, flips); P to move.  Value for P.
            b, nb, flips = sq
            stones = (P | O).bit_count()
            d = 2 * P.bit_count() - stones
            f = flips(P, O) if nb & O else 0
            if f:
                d += 2 * f.bit_count() + 1
                return -d if anti else d
            f = flips(O, P) if nb & P else 0
            if f:
                d -= 2 * f.bit_count() + 1
                return -d if anti else d
            if anti:
                return -d
            if d > 0:
                return d + 1
            if d < 0:
                return d - 1
            return 0

        def shallow(P, O, alpha, beta, empties, passed):
            # empties: tuple of (bit, neighbour mask, flips), parity/priority ordered
            n = len(empties)
            if n == 1:
                return last1(P, O, empties[0])
            solver.nodes += 1
            best = -INF
            i = 0
            for b, nb, flips in empties:
                if nb & O:
                    f = flips(P, O)
                    if f:
                        rest = empties[:i] + empties[i + 1:]
                        v = -shallow(O ^ f, P | f | b, -beta, -alpha, rest, False)
                        if v > best:
                            best = v
                            if v > alpha:
                                alpha = v
                                if v >= beta:
                                    return v
                i += 1
            if best == -INF:
                if passed:
                    return final(P, O, n)
                return -shallow(O, P, -beta, -alpha, empties, True)
            return best

        def order_empties(E):
            # odd regions first, then static priority
            sqs = []
            while E:
                b = E & -E
                E ^= b
                sqs.append(b.bit_length() - 1)
            odd = 0
            for s in sqs:
                odd ^= 1 << region_of[s]
            sqs.sort(key=lambda s: (0 if odd >> region_of[s] & 1 else 4) + prio[s])
            return tuple([(1 << s, NB[s], flips_at[s]) for s in sqs])

        def search(P, O, alpha, beta, n, passed):
            if n <= SHALLOW:
                return shallow(P, O, alpha, beta, order_empties(playable & ~(P | O)), passed)
            solver.nodes += 1
            if solver.nodes >= solver.next_check:
                solver.next_check = solver.nodes + 2000
                if solver.deadline is not None and monotonic() > solver.deadline:
                    raise Timeout
                if solver.max_nodes is not None and solver.nodes > solver.max_nodes:
                    raise Timeout
            key = (P, O)
            entry = tt.get(key)
            tt_move = -1
            if entry is not None:
                lo, hi, tt_move = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                if alpha >= beta:
                    return alpha
            if not anti:
                # stability cutoff, corners only: a corner is never flipped,
                # so each the opponent holds costs the mover two discs of the
                # best possible score (and each of the mover's the opponent)
                ub = top - 2 * (O & corners).bit_count()
                if ub <= alpha:
                    return ub
                lb = 2 * (P & corners).bit_count() - top
                if lb >= beta:
                    return lb
            mv = moves(P, O)
            if not mv:
                if passed or not moves(O, P):
                    return final(P, O, n)
                return -search(O, P, -beta, -alpha, n, True)
            alpha0 = alpha
            # order moves: fastest first
            cand = []
            while mv:
                b = mv & -mv
                mv ^= b
                sq = b.bit_length() - 1
                f = flips_at[sq](P, O)
                nP = P | f | b
                nO = O ^ f
                if sq == tt_move:
                    key_ = -1000
                elif anti:
                    # stones are what Anti loses by: few turned, no corner of
                    # one's own (never turned back), the opponent's way to one open
                    om = moves(nO, nP)
                    key_ = (om.bit_count() * 16 + f.bit_count() * 8 + (b & corners and 24 or 0)
                            - (om & corners).bit_count() * 16)
                else:
                    om = moves(nO, nP)
                    key_ = om.bit_count() * 16 + (om & corners).bit_count() * 32 - (b & corners and 24 or 0) + (x_squares >> sq & 1) * 8
                cand.append((key_, sq, nP, nO))
            cand.sort()
            best = -INF
            best_sq = -1
            first = True
            for _, sq, nP, nO in cand:
                if first:
                    v = -search(nO, nP, -beta, -alpha, n - 1, False)
                    first = False
                else:
                    v = -search(nO, nP, -alpha - 1, -alpha, n - 1, False)
                    if alpha < v < beta:
                        v = -search(nO, nP, -beta, -v, n - 1, False)
                if v > best:
                    best = v
                    best_sq = sq
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            if best <= alpha0:
                tt[key] = (entry[0] if entry else -INF, best, best_sq)
            elif best >= beta:
                tt[key] = (best, entry[1] if entry else INF, best_sq)
            else:
                tt[key] = (best, best, best_sq)
            return best

        def root(P, O, alpha, beta):
            n = (playable & ~(P | O)).bit_count()
            # no score lies outside +-(squares): a window clamped to that range
            # stops at once on a wipe-out instead of trying to beat it
            if alpha < -top < beta:
                alpha = -top
            if alpha < top < beta:
                beta = top
            mv = moves(P, O)
            if not mv:
                if not moves(O, P):
                    return final(P, O, n), None
                return -search(O, P, -beta, -alpha, n, True), None
            # root: ordered like an inner node, but remember the best move
            cand = []
            entry = tt.get((P, O))
            tt_move = entry[2] if entry else -1
            while mv:
                b = mv & -mv
                mv ^= b
                sq = b.bit_length() - 1
                f = flips_at[sq](P, O)
                nP = P | f | b
                nO = O ^ f
                om = moves(nO, nP)
                k = -1000 if sq == tt_move else om.bit_count() * 16 + (om & corners).bit_count() * 32 - (b & corners and 24 or 0)
                cand.append((k, sq, nP, nO))
            cand.sort()
            best, best_sq = -INF, None
            first = True
            for _, sq, nP, nO in cand:
                if first:
                    v = -search(nO, nP, -beta, -alpha, n - 1, False)
                    first = False
                else:
                    v = -search(nO, nP, -alpha - 1, -alpha, n - 1, False)
                    if alpha < v < beta:
                        v = -search(nO, nP, -beta, -v, n - 1, False)
                if v > best:
                    best, best_sq = v, sq
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            return best, best_sq

        self._search = search
        self._root = root
