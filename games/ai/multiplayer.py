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
  are valued with weights fitted to self-play games (``FITTED``, made by
  ``games.ai.tools.fitting``); the opponents' answers are predicted with the richer
  hand-made scores (+ stable stones, - stones next to an empty square).

Why a model and not a worst case: paranoid search assumes that all the others
play against the root player alone, which makes a deep search timid (deeper
paranoid search barely beat one round of it).  The other players play for
themselves, and the model says so.  The matches that decided this, the
number of predicted answers, the beam and the fitted weights are in
benchmarks/README.md, "Three and four players" (with best-reply search, which lost
to the model and is gone).  Paranoid is Normal's search.

Evaluation for the root player ``r``: for each player a score from the stones
(weight growing towards the end), corner-like squares, X squares next to
empty corners, edges and flipping moves (Hard's fitted weights: the same plus
stable and exposed stones, by phase); the value is ``score(r)`` minus the
best opponent's score (only a sole first place wins, docs/rules.md §8).  With
``anti`` stones, corners and edges count against their owner (and Hard keeps
the hand-made weights).  A finished game is worth ``WIN`` plus the margin
for a sole first place, ``0`` for a shared first place (a draw for the table)
and ``-WIN`` plus the margin otherwise.
"""

from __future__ import annotations

import random
from . import clock

from .bitboard import Tables
from .endgame import Timeout
from .evaluation import stable_counter

WIN = 100_000
INF = 10**9
MODEL_REPLIES = 1  # opponent-model search: how many of each opponent's likeliest answers
MODEL_BEAM = 4  # model search: the root player's likeliest moves searched below the root
# evaluation weights (centi-stones): stones (growing towards the end), corners,
# X squares next to an empty corner, edges, flipping moves
DISC_BASE, DISC_END = 10, 60
W_CORNER, W_X, W_EDGE, W_MOB = 500, 150, 20, 40
# Hard's evaluation of the positions its search ends in: each player's features
# weighted by the phase (the share of the board filled, in PHASES steps), the
# weights fitted to self-play games by games.ai.tools.fitting (benchmarks/README.md,
# "Three and four players")
FEATURES = ("stones", "corners", "x_squares", "edges", "mobility", "stable", "exposed")
PHASES = 6
FITTED = (  # python -m games.ai.tools.fitting --games 1500 --seeds 1 2
    (-23, 633, -491, -214, 2, 633, -18),
    (21, 607, -448, -20, -8, 369, -33),
    (-28, 897, -236, -2, 21, 174, 37),
    (2, 798, -318, 13, 13, 162, -14),
    (74, 540, -130, 24, 53, 139, -123),
    (164, 130, -96, 79, 244, 92, -226),
)


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


def final_value(root: int, anti: bool):
    """The value of a finished game for ``root`` (see the module docstring)."""

    def terminal(bits):
        counts = [x.bit_count() for x in bits]
        mine = counts[root]
        others = [c for i, c in enumerate(counts) if i != root]
        if anti:
            best_other = min(others)
            margin = best_other - mine
        else:
            best_other = max(others)
            margin = mine - best_other
        if margin > 0:
            return WIN + 100 * margin
        if margin == 0:
            return 0
        return -WIN + 100 * margin

    return terminal


def score_functions(geo: Tables, n: int, anti: bool, rich: bool):
    """``(player_scores, fitted_scores)``: every player's heuristic score by the
    hand-made weights (``rich``: + stable stones, - exposed stones), and by the
    fitted ones (None where they do not apply: not ``rich``, or ``anti``)."""
    moves = geo.moves
    spread = geo.spread
    playable = geo.playable
    corners = geo.corners
    edges = geo.edges
    x_squares = geo.x_squares
    total = max(1, len(geo.squares))
    corner_x = []
    for c in geo.squares:
        if corners >> c & 1:
            corner_x.append((1 << c, geo.neighbours[c] & x_squares))
    sign = -1 if anti else 1
    w_front = 15

    # Mobility of every player in one call: the players' boards side by side
    # in one integer ("lanes"), two empty guard rows apart so that no
    # shift of the move generator reaches from one lane into the next.
    lane = geo.size + 2 * geo.stride
    lane_shift = [i * lane for i in range(n)]
    lane_mask = [((1 << lane) - 1) << k for k in lane_shift]
    playable_lanes = 0
    for k in lane_shift:
        playable_lanes |= playable << k

    stable_count = stable_counter(geo)

    def empties_danger_mobility(bits, neutral):
        # the empty squares, the X squares next to an empty corner, and every
        # player's flipping moves (one lane each)
        occ = neutral
        for b in bits:
            occ |= b
        E = playable & ~occ
        danger = 0
        for cb, xm in corner_x:
            if E & cb:
                danger |= xm
        own_lanes = opp_lanes = 0
        for i in range(n):
            own_lanes |= bits[i] << lane_shift[i]
            opp_lanes |= (occ ^ bits[i]) << lane_shift[i]
        return E, danger, moves(own_lanes, opp_lanes, playable_lanes)

    def player_scores(bits, neutral):
        """Heuristic score of every player (centi-stones, higher = better)."""
        E, danger, mobility = empties_danger_mobility(bits, neutral)
        t = E.bit_count() / total           # 1 at the start, 0 at the end
        w_disc = DISC_BASE + DISC_END * (1 - t) * (1 - t)
        if rich:
            exposed = spread(E)             # stones next to an empty square
        scores = []
        for i in range(n):
            own = bits[i]
            s = sign * (w_disc * own.bit_count()
                        + W_CORNER * (own & corners).bit_count()
                        - W_X * (own & danger).bit_count()
                        + W_EDGE * (own & edges).bit_count())
            if rich:
                s += sign * (60 * stable_count(own) - w_front * (own & exposed).bit_count())
            scores.append(s + W_MOB * (mobility & lane_mask[i]).bit_count())
        return scores

    if not rich or anti:
        return player_scores, None
    fitted = fitted_weights(len(geo.squares))

    def fitted_scores(bits, neutral):
        """Every player's features times the fitted weights of the phase."""
        E, danger, mobility = empties_danger_mobility(bits, neutral)
        exposed = spread(E)
        ws, wc, wx, we, wm, wst, wex = fitted[E.bit_count()]
        return [ws * own.bit_count()
                + wc * (own & corners).bit_count()
                + wx * (own & danger).bit_count()
                + we * (own & edges).bit_count()
                + wm * (mobility & lane_mask[i]).bit_count()
                + wst * stable_count(own)
                + wex * (own & exposed).bit_count()
                for i, own in enumerate(bits)]

    return player_scores, fitted_scores


def root_evaluation(scores, root: int):
    """The evaluation of a position for ``root`` by ``scores`` (every player's)."""

    def evaluate(bits, neutral):
        """The root player's score minus the best opponent's."""
        values = scores(bits, neutral)
        mine = values[root]
        del values[root]
        return int(mine - max(values))

    return evaluate


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


def fitted_weights(total: int) -> list[tuple[int, ...]]:
    """``FITTED`` for each number of empty squares (``total`` playable squares),
    interpolated linearly between the phases' centres."""
    out = []
    for empty in range(total + 1):
        x = (1 - empty / total) * PHASES - 0.5
        k = min(PHASES - 2, max(0, int(x)))
        f = min(1.0, max(0.0, x - k))
        out.append(tuple(round(a + f * (b - a)) for a, b in zip(FITTED[k], FITTED[k + 1])))
    return out


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
