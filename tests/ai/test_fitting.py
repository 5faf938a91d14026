"""Hard's multi-player evaluation weights are fitted to games: the fit and the
evaluation must agree about what the features are."""

import math
import random

import pytest

from games import Board
from games.ai.bitboard import tables
from games.ai.tools.fitting import feature_function, fit_phase, self_play
from games.ai.multiplayer import MultiSearch
from games.ai.multiplayer_evaluation import FEATURES, FITTED, fitted_weights

from .conftest import make_variant


@pytest.mark.parametrize("case", [dict(players=3), dict(players=4, board="10x10"), dict(players=3, board="octagon")])
def test_hard_evaluation_is_the_fitted_weights_times_the_features(case):
    variant = make_variant(**case)
    geo = tables(variant.geometry)
    features = feature_function(geo)
    weights = fitted_weights(len(geo.squares))
    rng = random.Random(1)
    board = Board(variant)
    while not board.is_game_over():
        bits, neutral = board.bits, board.neutral
        empty = (geo.playable & ~board.occupied).bit_count()
        _, feats = features(bits, neutral)
        scores = [sum(w * f for w, f in zip(weights[empty], fs)) for fs in feats]
        for root in range(variant.players):
            others = [s for i, s in enumerate(scores) if i != root]
            ms = MultiSearch(geo, variant.players, root, mode="model", rich=True)
            assert ms._evaluate(bits, neutral) == scores[root] - max(others)
        board.push(rng.choice(board.legal_moves))


def test_weights_run_from_the_first_phase_to_the_last():
    weights = fitted_weights(60)
    assert weights[60] == FITTED[0]  # empty board
    assert weights[0] == FITTED[-1]  # full board
    assert all(len(w) == len(FEATURES) for w in weights)


def test_fit_recovers_the_weights_that_made_the_winners():
    rng = random.Random(3)
    truth = [0.8, -0.5, 0.3, 0.0, 0.2, 0.6, -0.4]
    samples = []
    for _ in range(3000):
        feats = [[rng.randint(0, 4) for _ in truth] for _ in range(3)]
        u = [math.exp(sum(w * f for w, f in zip(truth, fs))) for fs in feats]
        winner = rng.choices(range(3), weights=u)[0]
        samples.append((feats, winner))
    fitted, loss = fit_phase(samples, ridge=0.1)
    assert loss < math.log(3)
    for got, want in zip(fitted, truth):
        assert got == pytest.approx(want, abs=0.12)


def test_self_play_gives_positions_with_every_players_features_and_a_winner():
    samples = self_play(2, seed=5)
    assert samples
    for phase, feats, winner in samples:
        assert 0 <= phase < 6 and winner in (0, 1, 2)
        assert len(feats) == 3 and all(len(f) == len(FEATURES) for f in feats)
