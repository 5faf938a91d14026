"""Computer players for three and four players (docs/rules.md §8).

The position is the rules library's representation: one bitboard per colour
in turn order plus the neutral stone (``Board.bits``, ``Board.neutral``).  The
move rule is the library's: a flipping move (``geometry.moves(own, opp)`` with
``opp`` = every stone that is not the mover's, the neutral stone included),
else a placement on any empty square next to a stone
(``geometry.neighbours(occupied)``), and the game ends when neither exists.
``tests/ai/test_multiplayer.py`` replays random games against ``Board`` to
keep the two in step.

Levels:

* Easy: one ply (its own move) with the evaluation, plus Gaussian noise.
* Normal: *paranoid* alpha-beta (Sturtevant) one full round deep (every
  player moves once); depth-limited, so deterministic.
* Hard: *opponent-model search* with iterative deepening under the time
  budget: only Hard's own moves branch; each opponent is expected to play the
  move that looks best for itself one ply ahead (its score over the best
  other's; ``MODEL_REPLIES`` of them, the worst for Hard counting, when more
  than one).  Depth counts Hard's own moves, each followed by the others'
  predicted answers.  Below the root only Hard's ``MODEL_BEAM`` likeliest
  moves (by the evaluation after the move) are searched, which buys one or
  two more of its moves in the same time.  The positions the search ends in
  are valued with weights fitted to self-play games (``multiplayer_evaluation.FITTED``,
  made by ``games.ai.tools.fitting``); the opponents' answers are predicted with the richer
  hand-made scores (+ stable stones, - stones next to an empty square).

Why a model and not a worst case: paranoid search assumes that all the others
play against the root player alone, which makes a deep search timid (deeper
paranoid search barely beat one round of it).  The other players play for
themselves, and the model says so.  The matches that decided this, the
number of predicted answers, the beam and the fitted weights are in
benchmarks/README.md, "Three and four players" (with best-reply search, which lost
to the model and is gone).  Paranoid is Normal's search.

The evaluation (hand-made and fitted scores, the value of a finished game) is
:mod:`games.ai.multiplayer_evaluation`'s.
"""

from __future__ import annotations

import random
from . import clock

from .bitboard import Tables
from .endgame import Timeout
from .multiplayer_evaluation import WIN, final_value, root_evaluation, score_functions

INF = 10**9
MODEL_REPLIES = 1  # opponent-model search: how many of each opponent's likeliest answers
MODEL_BEAM = 4  # model search: the root player's likeliest moves searched below the root


