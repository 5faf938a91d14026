"""GGF files: read, write, round trips and precise errors."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import Board, Variant
from study.formats import FormatError
from study.formats.ggf import GgfResult, game_from_board, iter_ggf, read_ggf, write_ggf
from tests.study.random_games import TWO_PLAYER, random_game

PROPERTY = settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

# As the Generic Game Server writes a game (the layout of its published format):
# header properties, the starting board, then moves with evaluations and times.
SERVER_GAME = (
    "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[alice]PW[bob]RB[1812.25]RW[1750.00]"
    "TI[15:00//02:00]TY[8]RE[+12.000]\n"
    "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\n"
    "B[f5//1.20]W[d6/-1.50/2.31]B[c3]W[d3]B[c4];)"
)


def test_a_server_game_is_read():
    (game,) = read_ggf(SERVER_GAME)
    assert (game.black, game.white) == ("alice", "bob")
    assert (game.rating("black"), game.rating("white")) == (1812.25, 1750.0)
    assert game.time_control == "15:00//02:00"
    assert game.place == "GGS/os" and game.date.startswith("2003.12.15")
    assert game.result == GgfResult(12.0, None)
    assert game.variant == Variant()
    assert game.standard_start
    assert game.transcript == "f5d6c3d3c4"
    assert game.board == Board.from_transcript(None, "f5d6c3d3c4")


def test_a_game_is_written_back_as_it_was_read():
    compact = SERVER_GAME.replace("\n", "")
    assert write_ggf(read_ggf(compact)) == compact + "\n"


# The forms other programs write (as their documentation and tests show them): NBoard
# puts the board in one run of 64 squares and integer results; Edax writes GM in lower
# case and no TY; both write moves in upper case.
OTHER_PROGRAMS = [
    "(;GM[Othello]PC[NBoard]DT[2014-01-29 23:05:30 GMT]PB[Andy]PW[]RE[-56]TI[5:00]TY[8]"
    "BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F4]B[E3]W[F6]B[D3//2.991];)",
    "(;GM[othello]PC[Edax]PB[?]PW[?]RE[?]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- "
    "-------- *]B[F5]W[D6]B[C3]W[D3]B[C4];)",
]


@pytest.mark.parametrize("text", OTHER_PROGRAMS)
def test_other_programs_games_are_read_and_written_back_unchanged(text):
    (game,) = read_ggf(text)
    assert game.standard_start and game.variant == Variant()
    assert game.moves[:2] in (["f5", "f4"], ["f5", "d6"])
    assert write_ggf(game) == text + "\n"


def test_a_file_of_many_games():
    text = "\n".join([SERVER_GAME] * 3) + "\n"
    games = read_ggf(text)
    assert len(games) == 3
    assert [g.transcript for g in games] == ["f5d6c3d3c4"] * 3


@pytest.mark.parametrize("text, flag, score", [
    ("+12.000", None, 12.0), ("-3.00:r", "r", -3.0), ("+64.00:t", "t", 64.0), ("0.000:s", "s", 0.0), ("?", None, None),
])
def test_results(text, flag, score):
    result = GgfResult.parse(text)
    assert (result.flag, result.score) == (flag, score)


@settings(PROPERTY, max_examples=20)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(TWO_PLAYER), plies=st.integers(0, 130),
       black=st.text(max_size=12) | st.sampled_from(["x;)y", "(;GM[", "a]b"]),
       rating=st.none() | st.floats(0, 3000, allow_nan=False).map(lambda r: round(r, 2)))
def test_any_legal_game_to_ggf_and_back(seed, variant, plies, black, rating):
    board = random_game(variant, seed, plies)
    game = game_from_board(board, black=black, white="computer", black_rating=rating, time_control="05:00//00:00",
                           date="2026.12.07_12:00:00.UTC", place="reversi")
    text = write_ggf([game, game])
    again = read_ggf(text)
    assert len(again) == 2
    for read in again:
        assert read.moves == list(board.history)
        assert read.variant == variant
        assert read.black == black and read.white == "computer"
        assert read.rating("black") == rating
        assert read.result == game.result
        assert read.board == board
    assert write_ggf(again) == text


def test_a_finished_game_carries_its_score_and_passes():
    for seed in range(200):
        board = random_game(Variant(board="6x6"), seed)
        if "pass" in board.history[:-1]:
            break
    game = game_from_board(board)
    text = write_ggf(game)
    assert "PA]" in text
    counts = board.counts()
    assert read_ggf(text)[0].result.score == counts["black"] - counts["white"]
    # a file that leaves the passes out reads the same
    without = text.replace("W[PA]", "").replace("B[PA]", "")
    assert read_ggf(without)[0].moves == list(board.history)


def test_anti_games_are_typed():
    board = random_game(Variant(anti=True), seed=1, plies=10)
    text = write_ggf(game_from_board(board))
    assert "TY[8a]" in text
    assert read_ggf(text)[0].variant == Variant(anti=True)


def test_a_handicap_start_is_written_in_the_board():
    variant = Variant(handicap=2, handicap_colour="black")
    board = random_game(variant, seed=2, plies=6)
    (read,) = read_ggf(write_ggf(game_from_board(board)))
    assert not read.standard_start
    assert read.start.bits == Board(variant).bits and read.start.turn == "black"
    assert read.moves == list(board.history)


@pytest.mark.parametrize("type_text, variant", [
    ("8", Variant()), ("8a", Variant(anti=True)), ("8A", Variant(anti=True)), ("6a", Variant(board="6x6", anti=True)),
    ("10", Variant(board="10x10")), ("8b", Variant()), ("8r20a", Variant(anti=True)),
])
def test_game_types(type_text, variant):
    (game,) = read_ggf(f"(;GM[Othello]TY[{type_text}];)")
    assert game.variant == variant


def test_the_board_with_or_without_spaces():
    compact = "8" + "-" * 27 + "O*------*O" + "-" * 27 + "*"
    (game,) = read_ggf(f"(;GM[Othello]TY[8]BO[{compact}]B[F5//0.00]W[D6];)")
    assert game.standard_start and game.moves == ["f5", "d6"]


def test_a_random_start_is_read_from_the_board():
    bo = "8 -------- -------- --*O---- ---O*--- ---*O--- -------- -------- -------- O"
    (game,) = read_ggf(f"(;GM[Othello]TY[8r6]BO[{bo}]W[b3];)")
    assert not game.standard_start
    assert game.start.turn == "white"
    assert game.moves == ["b3"]


@pytest.mark.parametrize("variant, code", [
    (Variant(board="octagon"), "octagon"), (Variant(players=3), "variant"), (Variant(free_opening=True), "variant"),
    (Variant(blocked=("a3", "h6")), "variant"),
])
def test_variants_ggf_cannot_hold_are_refused(variant, code):
    with pytest.raises(FormatError) as caught:
        game_from_board(Board(variant))
    assert caught.value.code == code


@pytest.mark.parametrize("text, code, game, move", [
    ("(;GM[Chess]TY[8];)", "not-othello", 1, None),
    ("(;GM[Othello]TY[12];)", "board-size", 1, None),
    ("(;GM[Othello]TY[s8r20];)", "type-synchro", 1, None),
    ("(;GM[Othello]TY[8k];)", "type-komi", 1, None),
    ("(;GM[Othello]TY[8]B[f5]W[f5];)", "illegal-move", 1, 2),
    ("(;GM[Othello]TY[8]B[f5]B[d6];)", "wrong-colour", 1, 2),
    ("(;GM[Othello]TY[8]B[f5]W[z9];)", "illegal-move", 1, 2),
    ("(;GM[Othello]TY[8]RE[twelve];)", "result", 1, None),
    ("(;GM[Othello]TY[8]BO[6 ------ *];)", "board", 1, None),
    ("(;GM[Othello]TY[8]B[f5];)junk", "syntax", 2, None),
    ("(;GM[Othello]TY[8]B[f5", "syntax", 1, None),
])
def test_bad_games_are_refused_with_the_game_and_move(text, code, game, move):
    with pytest.raises(FormatError) as caught:
        games = read_ggf(text)
        [g.result for g in games]
    assert (caught.value.code, caught.value.game, caught.value.move) == (code, game, move)


def test_the_error_names_the_game_in_a_file():
    good = "(;GM[Othello]TY[8]B[f5];)"
    with pytest.raises(FormatError) as caught:
        read_ggf(good + good + "(;GM[Othello]TY[8]B[f5]W[d6]B[a1];)")
    assert (caught.value.game, caught.value.move, caught.value.square, caught.value.reason) == (3, 3, "a1", "no-flips")
    assert str(caught.value).startswith("game 3, move 3: a1 is illegal")


def test_reading_is_streamed():
    games = iter_ggf(SERVER_GAME + "(;GM[Othello]TY[8]B[a1];)")
    assert next(games).transcript == "f5d6c3d3c4"
    with pytest.raises(FormatError):
        next(games)


def test_names_with_brackets_are_escaped():
    game = game_from_board(Board(), black="a]b;)c\\d")
    (read,) = read_ggf(write_ggf(game))
    assert read.black == "a]b;)c\\d"
