"""Fit the weights of Hard's multi-player evaluation to self-play games.

``python -m games.ai.tools.fitting --games 1500 --seeds 1 2`` plays Normal against
itself on 8x8 with three players (random opening moves for variety), keeps
every position with each player's features and the game's winner (a sole
first place; shared first places are left out) and fits a *conditional logit*
model: in a position, player ``i`` wins with a probability proportional to
``exp(w · f_i)``, where ``f_i`` are player ``i``'s features and ``w`` the
weights of the game's phase.  That is exactly the shape of the evaluation
(each player's score, the root player's margin over the best other), so the
fitted ``w`` (scaled by ``SCALE``) go straight into ``multiplayer_evaluation.FITTED``,
which Hard uses at the end of its search (its predictions of the others'
answers keep the hand-made weights: with the fitted ones there too it played
worse).  Plain standard library: Newton's method on a few weights per phase;
the two default seeds take a few minutes of CPU each.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from games import Board, Variant

from ..bitboard import tables
from ..evaluation import stable_counter
from ..multiplayer import choose
from ..multiplayer_evaluation import FEATURES, PHASES

SCALE = 1000  # one unit of log-odds = 1000 points of evaluation


def feature_function(geo):
    """``features(bits, neutral) -> (phase, [features of each player])``; the
    features are ``multiplayer_evaluation.FEATURES`` in that order."""
    total = max(1, len(geo.squares))
    stable_count = stable_counter(geo)
    corner_x = [(1 << c, geo.neighbours[c] & geo.x_squares) for c in geo.squares if geo.corners >> c & 1]

    def features(bits, neutral):
        occ = neutral
        for b in bits:
            occ |= b
        E = geo.playable & ~occ
        phase = min(PHASES - 1, int((1 - E.bit_count() / total) * PHASES))
        danger = 0
        for cb, xm in corner_x:
            if E & cb:
                danger |= xm
        exposed = geo.spread(E)
        out = []
        for own in bits:
            out.append([
                own.bit_count(),
                (own & geo.corners).bit_count(),
                (own & danger).bit_count(),
                (own & geo.edges).bit_count(),
                geo.moves(own, occ ^ own).bit_count(),
                stable_count(own),
                (own & exposed).bit_count(),
            ])
        return phase, out

    return features


def self_play(games: int, seed: int, players: int = 3, board: str = "8x8") -> list:
    """[(phase, features of each player, winner)] from Normal-vs-Normal games."""
    rng = random.Random(seed)
    variant = Variant(board=board, players=players)
    samples = []
    for _ in range(games):
        b = Board(variant)
        geo = tables(b.geometry)
        features = feature_function(geo)
        for _ in range(rng.randint(players, 2 * players)):
            b.push(rng.choice(b.legal_moves))
        positions = []
        while not b.is_game_over():
            legal = b.legal_moves
            if legal == ["pass"]:
                b.push("pass")
                continue
            positions.append(features(b.bits, b.neutral))
            sq = choose(geo, b.bits, b.neutral, b.turn_index, "normal", False, rng, None)
            b.push(geo.name(sq))
        counts = [x.bit_count() for x in b.bits]
        top = max(counts)
        if counts.count(top) > 1:
            continue
        winner = counts.index(top)
        samples.extend((phase, feats, winner) for phase, feats in positions)
    return samples


def _solve(H, g):
    """x with H x = g (Gaussian elimination with partial pivoting)."""
    k = len(g)
    A = [row[:] + [g[i]] for i, row in enumerate(H)]
    for c in range(k):
        p = max(range(c, k), key=lambda r: abs(A[r][c]))
        A[c], A[p] = A[p], A[c]
        for r in range(k):
            if r != c and A[r][c]:
                f = A[r][c] / A[c][c]
                A[r] = [x - f * y for x, y in zip(A[r], A[c])]
    return [A[i][k] / A[i][i] for i in range(k)]


def fit_phase(samples, ridge: float = 1.0, iterations: int = 12) -> tuple[list[float], float]:
    """Conditional-logit weights for one phase by Newton's method; (weights, log-loss)."""
    k = len(FEATURES)
    w = [0.0] * k
    loss = 0.0
    for _ in range(iterations):
        g = [-ridge * x for x in w]
        H = [[ridge if i == j else 0.0 for j in range(k)] for i in range(k)]
        loss = 0.0
        for feats, winner in samples:
            u = [sum(a * b for a, b in zip(w, f)) for f in feats]
            top = max(u)
            e = [math.exp(x - top) for x in u]
            z = sum(e)
            p = [x / z for x in e]
            loss -= math.log(max(p[winner], 1e-300))
            mean = [sum(p[i] * feats[i][j] for i in range(len(feats))) for j in range(k)]
            fw = feats[winner]
            for j in range(k):
                g[j] += fw[j] - mean[j]
            for i, f in enumerate(feats):
                pi = p[i]
                for a in range(k):
                    fa = pi * f[a]
                    row = H[a]
                    for b in range(a, k):
                        row[b] += fa * f[b]
            for a in range(k):
                row = H[a]
                for b in range(a, k):
                    row[b] -= mean[a] * mean[b]
        for a in range(k):
            for b in range(a):
                H[a][b] = H[b][a]
        step = _solve(H, g)
        w = [x + s for x, s in zip(w, step)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w, loss / max(1, len(samples))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m games.ai.tools.fitting", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1500, help="games per seed")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args(argv)
    t0 = time.time()
    samples = []
    for seed in args.seeds:
        samples += self_play(args.games, seed)
    games = args.games * len(args.seeds)
    print(f"{len(samples)} positions from {games} games ({time.time() - t0:.0f} s)")
    table = []
    for phase in range(PHASES):
        part = [(feats, winner) for p, feats, winner in samples if p == phase]
        w, loss = fit_phase(part)
        base = math.log(3)
        print(f"phase {phase}: {len(part)} positions, log-loss {loss:.3f} (uniform {base:.3f})")
        table.append(tuple(round(SCALE * x) for x in w))
    print("FITTED = (  # " + ", ".join(FEATURES))
    for row in table:
        print(f"    {row},")
    print(")")


if __name__ == "__main__":
    main()
