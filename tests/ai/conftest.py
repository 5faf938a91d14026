"""Helpers for the computer-player tests (no Django needed)."""

import random

import pytest

from games import Board, InvalidVariantError, Variant


@pytest.fixture(autouse=True)
def strict_ai(monkeypatch):
    # choose_move falls back to a legal move on an internal error in production;
    # in tests every error must surface.
    monkeypatch.setenv("GAMES_AI_STRICT", "1")


def random_board(variant: Variant, plies: int, seed: int) -> Board:
    """``variant`` after up to ``plies`` uniformly random moves."""
    rng = random.Random(seed)
    board = Board(variant)
    for _ in range(plies):
        legal = board.legal_moves
        if not legal:
            break
        board.push(rng.choice(legal))
    return board


def make_variant(board="8x8", players=2, anti=False, free_opening=False, blocked=0, handicap=0,
                 seed=0):
    fields = dict(board=board, players=players, anti=anti, free_opening=free_opening,
                  handicap=handicap)
    try:
        if blocked:
            return Variant.with_random_blocked(blocked, seed=seed, **fields)
        return Variant(**fields)
    except InvalidVariantError:
        return None


def minimax(board: Board) -> int:
    """Exact value for the side to move by plain minimax on ``games.Board``
    (the rules library is the reference): final disc difference, empties to
    the winner, or the opponent's minus the mover's stones in anti."""
    if board.is_game_over():
        out = board.outcome()
        me = board.turn
        other = [c for c in board.colours if c != me][0]
        if board.variant.anti:
            return out.counts[other] - out.counts[me]
        return out.score[me] - out.score[other]
    best = -10**9
    for m in board.legal_moves:
        board.push(m)
        best = max(best, -minimax(board))
        board.pop()
    return best
