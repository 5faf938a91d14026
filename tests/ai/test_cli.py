"""Match runner and command line."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games import Board, Variant
from games.ai import core
from games.ai.tools.cli import main, parse_ids
from games.ai.tools.match import run_match


def test_match_runs_and_rotates_seats():
    result = run_match(Variant(board="6x6"), "easy", "random", 4, seed=1)
    assert result.n == 4
    assert [g.seat_a for g in result.games] == [0, 1, 0, 1]
    assert result.games[0].moves[:4] == result.games[1].moves[:4]  # same opening, swapped colours
    assert "easy vs random" in result.summary()


def test_multiplayer_match_counts_fair_share():
    result = run_match(Variant(players=3), "normal", "easy", 3, seed=2)
    assert [g.seat_a for g in result.games] == [0, 1, 2]
    assert "fair share 33.3%" in result.summary()


def test_solve_command(tmp_path: Path, capsys):
    f = tmp_path / "pos.txt"
    f.write_text(
        "# comment\n"
        "5 -OOOOO----OXXO-XXXOXOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOOO---XXXXX-- X g8 +32 14\n"
        "20 XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X h5 +6 6\n"
    )
    assert main(["solve", str(f), "--ids", "20"]) == 0
    out = capsys.readouterr().out
    assert "h5" in out and "+6" in out and " 5 " not in out.splitlines()[1]


def test_play_command(capsys):
    assert main(["play", "--board", "6x6", "--a", "easy", "--b", "random", "--games", "2", "--quiet"]) == 0
    assert "2 games" in capsys.readouterr().out


def test_parse_ids():
    assert parse_ids("1-3,7") == {"1", "2", "3", "7"}
    assert parse_ids(None) is None


def test_python_m_games_has_play_and_solve(tmp_path: Path, capsys):
    from games.__main__ import main as games_main

    f = tmp_path / "pos.txt"
    f.write_text("20 XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X h5 +6 6\n")
    assert games_main(["solve", str(f)]) == 0
    assert games_main(["play", "--board", "6x6", "--a", "easy", "--b", "random", "--games", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "h5" in out and "1 games" in out


def test_hard_plays_hard_on_the_pure_python_engine():
    """``hard-python``: Hard as before the compiled core, to measure the core's gain."""
    result = run_match(Variant(board="6x6"), "hard", "hard-python", 2, time_limit=0.05, seed=3)
    assert result.n == 2
    assert "hard vs hard-python" in result.summary()


def test_hard_plays_hard_without_its_cut_offs():
    """``hard-fullwidth``: Hard on the compiled core searching full width, to
    measure what the probability cut-offs bring; inside it no cut-offs are handed out."""
    from games.ai.bitboard import tables_for
    from games.ai.levels import _searcher
    from games.ai.probcut import full_width

    result = run_match(Variant(board="8x8", anti=True), "hard", "hard-fullwidth", 2, time_limit=0.05, seed=3)
    assert result.n == 2
    assert "hard vs hard-fullwidth" in result.summary()
    with full_width():
        assert _searcher(tables_for("8x8"), True, "learned", selective=True).cuts is None


def test_hard_plays_hard_as_it_was_before_the_core_and_a_refit(tmp_path, monkeypatch):
    """``hard-python-previous``: the pure-Python Hard with the weights of ``--previous``
    (Hard as it was before the compiled core and a refit)."""
    from games.ai.learned import WEIGHTS_DIR
    from games.ai.tools.match import player

    level, engine, evaluation = player("hard-python-previous")
    assert (level, evaluation) == ("hard", "previous")
    with engine:
        assert not core.available()
    assert player("hard-previous")[2] == "previous" and player("hard-python")[2] == "learned"

    shutil.copy(WEIGHTS_DIR / "6x6.bin", tmp_path / "6x6.bin")
    monkeypatch.setenv("GAMES_AI_PREVIOUS_WEIGHTS", str(tmp_path))
    result = run_match(Variant(board="6x6"), "hard", "hard-python-previous", 2, time_limit=0.05, seed=3)
    assert result.n == 2
    assert "hard vs hard-python-previous" in result.summary()


