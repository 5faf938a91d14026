"""The learned weights of every board and rule set are read once per process, before
any move (a Celery worker does it at start: config.celery), and stay loaded: no move
pays for reading them, so a move never depends on the time that takes."""

import subprocess
import sys
from pathlib import Path

import pytest

from games import Variant
from games.ai import core, learned, levels, load_shipped_weights
from games.ai.bitboard import tables
from games.rules.geometry import get_geometry

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(path.stem for path in learned.WEIGHTS_DIR.glob("*.bin"))


def test_every_shipped_board_and_rule_is_loaded_at_once():
    assert len(SHIPPED) == 8
    assert load_shipped_weights() == SHIPPED
    assert learned.loaded_weights() == SHIPPED


def test_the_shipped_weights_stay_loaded_while_other_boards_come_and_go():
    """Boards with blocked squares (a new geometry each game) once pushed the shipped
    weights out of the caches, and the next move on that board read them again."""
    load_shipped_weights()
    kept = {(board, anti): learned.shipped_stages(get_geometry(board), anti)
            for board in ("6x6", "8x8", "10x10", "octagon") for anti in (False, True)}
    for seed in range(60):
        variant = Variant.with_random_blocked(4, seed=seed, board="8x8", anti=seed % 2 == 1)
        geo = tables(variant.geometry)
        levels.evaluator(geo, variant.anti)
        core.native_evaluator(geo, variant.anti)
    for (board, anti), stages in kept.items():
        assert stages is not None
        assert learned.shipped_stages(get_geometry(board), anti) is stages, (board, anti)
    assert learned.loaded_weights() == SHIPPED


# Positions of 10x10 Anti (random openings) where Normal's move cut short by reading
# the weights inside its time differed from its move at full depth.
POSITIONS = [(0, 10), (0, 30), (2, 10), (2, 30)]

FRESH_PROCESS = """
import json, random, sys
from games import Board, Variant
from games.ai import choose_move, load_shipped_weights
load_shipped_weights()  # what a worker does when it starts
moves = []
for seed, plies in json.loads(sys.argv[1]):
    board = Board(Variant(board="10x10", anti=True))
    rng = random.Random(seed)
    for _ in range(plies):
        board.push(rng.choice(board.legal_moves))
    hurried = choose_move(board, "normal", time_limit=0.15, seed=1)
    moves.append([hurried, choose_move(board, "normal", seed=1)])
print(json.dumps(moves))
"""


def test_normal_gives_the_same_move_for_a_seed_in_a_fresh_process_on_a_short_budget():
    """A short budget stands for a loaded machine: once the weights were read at start,
    Normal's fixed-depth search (milliseconds on the compiled core) fits any budget it
    is given and its move is the one it finds with no limit at all."""
    if not core.available():
        pytest.skip("on the pure-Python engine Normal's search itself can outlast 0.15 s")
    import json

    out = subprocess.run([sys.executable, "-c", FRESH_PROCESS, json.dumps(POSITIONS)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    for (hurried, calm), position in zip(json.loads(out.stdout), POSITIONS):
        assert hurried == calm, position
