"""Random legal games for the format tests (no Django)."""

import random

from games.rules import Board, Variant

TWO_PLAYER = [Variant(board=b, anti=a) for b in ("6x6", "8x8", "10x10") for a in (False, True)]


def random_game(variant: Variant, seed: int, plies: int = 200) -> Board:
    """``variant`` after up to ``plies`` uniformly random moves (passes included)."""
    rng = random.Random(seed)
    board = Board(variant)
    while board.ply < plies and not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    return board
