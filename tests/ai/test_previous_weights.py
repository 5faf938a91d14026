"""A new fit is measured against the last one: the "previous" evaluation reads the
weights files of another directory (``python -m games play --previous DIR``)."""
import shutil

import pytest

from games import Board, Variant
from games.ai import choose_move
from games.ai.bitboard import tables_for
from games.ai.levels import evaluator
from games.ai.learned import WEIGHTS_DIR


def test_the_previous_weights_are_read_from_the_directory_given(tmp_path, monkeypatch):
    shutil.copy(WEIGHTS_DIR / "6x6.bin", tmp_path / "6x6.bin")
    monkeypatch.setenv("GAMES_AI_PREVIOUS_WEIGHTS", str(tmp_path))
    geo = tables_for("6x6")
    board = Board(Variant(board="6x6"))
    for _ in range(3):
        board.push(board.legal_moves[0])
    P, O = board.bits[board.turn_index], board.bits[1 - board.turn_index]
    assert evaluator(geo, False, "previous")(P, O) == evaluator(geo, False, "learned")(P, O)
    assert choose_move(board, "normal", evaluation="previous") == choose_move(board, "normal")


def test_without_a_directory_the_previous_evaluation_is_refused(monkeypatch):
    monkeypatch.delenv("GAMES_AI_PREVIOUS_WEIGHTS", raising=False)
    with pytest.raises(ValueError, match="GAMES_AI_PREVIOUS_WEIGHTS"):
        evaluator(tables_for("8x8"), True, "previous")
