"""The evaluation of the computer players for three and four players
(docs/rules.md §8): what :mod:`games.ai.multiplayer`'s searches value a position by.

Evaluation for the root player ``r``: for each player a score from the stones
(weight growing towards the end), corner-like squares, X squares next to
empty corners, edges and flipping moves (Hard's fitted weights: the same plus
stable and exposed stones, by phase); the value is ``score(r)`` minus the
best opponent's score (only a sole first place wins, docs/rules.md §8).  With
``anti`` stones, corners and edges count against their owner (and Hard keeps
the hand-made weights).  A finished game is worth ``WIN`` plus the margin
for a sole first place, ``0`` for a shared first place (a draw for the table)
and ``-WIN`` plus the margin otherwise.

Like the searches' pieces, each function here is built once per search as a
closure over the geometry's tables: the searches call them millions of times.
"""

from __future__ import annotations

from .bitboard import Tables
from .evaluation import stable_counter

WIN = 100_000
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
