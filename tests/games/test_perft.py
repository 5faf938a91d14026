"""Perft: the published 8x8 figures, tables for every board, player count and
option checked against the simple reference implementation, and the CLI."""

import random
import subprocess
import sys
from pathlib import Path

import pytest

from games import Board, Variant
from games.rules.perft import divide, perft, perft_plain

from .reference import RefGame
from .reference import perft as ref_perft

STANDARD = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]

# name: (Variant fields, perft at depth 1, 2, ...).  The figures come from the fast
# perft; the test checks them against the reference implementation up to
# REFERENCE_LEAVES leaves (its cost), the deeper ones guard against regressions.
# Endgame and midgame positions below are compared with the reference as well.
TABLE = {
    "6x6": (dict(board="6x6"), [4, 12, 56, 244, 1364, 7604, 47740]),
    "10x10": (dict(board="10x10"), [4, 12, 56, 244, 1396, 8200, 55180]),
    "octagon": (dict(board="octagon"), [4, 12, 56, 244, 1396, 8200, 55136]),
    "8x8 3p": (dict(players=3), [3, 20, 136, 630, 3956, 27778]),
    "8x8 4p": (dict(players=4), [3, 20, 136, 1366, 7427, 44154]),
    "10x10 3p": (dict(board="10x10", players=3), [3, 20, 136, 630, 4019, 29450]),
    "10x10 4p": (dict(board="10x10", players=4), [3, 20, 136, 1366, 7439, 44879]),
    "octagon 3p": (dict(board="octagon", players=3), [3, 20, 136, 630, 4004, 28959]),
    "octagon 4p": (dict(board="octagon", players=4), [3, 20, 136, 1366, 7435, 44711]),
    "8x8 anti": (dict(anti=True), [4, 12, 56, 244, 1396, 8200, 55092]),
    "octagon 4p anti": (dict(board="octagon", players=4, anti=True), [3, 20, 136, 1366, 7435, 44711]),
    "6x6 free": (dict(board="6x6", free_opening=True), [4, 12, 24, 24, 96, 320, 1536, 6624]),
    "8x8 free": (dict(free_opening=True), [4, 12, 24, 24, 96, 320, 1536, 6624]),
    "10x10 free": (dict(board="10x10", free_opening=True), [4, 12, 24, 24, 96, 320, 1536, 6624]),
    "octagon free anti": (dict(board="octagon", free_opening=True, anti=True), [4, 12, 24, 24, 96, 320, 1536, 6624]),
    "6x6 blocked": (dict(board="6x6", blocked=("b1", "e6", "a3", "f4")), [4, 12, 54, 212, 1118, 5484, 31120]),
    "8x8 blocked": (dict(blocked=("b2", "g7", "c2", "f7", "b6", "g3")), [4, 12, 50, 196, 980, 5100, 29732]),
    "10x10 blocked": (dict(board="10x10", blocked=("c4", "h7", "d3", "g8")), [4, 12, 52, 208, 1096, 5864, 35648]),
    "octagon blocked": (dict(board="octagon", blocked=("c3", "h8", "b5", "i6")), [4, 12, 56, 240, 1324, 7510, 48390]),
    "8x8 3p blocked": (dict(players=3, blocked=("b3", "g6", "c2", "f7")), [3, 19, 113, 459, 2538, 16817]),
    "10x10 4p blocked": (dict(board="10x10", players=4, blocked=("d3", "g8")), [3, 19, 118, 1213, 6175, 35463]),
    "octagon 3p blocked": (dict(board="octagon", players=3, blocked=("c5", "h6")), [3, 20, 132, 601, 3581, 24598]),
    "6x6 handicap 4": (dict(board="6x6", handicap=4), [4, 12, 56, 256, 1364, 7732, 45048]),
    "8x8 handicap 2 black": (dict(handicap=2, handicap_colour="black"), [4, 12, 56, 244, 1400, 8192, 55088]),
    "10x10 handicap 1": (dict(board="10x10", handicap=1), [4, 12, 56, 244, 1396, 8200, 55180]),
    "8x8 free blocked handicap anti": (
        dict(free_opening=True, blocked=("b3", "g6", "c2", "f7"), handicap=3, anti=True),
        [4, 12, 24, 24, 96, 304, 1360, 5440],
    ),
}
REFERENCE_LEAVES = 1400


def test_standard_start_to_depth_8():
    assert [perft(Variant(), d) for d in range(1, 9)] == STANDARD[:8]


@pytest.mark.slow
def test_standard_start_depth_9():
    assert perft(Variant(), 9) == 3005288