class MultiSearch:
    """Search for ``n`` players on one geometry: paranoid alpha-beta (``mode="paranoid"``,
    Normal's) or opponent-model search (``mode="model"``, Hard's)."""

    def __init__(self, geo: Tables, players: int, root: int, *, anti: bool = False,
                 mode: str = "paranoid", rich: bool = False, replies: int = MODEL_REPLIES,
                 beam: int | None = MODEL_BEAM):
        self.beam = beam  # "model": how many of the root player's moves below the root are searched
        self.mode = mode  # "paranoid" or "model" (opponent-model search)
        self.rich = rich  # Hard's evaluation: + stable stones, - exposed stones
        self.replies = replies  # "model": how many answers of each opponent are considered
        self.geo = geo
        self.n = players
        self.root_player = root
        self.anti = anti
        self.nodes = 0
        self.deadline: float | None = None
        self.tt: dict = {}
        self.root_values: dict[int, int] = {}  # model search: each root move's last value
        self._legal, self._play = move_rule(geo)
        self._terminal = final_value(root, anti)
        # Hard's leaf evaluation uses the fitted weights (not in anti, which keeps the
        # hand-made ones); its opponents' answers are still predicted with the
        # hand-made scores, which measured better (benchmarks/README.md, "Three and four players")
        self._player_scores, fitted_scores = score_functions(geo, players, anti, rich)
        self._evaluate = root_evaluation(fitted_scores or self._player_scores, root)
        self._value_after = SEARCHES[mode](self)

    # ------------------------------------------------------------------ API
    def _root_moves(self, bits, neutral, first):
        t = self.root_player
        m, own, opp, flipping = self._legal(bits, neutral, t)
        sqs = []
        while m:
            b = m & -m
            m ^= b
            sqs.append(b.bit_length() - 1)
        # the last iteration's best first, then (model search, whose root values
        # are exact) the others by their last values: a cut-off iteration has
        # then searched the likeliest moves
        values = self.root_values
        sqs.sort(key=lambda s: (s != first, -values.get(s, 0), s))
        for sq in sqs:
            yield sq, *self._play(bits, neutral, t, 1 << sq, own, opp, flipping)

    def move_values(self, bits, neutral, depth: int, first: int = -1) -> list[tuple[int, int]]:
        """The value of each move of the root player (to move), best first."""
        out = []
        self._partial = []
        for sq, nb, nn in self._root_moves(bits, neutral, first):
            v = self._value_after(nb, nn, depth - 1, -INF)
            out.append((sq, v))
            self._partial.append((sq, v))
        out.sort(key=lambda x: -x[1])
        return out

    def best(self, bits, neutral, depth: int, first: int = -1) -> tuple[int, int]:
        """(value, square) with root alpha-beta (faster than ``move_values``)."""
        alpha, best_sq = -INF, -1
        self._partial = None
        for sq, nb, nn in self._root_moves(bits, neutral, first):
            if best_sq < 0:
                best_sq = sq
            v = self._value_after(nb, nn, depth - 1, alpha)
            if self.mode == "model":
                self.root_values[sq] = v
            if v > alpha:
                alpha, best_sq = v, sq
                self._partial = (v, sq)
        return alpha, best_sq

    def iterate(self, bits, neutral, *, max_depth: int, deadline: float | None) -> tuple[int, int, int]:
        """Iterative deepening; (value, square, depth completed).

        Only depths that end after a full round (a multiple of
        the player count) or at the end of the game decide the move: a
        paranoid value cut right after the root player's own move is
        optimistic, one cut after the opponents' replies is not.
        """
        value, best, done = 0, -1, 0
        # a full round: every player once (the model's depth counts whole rounds)
        round_len = 1 if self.mode == "model" else self.n
        kept = None            # (value, best) of the last depth allowed to decide
        last = 0.0
        empties = (self.geo.playable & ~(neutral | sum_bits(bits))).bit_count()
        top = min(max_depth, empties)
        for depth in range(1, top + 1):
            t0 = clock.now()
            if deadline is not None and depth > 1 and deadline - t0 < last * 1.5:
                break
            # depth 1 always finishes, except in the model, where it is a whole round
            self.deadline = deadline if depth > 1 or self.mode == "model" else None
            try:
                value, best = self.best(bits, neutral, depth, best)
                done = depth
                if depth % round_len == 0 or depth == top or kept is None:
                    kept = (value, best)
            except Timeout:
                if self._partial is not None and self._partial[1] != best and (
                        depth % round_len == 0 or depth == top):
                    kept = self._partial
                break
            finally:
                self.deadline = None
            last = clock.now() - t0
            if abs(value) >= WIN:
                kept = (value, best)
                break
        if kept is not None:
            value, best = kept
        return value, best, done


# The pieces of a search, each built once per MultiSearch as closures over the
# geometry's tables: the searches call them millions of times, and a closure's
# free variables are the fastest names Python has.