def test_a_match_in_parts_plays_the_games_of_the_whole_match(capsys):
    """``--skip``: a long match played in parts; the later part keeps its openings,
    seats and seeds (Easy is seeded, so the very same games)."""
    whole = run_match(Variant(board="6x6"), "easy", "random", 4, seed=5)
    rest = run_match(Variant(board="6x6"), "easy", "random", 4, seed=5, skip=2)
    assert [(g.opening, g.seat_a, g.moves) for g in rest.games] == [(g.opening, g.seat_a, g.moves) for g in whole.games[2:]]

    assert main(["play", "--board", "6x6", "--a", "easy", "--b", "random", "--games", "4", "--skip", "3"]) == 0
    assert capsys.readouterr().out.startswith("game   4: opening 1, A in seat 2")
    assert main(["play", "--board", "6x6", "--a", "easy", "--b", "random", "--games", "4", "--skip", "4"]) == 2
    assert "--skip must leave some of the 4 games" in capsys.readouterr().err


def test_a_recorded_match_keeps_every_game_to_replay(tmp_path: Path, capsys):
    """``--record``: each game a JSON line, appended, so the parts of a match fill
    one file; the moves replay to the result the match printed."""
    record = tmp_path / "match.jsonl"

    def match(*more):
        return main(["play", "--board", "6x6", "--anti", "--a", "easy", "--b", "random", "--seed", "4",
                     "--record", str(record), *more])

    assert match("--games", "2") == 0
    assert match("--games", "3", "--skip", "2") == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("game")]

    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert [g["game"] for g in games] == [1, 2, 3]
    assert [g["seat_a"] for g in games] == [1, 2, 1]
    for game, line in zip(games, printed):
        assert line.startswith(f"game {game['game']:3d}: opening {game['opening']}, A in seat {game['seat_a']}: "
                               f"{game['result']} ({game['margin_a']:+d})")
        board = Board(Variant(board="6x6", anti=True))
        for move in game["moves"]:
            board.push(move)
        assert board.is_game_over()
        a = board.colours[game["seat_a"] - 1]
        winner = board.outcome().winner
        assert game["result"] == ("draw" if winner is None else "win" if winner == a else "loss")
    assert games[0]["variant"] == {"board": "6x6", "players": 2, "anti": True, "free_opening": False,
                                   "blocked": 0, "handicap": 0, "handicap_colour": "white"}


def test_where_a_recorded_match_was_decided(tmp_path: Path):
    """benchmarks/decided.py solves each recorded game from a number of empties:
    its table counts every game, and in each game A did not win, the exact value
    there plus the changes the moves made comes to A's result."""
    if not core.available():
        pytest.skip("the compiled core is not built")
    record = tmp_path / "match.jsonl"
    assert main(["play", "--board", "6x6", "--a", "easy", "--b", "normal", "--games", "4", "--seed", "3",
                 "--record", str(record), "--quiet"]) == 0
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "decided.py"
    out = subprocess.run([sys.executable, str(script), str(record), "--empties", "12"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith("4 games")
    assert sum(int(n) for row in out[2:5] for n in row.split()[1:]) == 4
    details = out[5:]
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert len(details) == sum(g["result"] != "win" for g in games) > 0
    for line in details:
        result, final = re.match(r"game \d+: (\w+) \(([-+]\d+)\)", line).groups()
        start = int(re.search(r"A's exact value ([-+]\d+)", line).group(1))
        changes = [int(c) for c in re.findall(r"ply \d+ [AB] \w+ ([-+]\d+)", line)]
        assert start + sum(changes) == int(final)
        assert result == ("draw" if int(final) == 0 else "loss")
