"""The compiled core (games.ai._core) against the pure-Python engine, its
reference: the same legal moves and flips on every board, the same perft, the
refusals of what it cannot take, and the Python engine where the core is absent.
GAMES_AI_REQUIRE_CORE=1 (CI) makes its absence a failure instead of a skip.  Its
exact solver: test_core_solver.py; its evaluations and search: test_core_search.py."""

import os
import random

import pytest

from games import Board
from games.ai import core
from games.ai.bitboard import tables, tables_for
from games.ai.endgame import EndgameSolver
from games.rules.perft import perft_plain

from .conftest import make_variant
from .core_cases import BOARDS, ids

REQUIRED = os.environ.get("GAMES_AI_REQUIRE_CORE") == "1"


def test_the_compiled_core_is_in_use_when_required():
    if not REQUIRED:
        pytest.skip("GAMES_AI_REQUIRE_CORE is not set (CI sets it)")
    assert core.available()
    assert core.engine_name() == "compiled core (games.ai._core)"
    from games.ai.levels import make_solver

    assert isinstance(make_solver(tables_for("8x8")), core.CoreSolver)


def test_without_the_core_the_python_engine_plays_and_solves():
    """GAMES_AI_ENGINE=python: what a machine without a compiler runs."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "from games import Board, Variant; from games.ai import choose_move, engine_name; "
        "from games.ai.levels import make_solver; from games.ai.endgame import EndgameSolver; "
        "from games.ai.bitboard import tables_for; "
        "assert engine_name() == 'pure Python', engine_name(); "
        "assert type(make_solver(tables_for('8x8'))) is EndgameSolver; "
        "b = Board(Variant(board='6x6')); "
        "[b.push(choose_move(b, 'hard', time_limit=0.3, seed=1)) for _ in range(40) if not b.is_game_over()]; "
        "print(b.is_game_over())"
    )
    env = {**os.environ, "GAMES_AI_ENGINE": "python"}
    env.pop("GAMES_AI_REQUIRE_CORE", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=Path(__file__).resolve().parents[2],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"


@pytest.fixture(autouse=True)
def compiled(request):
    if request.node.name.startswith(("test_the_compiled_core_is_in_use", "test_without_the_core")):
        return
    if not core.available():
        pytest.skip("the compiled core is not built (pip install -e . builds it)")


@pytest.mark.parametrize("case", BOARDS, ids=ids)
def test_moves_and_flips_agree_along_random_games(case):
    variant = make_variant(**case)
    geo = tables(variant.geometry)
    c = core.core_for(geo, False)
    positions = 0
    for seed in range(12):
        rng = random.Random(seed)
        board = Board(variant)
        while not board.is_game_over():
            t = board.turn_index
            P, O = board.bits[t], board.bits[1 - t]
            mv = geo.moves(P, O)
            assert c.moves(P, O) == mv
            m = mv
            while m:
                b = m & -m
                m ^= b
                assert c.flips(b.bit_length() - 1, P, O) == c.flips_bit(b, P, O) == geo.flips(b, P, O)
            positions += 1
            board.push(rng.choice(board.legal_moves))
    assert positions > 300


@pytest.mark.parametrize("case,depth", [(dict(board="8x8"), 6), (dict(board="6x6"), 7),
                                        (dict(board="10x10"), 4), (dict(board="octagon"), 5),
                                        (dict(board="8x8", blocked=6, seed=5), 5)], ids=str)
def test_perft_agrees_with_the_rules_library(case, depth):
    variant = make_variant(**case)
    board = Board(variant)
    geo = tables(variant.geometry)
    t = board.turn_index
    expected = perft_plain(board, depth)
    assert core.core_for(geo, False).perft(board.bits[t], board.bits[1 - t], depth) == expected


def core_arguments(board="8x8", **changed):
    """Core's arguments for a board, with some of them changed."""
    geo = tables_for(board)
    arguments = dict(playable=geo.playable, corners=geo.corners, x_squares=geo.x_squares, stride=geo.stride,
                     longest=max(geo.width, geo.height), region=list(geo.region_of),
                     priority=list(geo.shallow_priority), anti=False)
    return {**arguments, **changed}


@pytest.mark.parametrize("changed,complaint", [
    (dict(stride=0), "stride"),  # it divided by zero
    (dict(stride=1), "stride"),  # a diagonal of no length: it never ended a ray
    (dict(stride=-9), "stride"),
    (dict(stride=200), "stride"),  # shifts past the 128 bits
    (dict(longest=0), "longest"),
    (dict(longest=129), "longest"),
    (dict(playable=1 << 8), "never-playable column"),  # the sentinel column of stride 9
    (dict(corners=1 << 71 | 1), "corners"),  # bit 71: not a square of 8x8
    (dict(x_squares=1 << 8), "x_squares"),
    (dict(region=[0] * 129), "region"),  # more squares than 128 bits
    (dict(region=[0] * 40), "region"),  # fewer than the playable squares
    (dict(region=[0] * 71 + [32]), "region"),  # a region past the parity mask's bits
    (dict(region=[0] * 71 + [-1]), "region"),
    (dict(priority=[1] * 200), "priority"),
    (dict(priority=[1] * 71 + [-5]), "priority"),
], ids=lambda v: str(v) if isinstance(v, str) else ",".join(v))
def test_the_core_refuses_a_geometry_it_cannot_search_with_a_value_error(changed, complaint):
    with pytest.raises(ValueError, match=complaint):
        core.Core(**core_arguments(**changed))


@pytest.mark.parametrize("bitboard", [-1, -(1 << 100), 1 << 128, 1 << 200])
def test_a_bitboard_is_an_int_of_at_most_128_bits(bitboard):
    c = core.Core(**core_arguments())
    with pytest.raises(OverflowError):
        c.moves(bitboard, 0)
    with pytest.raises(OverflowError):
        c.flips(20, 0, bitboard)
    with pytest.raises(TypeError):
        c.moves("1", 0)


def test_bitboards_come_back_whole_up_to_the_128th_bit():
    stride = 62  # rows of 61 squares: bits 0-60, 62-122 and 124-127
    playable = sum(1 << sq for sq in range(128) if sq % stride != stride - 1)
    c = core.Core(**core_arguments(stride=stride, longest=61, playable=playable, corners=0, x_squares=0,
                                   region=[0] * 128, priority=[1] * 128))
    for low in (0, 61 - 3, 62, 124, 125):  # P, O and the move along a row: below, across and up to bit 127
        P, O = 1 << low, 1 << (low + 1)
        assert c.moves(P, O) == 1 << (low + 2)
        assert c.flips(low + 2, P, O) == c.flips_bit(1 << (low + 2), P, O) == O
    assert c.moves(playable, 0) == 0 and c.moves(0, playable) == 0
    assert c.perft(1 << 125, 1 << 126, 1) == 1


def test_inside_python_engine_the_players_run_without_the_core():
    """The match runner's ``hard-python`` (Hard as before the core) runs here."""
    geo = tables_for("8x8")
    with core.python_engine():
        assert not core.available()
        assert core.native_evaluator(geo, False) is None
        assert isinstance(core.make_solver(geo), EndgameSolver)
    assert core.available()
    assert isinstance(core.make_solver(geo), core.CoreSolver)