def move_rule(geo: Tables):
    """``(legal, play)`` on the rules library's representation.

    ``legal(bits, neutral, t)`` is ``(moves, own, opp, flipping)``: player t's
    flipping moves, else its placements next to a stone (no moves: the game is
    over).  ``play(bits, neutral, t, b, own, opp, flipping)`` is the position
    ``(bits, neutral)`` after t plays the square bit ``b``."""
    moves = geo.moves
    flips = geo.flips
    spread = geo.spread
    playable = geo.playable

    def legal(bits, neutral, t):
        own = bits[t]
        occ = neutral
        for b in bits:
            occ |= b
        opp = occ ^ own
        m = moves(own, opp)
        if m:
            return m, own, opp, True
        return spread(occ) & ~occ & playable, own, opp, False

    def play(bits, neutral, t, b, own, opp, flipping):
        if flipping:
            f = flips(b, own, opp)
            keep = ~f
            nb = tuple((x | b | f) if i == t else (x & keep) for i, x in enumerate(bits))
            return nb, neutral & keep
        nb = tuple((x | b) if i == t else x for i, x in enumerate(bits))
        return nb, neutral

    return legal, play


def paranoid_search(ms: MultiSearch):
    """Normal's search: alpha-beta where every opponent plays against the root
    player (Sturtevant's paranoid search), with a transposition table
    (``ms.tt``).  Returns ``value_after(bits, neutral, depth, alpha)``, the value
    of the position after a root move, ``depth`` plies (single moves) deep."""
    geo, n, root, anti, tt = ms.geo, ms.n, ms.root_player, ms.anti, ms.tt
    legal, play, terminal, evaluate = ms._legal, ms._play, ms._terminal, ms._evaluate
    monotonic = clock.now
    # move ordering: corners first, X squares last (the other way round in anti)
    static = [0] * geo.size
    for i in geo.squares:
        if geo.corners >> i & 1:
            static[i] = 50 if anti else -50
        elif geo.x_squares >> i & 1:
            static[i] = -10 if anti else 30

    def search(bits, neutral, t, depth, alpha, beta):
        ms.nodes += 1
        if not ms.nodes & 127 and ms.deadline is not None and monotonic() > ms.deadline:
            raise Timeout
        m, own, opp, flipping = legal(bits, neutral, t)
        if not m:
            return terminal(bits)
        if depth <= 0:
            return evaluate(bits, neutral)
        key = (bits, neutral, t)
        entry = tt.get(key)
        first = -1
        if entry is not None:
            d, lo, hi, first = entry
            if d >= depth:
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
        order = []
        while m:
            b = m & -m
            m ^= b
            sq = b.bit_length() - 1
            order.append((-INF if sq == first else static[sq], sq, b))
        order.sort()
        nt = (t + 1) % n
        a0, b0 = alpha, beta
        best_sq = -1
        if t == root:
            best = -INF
            for _, sq, b in order:
                nb, nn = play(bits, neutral, t, b, own, opp, flipping)
                v = search(nb, nn, nt, depth - 1, alpha, beta)
                if v > best:
                    best, best_sq = v, sq
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = INF
            for _, sq, b in order:
                nb, nn = play(bits, neutral, t, b, own, opp, flipping)
                v = search(nb, nn, nt, depth - 1, alpha, beta)
                if v < best:
                    best, best_sq = v, sq
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if best <= a0:
            tt[key] = (depth, -INF, best, best_sq)
        elif best >= b0:
            tt[key] = (depth, best, INF, best_sq)
        else:
            tt[key] = (depth, best, best, best_sq)
        return best

    first_reply = (root + 1) % n

    def value_after(bits, neutral, depth, alpha):
        return search(bits, neutral, first_reply, depth, alpha, INF)

    return value_after


