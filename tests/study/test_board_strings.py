"""Board strings (the FFO test set's one-line positions) to and from a Board."""

from pathlib import Path

import pytest

from games.rules import Board, Variant
from study.formats import FormatError
from study.formats.board_strings import read_board_string, write_board_string
from tests.study.random_games import random_game

FFO = Path(__file__).resolve().parent / "data" / "ffo_positions.txt"
START = "---------------------------OX------XO--------------------------- X"


def ffo_lines():
    return [line.strip() for line in FFO.read_text().splitlines() if line.strip() and not line.startswith("#")]


def test_the_sample_holds_ffo_positions():
    assert len(ffo_lines()) >= 10


@pytest.mark.parametrize("line", ffo_lines())
def test_every_ffo_position_reads_and_writes_back(line):
    read = read_board_string(line)
    assert read.style == "-XO"
    assert str(read) == line
    squares, side = line.split()
    assert read.board.turn == ("black" if side == "X" else "white")
    counts = read.board.counts()
    assert (counts["black"], counts["white"]) == (squares.count("X"), squares.count("O"))
    # the same position in the .*O alphabet, lower case, spread over lines
    other = squares.replace("-", ".").replace("X", "*")
    spread = "\n".join(other[i:i + 8].lower() for i in range(0, 64, 8)) + "\n" + ("*" if side == "X" else "O")
    again = read_board_string(spread)
    assert again.style == ".*O" and again.board == read.board
    assert write_board_string(again.board, ".*O") == f"{other} {'*' if side == 'X' else 'O'}"


def test_the_start():
    read = read_board_string(START)
    assert read.board == Board()
    assert read_board_string(START[:64]).board == Board()  # black to move when left out
    assert read_board_string(START[:64] + "white").board.turn == "white"


@pytest.mark.parametrize("board", ["6x6", "8x8", "10x10", "octagon"])
def test_every_board_by_its_length(board):
    position = random_game(Variant(board=board), seed=3, plies=12)
    text = write_board_string(position)
    again = read_board_string(text).board
    assert again.variant.board == board
    assert again == position.copy(history=False)


@pytest.mark.parametrize("text, code, square", [
    ("-" * 62 + " X", "length", None),
    ("-" * 27 + "OX------XO" + "-" * 26 + "Q X", "character", "h8"),
    (START[:64] + " Z", "side", None),
    ("-" * 27 + "OX--?---XO" + "-" * 27 + " X", "character", "h4"),
])
def test_malformed_strings_are_refused_precisely(text, code, square):
    with pytest.raises(FormatError) as caught:
        read_board_string(text)
    assert caught.value.code == code
    assert caught.value.square == square


def test_a_position_off_the_variant():
    with pytest.raises(FormatError) as caught:
        read_board_string("#" + START[1:])
    assert caught.value.code == "position"


def test_three_players_have_no_board_string():
    with pytest.raises(FormatError):
        write_board_string(Board(Variant(board="8x8", players=3)))