@pytest.mark.parametrize("name", list(TABLE))
def test_perft_table(name):
    fields, counts = TABLE[name]
    v = Variant(**fields)
    assert [perft(v, d) for d in range(1, len(counts) + 1)] == counts
    ref = RefGame(v)
    checked = [n for n in counts if n <= REFERENCE_LEAVES]
    assert [ref_perft(ref, d) for d in range(1, len(checked) + 1)] == checked


def _random_position(v: Variant, rng: random.Random, empties: int) -> Board:
    """Play at random until ``empties`` playable squares are left (or the end)."""
    b = Board(v)
    while b.legal_moves and b.geometry.playable_count - b.occupied.bit_count() > empties:
        b.push(rng.choice(b.legal_moves))
    return b


ENDGAME_VARIANTS = [
    dict(board="6x6"),
    dict(board="8x8", anti=True),
    dict(board="10x10", blocked=("c4", "h7")),
    dict(board="octagon"),
    dict(board="8x8", players=3),
    dict(board="8x8", players=4, blocked=("b2", "g7", "b3", "g6")),
    dict(board="10x10", players=3, blocked=("a1", "j10")),
    dict(board="octagon", players=4),
    dict(board="octagon", players=3, blocked=("c5", "h6", "b3", "i8")),
]


@pytest.mark.parametrize("fields", ENDGAME_VARIANTS, ids=lambda f: "-".join(map(str, f.values())))
def test_endgame_perft_matches_reference(fields):
    """Near the end passes, cut-off squares and finished games show up."""
    v = Variant(**fields)
    rng = random.Random(str(fields))
    for _ in range(3):
        b = _random_position(v, rng, empties=6 if v.players == 2 else 5)
        ref = RefGame(v)
        for m in b.history:
            ref.play(m)
        for depth in (1, 2, 4, 8):
            assert perft(b, depth) == ref_perft(ref, depth), (b.history, depth)


@pytest.mark.parametrize("name", ["8x8 3p", "octagon 4p", "10x10 blocked", "6x6 handicap 4"])
def test_midgame_perft_matches_reference(name):
    v = Variant(**TABLE[name][0])
    rng = random.Random(name)
    b = _random_position(v, rng, empties=v.geometry.playable_count // 2)
    ref = RefGame(v)
    for m in b.history:
        ref.play(m)
    assert perft(b, 3) == ref_perft(ref, 3)


def test_divide_and_plain_perft_agree():
    d = divide(Variant(), 5)
    assert d == {"d3": 349, "c4": 349, "f5": 349, "e6": 349}
    assert sum(d.values()) == STANDARD[4]
    assert [perft_plain(Variant(), n) for n in range(1, 7)] == STANDARD[:6]
    b = Board(Variant(board="6x6"))
    b.push("c2")
    assert perft_plain(b, 5) == perft(b, 5)
    assert perft_plain(Variant(players=3), 4) == 630


def test_perft_of_a_finished_game_is_one_leaf():
    b = Board.from_transcript(Variant(), "f5d6c5f4e7f6g5e6e3")
    assert b.is_game_over()
    assert [perft(b, d) for d in (0, 1, 5)] == [1, 1, 1]
    assert perft(Variant(), 0) == 1


def _run_cli(*args):
    root = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, "-m", "games", "perft", *args],
        cwd=root, capture_output=True, text=True, timeout=120,
    )


def test_command_line_prints_each_depth():
    out = _run_cli("--board", "8x8", "--depth", "5")
    assert out.returncode == 0, out.stderr
    rows = [line.split() for line in out.stdout.splitlines()[2:]]
    assert [int(r[0]) for r in rows] == [1, 2, 3, 4, 5]
    assert [int(r[1].replace(",", "")) for r in rows] == STANDARD[:5]
    assert "leaves/s" in out.stdout


def test_command_line_options_and_errors():
    out = _run_cli("--board", "octagon", "--players", "3", "--anti", "--blocked", "c5,h6", "--depth", "3")
    assert out.returncode == 0, out.stderr
    assert [int(line.split()[1]) for line in out.stdout.splitlines()[2:]] == [3, 20, 132]
    out = _run_cli("--board", "6x6", "--players", "3", "--depth", "2")
    assert out.returncode == 2 and "docs/rules.md §9" in out.stderr and "Traceback" not in out.stderr
    out = _run_cli("--board", "8x8", "--blocked", "c5,h6", "--depth", "2")
    assert out.returncode == 2 and "docs/rules.md §6" in out.stderr
    out = _run_cli("--free-opening", "--handicap", "2", "--random-blocked", "4", "--seed", "7", "--depth", "4")
    assert out.returncode == 0 and out.stdout.splitlines()[-1].split()[1] == "24"