def model_search(ms: MultiSearch):
    """Hard's search: opponent-model search, where only the root player's moves
    branch and each opponent answers as predicted (``ms.replies`` likeliest
    answers, the worst for the root counting), the root's moves below the root
    cut to ``ms.beam``.  Returns ``value_after(bits, neutral, depth, alpha)``,
    ``depth`` counting the root player's moves (``alpha`` is not used)."""
    n, root, doubt, beam = ms.n, ms.root_player, ms.replies, ms.beam
    legal, play, terminal, evaluate = ms._legal, ms._play, ms._terminal, ms._evaluate
    player_scores = ms._player_scores
    monotonic = clock.now
    first_reply = (root + 1) % n
    predicted = {}  # kept between iterations: each deeper one reuses them

    def predicted_replies(bits, neutral, t):
        # Opponent model: player t plays one of the moves that look best for itself
        # one ply ahead (its score over the best other's). [] : the game is over.
        key = (bits, neutral, t)
        known = predicted.get(key)
        if known is not None:
            return known
        ms.nodes += 1  # a costly node (every answer evaluated): the clock is read each time
        if ms.deadline is not None and monotonic() > ms.deadline:
            raise Timeout
        m, own, opp, flipping = legal(bits, neutral, t)
        ranked = []
        while m:
            b = m & -m
            m ^= b
            nb, nn = play(bits, neutral, t, b, own, opp, flipping)
            scores = player_scores(nb, nn)
            mine = scores[t]
            scores[t] = -INF
            ranked.append((mine - max(scores), b, nb, nn))
        ranked.sort(key=lambda r: (-r[0], r[1]))
        predicted[key] = ranked = ranked[:doubt]
        return ranked

    def after_replies(bits, neutral, depth, t):
        # the others answer in turn order as the model predicts (the worst of the
        # `doubt` likeliest answers for the root player), then the root moves
        if t == root:
            return model(bits, neutral, depth)
        replies = predicted_replies(bits, neutral, t)
        if not replies:
            return terminal(bits)
        nt = (t + 1) % n
        return min(after_replies(nb, nn, depth, nt) for _, _, nb, nn in replies)

    def model(bits, neutral, depth):
        # only the root player's moves branch; depth counts them
        ms.nodes += 1
        m, own, opp, flipping = legal(bits, neutral, root)
        if not m:
            return terminal(bits)
        if depth <= 0:
            return evaluate(bits, neutral)
        children = []
        while m:
            b = m & -m
            m ^= b
            children.append(play(bits, neutral, root, b, own, opp, flipping))
        if beam and len(children) > beam:
            children.sort(key=lambda c: -evaluate(*c))
            del children[beam:]
        best = -INF
        for nb, nn in children:
            v = after_replies(nb, nn, depth - 1, first_reply)
            if v > best:
                best = v
        return best

    def value_after(bits, neutral, depth, alpha):
        return after_replies(bits, neutral, depth, first_reply)

    return value_after


SEARCHES = {"paranoid": paranoid_search, "model": model_search}


def sum_bits(bits) -> int:
    occ = 0
    for b in bits:
        occ |= b
    return occ


def legal_squares(geo: Tables, bits, neutral, t) -> list[int]:
    occ = neutral | sum_bits(bits)
    m = geo.moves(bits[t], occ ^ bits[t]) or (geo.spread(occ) & ~occ & geo.playable)
    out = []
    while m:
        b = m & -m
        m ^= b
        out.append(b.bit_length() - 1)
    return out


def choose(geo: Tables, bits, neutral, t: int, level: str, anti: bool,
           rng: random.Random, deadline: float | None) -> int:
    """Square index for player ``t`` (who has at least one move)."""
    sqs = legal_squares(geo, bits, neutral, t)
    if len(sqs) == 1:
        return sqs[0]
    n = len(bits)
    hard = level == "hard"
    ms = MultiSearch(geo, n, t, anti=anti, mode="model" if hard else "paranoid", rich=hard)
    if level == "easy":
        values = ms.move_values(bits, neutral, 1)
        noisy = sorted(((v + rng.gauss(0, 300), sq) for sq, v in values), reverse=True)
        return noisy[0][1]
    if level == "normal":
        # one full round: every player moves once (depth-limited: deterministic)
        _, best, _ = ms.iterate(bits, neutral, max_depth=n, deadline=deadline)
        return best if best >= 0 else sqs[0]
    _, best, _ = ms.iterate(bits, neutral, max_depth=64, deadline=deadline)
    return best if best >= 0 else sqs[0]
