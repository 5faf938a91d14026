"""Transcripts in the forms people paste, on every board, with precise errors."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import Board, Variant
from study.formats import FormatError
from study.formats.transcripts import parse_moves, read_transcript, write_transcript
from tests.study.random_games import random_game

PROPERTY = settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
BOARDS = [Variant(board=b) for b in ("6x6", "8x8", "10x10", "octagon")]


@pytest.mark.parametrize("text", [
    "f5d6c3d3c4", "F5D6C3D3C4", "f5 d6 c3 d3 c4", "F5, d6, C3, d3, c4", "1. f5 d6 2. c3 d3 3. c4",
    "f5-d6-c3-d3-c4", "  f5d6\nc3d3c4\n",
])
def test_the_common_forms_give_the_same_game(text):
    assert read_transcript(text).history == ("f5", "d6", "c3", "d3", "c4")


def test_passes_written_in_any_form_or_left_out():
    # 6x6: a short game where white must pass at ply 8 (found by the rules, below)
    board = _game_with_a_pass(Variant(board="6x6"))
    moves = list(board.history)
    at = moves.index("pass")
    left_out = "".join(m for m in moves if m != "pass")
    for word in ("pass", "PA", "pa", "PASS", "--"):
        written = " ".join(word if m == "pass" else m for m in moves)
        assert read_transcript(written, board.variant).history == board.history, word
    assert read_transcript(left_out, board.variant).history == board.history
    assert at > 0


def _game_with_a_pass(variant):
    for seed in range(500):
        board = random_game(variant, seed)
        if "pass" in board.history[:-1]:
            return board
    raise AssertionError("no random game with a pass")


@pytest.mark.parametrize("variant", BOARDS, ids=lambda v: v.board)
def test_every_board_reads_back_what_it_writes(variant):
    for seed in range(5):
        board = random_game(variant, seed)
        for text in (write_transcript(board), write_transcript(board, passes=True, upper=True, separator=" "),
                     write_transcript(board, separator=",")):
            assert read_transcript(text, variant).history == board.history


@settings(PROPERTY)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(BOARDS), plies=st.integers(0, 120),
       upper=st.booleans(), separator=st.sampled_from(["", " ", ", ", ";"]), passes=st.booleans())
def test_any_legal_game_in_any_form_reads_back(seed, variant, plies, upper, separator, passes):
    board = random_game(variant, seed, plies)
    text = write_transcript(board, passes=passes, upper=upper, separator=separator)
    # a pass written or not, the game is the same; a final forced pass is inferred either way
    assert read_transcript(text, variant).history[:board.ply] == board.history


def test_an_illegal_move_names_its_number_square_and_reason():
    with pytest.raises(FormatError) as caught:
        read_transcript("f5 d6 c3 d3 d5")
    error = caught.value
    assert (error.code, error.move, error.square, error.reason) == ("illegal-move", 5, "d5", "occupied")
    assert str(error).startswith("move 5: d5 is illegal")
    with pytest.raises(FormatError) as caught:
        read_transcript("f5 d6 c3 d3 a1")
    assert (caught.value.move, caught.value.square, caught.value.reason) == (5, "a1", "no-flips")


def test_a_square_off_the_board():
    with pytest.raises(FormatError) as caught:
        read_transcript("f5 i9")
    assert (caught.value.move, caught.value.square, caught.value.reason) == (2, "i9", "not-a-square")


def test_octagon_cut_squares_are_refused():
    with pytest.raises(FormatError) as caught:
        read_transcript("a1", Variant(board="octagon"))
    assert caught.value.reason in ("removed", "no-flips")


def test_a_pass_where_none_is_due():
    with pytest.raises(FormatError) as caught:
        read_transcript("f5 PA d6")
    assert (caught.value.move, caught.value.square, caught.value.reason) == (2, "pass", "may-not-pass")


def test_unreadable_text_names_the_move():
    with pytest.raises(FormatError) as caught:
        parse_moves("f5 d6 zz c3")
    assert (caught.value.code, caught.value.move) == ("unreadable", 3)
    with pytest.raises(FormatError):
        parse_moves(None)


def test_a_board_or_a_list_is_written():
    board = Board.from_transcript(None, "f5d6")
    assert write_transcript(board) == "f5d6"
    assert write_transcript(["f5", "pass", "d6"], passes=True, upper=True, separator=" ") == "F5 PASS D6"
