"""WTHOR databases written by the tests from the published layout, read back."""

import io

import pytest

from games.rules import Board, Variant
from study.formats import FormatError
from study.formats.wthor import iter_games, read_header, read_players, read_tournaments
from tests.study import wthor_files
from tests.study.random_games import random_game


def random_games(count, first_seed=0):
    return [random_game(Variant(), seed) for seed in range(first_seed, first_seed + count)]


def test_the_writer_follows_the_layout():
    data = wthor_files.database([["f5", "d6"]], year=1998)
    assert len(data) == 16 + 68
    assert data[4:8] == (1).to_bytes(4, "little")
    assert data[10:12] == (1998).to_bytes(2, "little")
    assert data[16 + 8:16 + 10] == bytes([56, 64])  # f5 = 10 x 5 + 6, d6 = 10 x 6 + 4


def test_a_database_reads_back_with_names_and_inferred_passes():
    boards = random_games(40)
    with_pass = next(b for b in (random_game(Variant(board="8x8"), s) for s in range(2000))
                     if "pass" in b.history[:-1])
    boards.append(with_pass)
    games = [{"moves": list(b.history), "tournament": i % 2, "black": i % 3, "white": (i + 1) % 3,
              "black_discs": b.counts()["black"], "theoretical": 30} for i, b in enumerate(boards)]
    data = wthor_files.database(games, year=2004)
    players = read_players(wthor_files.names(["Tamenori Hideshi", "Müller, Jörg", "Leader Imre"], 20))
    tournaments = read_tournaments(wthor_files.names(["Championnat de France", "Paris Open"], 26))
    read = list(iter_games(io.BytesIO(data), players, tournaments))
    assert len(read) == len(boards)
    for game, board, spec in zip(read, boards, games):
        assert game.moves == tuple(m for m in board.history if m != "pass")
        assert game.passes == board.history.count("pass")
        assert game.black == players[spec["black"]] and game.white == players[spec["white"]]
        assert game.tournament == tournaments[spec["tournament"]]
        assert game.black_discs == board.counts()["black"] and game.theoretical_score == 30
        assert game.year == 2004
        assert Board.from_transcript(None, game.transcript).history[:len(board.history)] == board.history
    assert read[-1].passes >= 1
    assert players[1] == "Müller, Jörg"


def test_without_name_files_the_indices_stand():
    (game,) = iter_games(wthor_files.database([{"moves": ["f5"], "black": 7, "white": 9, "tournament": 3}]))
    assert (game.black, game.white, game.tournament) == (7, 9, 3)


def test_the_header():
    header = read_header(wthor_files.header(games=5, year=1977, created=(2026, 12, 7)))
    assert (header.games, header.year, header.created, header.board_size) == (5, 1977, (2026, 12, 7), 8)


def test_reading_is_a_stream():
    data = wthor_files.database([["f5"], {"moves": [], "codes": [56, 11]}])
    games = iter_games(io.BytesIO(data))
    assert next(games).moves == ("f5",)  # the bad second record is not read yet
    with pytest.raises(FormatError):
        next(games)


@pytest.mark.parametrize("records, code, game, move", [
    ([["f5", "d6"], ["f5", "a1"]], "illegal-move", 2, 2),
    ([{"moves": [], "codes": [56, 99]}], "move-code", 1, 2),
    ([{"moves": [], "codes": [56, 0, 64]}], "move-after-end", 1, 3),
    ([{"moves": ["f5"], "black_discs": 70}], "discs", 1, None),
])
def test_bad_records_name_the_game_and_move(records, code, game, move):
    with pytest.raises(FormatError) as caught:
        list(iter_games(wthor_files.database(records)))
    assert (caught.value.code, caught.value.game, caught.value.move) == (code, game, move)


def test_an_illegal_move_says_why():
    with pytest.raises(FormatError) as caught:
        list(iter_games(wthor_files.database([["f5", "d6"], ["f5", "d6", "d6"]])))
    error = caught.value
    assert (error.game, error.move, error.square, error.reason) == (2, 3, "d6", "occupied")
    assert str(error).startswith("game 2, move 3: d6 is illegal")


def test_a_move_after_the_game_is_over():
    board = random_game(Variant(), seed=5)
    moves = [m for m in board.history if m != "pass"]
    if len(moves) < 60:
        codes = [wthor_files.move_code(m) for m in moves] + [11]
        with pytest.raises(FormatError) as caught:
            list(iter_games(wthor_files.database([{"moves": [], "codes": codes}])))
        assert caught.value.move == len(moves) + 1


def test_a_truncated_or_overlong_file():
    data = wthor_files.database([["f5"], ["f5"]])
    with pytest.raises(FormatError) as caught:
        list(iter_games(data[:-10]))
    assert (caught.value.code, caught.value.game) == ("truncated", 2)
    with pytest.raises(FormatError) as caught:
        list(iter_games(data + b"\0" * 68))
    assert caught.value.code == "trailing"
    with pytest.raises(FormatError) as caught:
        list(iter_games(data[:10]))
    assert caught.value.code == "header"


def test_other_board_sizes_are_refused():
    with pytest.raises(FormatError) as caught:
        list(iter_games(wthor_files.database([["f5"]], board_size=10)))
    assert caught.value.code == "board-size"


def test_a_player_missing_from_the_name_file():
    players = read_players(wthor_files.names(["only one"], 20))
    with pytest.raises(FormatError) as caught:
        list(iter_games(wthor_files.database([{"moves": ["f5"], "black": 0, "white": 4}]), players))
    assert (caught.value.code, caught.value.game) == ("unknown-name", 1)


def test_a_short_name_file():
    data = wthor_files.names(["a", "b"], 20)
    with pytest.raises(FormatError) as caught:
        read_players(data[:-5])
    assert caught.value.code == "names-truncated"
