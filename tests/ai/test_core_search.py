"""The compiled core's evaluations and midgame search against the Python ones
(games.ai.evaluation, games.ai.learned, games.ai.search, games.ai.probcut): the same
integer values, the same value, best move and depth at a fixed depth, with and
without probability cut-offs; Normal plays the same moves with either engine and
Hard answers within its time."""

import os
import random

import pytest

from games import Board
from games.ai import choose_move, core
from games.ai.bitboard import tables, tables_for

from .conftest import make_variant, random_board as random_board_for
from .core_cases import SEARCH_CASES, SOLVE_CASES, ids, needs_core

pytestmark = needs_core


@pytest.mark.parametrize("case", SOLVE_CASES, ids=ids)
def test_the_search_finds_the_same_value_and_move_with_either_move_generation(case):
    from games.ai.levels import evaluator
    from games.ai.search import Searcher

    from .conftest import random_board

    variant = make_variant(**case)
    geo = tables(variant.geometry)
    anti = variant.anti
    depth = 3 if len(geo.squares) > 64 else 4
    for seed in range(6):
        board = random_board(variant, 6 + 5 * seed, seed)
        if board.is_game_over() or board.legal_moves == ["pass"]:
            continue
        t = board.turn_index
        P, O = board.bits[t], board.bits[1 - t]
        results = []
        for compiled in (False, True):
            s = Searcher(geo, evaluator(geo, anti), anti=anti, compiled=compiled)
            results.append((s.iterate(P, O, max_depth=depth, deadline=None)[:2], s.nodes))
        assert results[0] == results[1], board.render()


EVAL_CASES = SOLVE_CASES + [dict(board="octagon", anti=True), dict(board="10x10", anti=True),
                            dict(board="6x6", anti=True, blocked=2, seed=7)]


@pytest.mark.parametrize("case", EVAL_CASES, ids=ids)
def test_the_compiled_evaluations_give_the_python_values_exactly(case):
    """Both evaluations (learned where weights are shipped, else hand-made;
    and hand-made) on every position of seeded random games: the same
    integer, centi-discs for the mover."""
    from games.ai.levels import evaluator

    variant = make_variant(**case)
    geo = tables(variant.geometry)
    for kind in ("learned", "handmade"):
        python, native = evaluator(geo, variant.anti, kind), core.native_evaluator(geo, variant.anti, kind)
        positions = 0
        for seed in range(40):
            rng = random.Random(seed)
            board = Board(variant)
            while not board.is_game_over() and positions < 1500:
                t = board.turn_index
                P, O = board.bits[t], board.bits[1 - t]
                assert native.evaluate(P, O) == python(P, O), (kind, board.render())
                assert native.evaluate(O, P) == python(O, P), (kind, board.render())
                positions += 1
                board.push(rng.choice(board.legal_moves))
        assert positions >= 1000


def playable_positions(variant, count: int, first_seed: int, spare: int = 6):
    """``count`` seeded positions (seed, board, mover's stones, other's stones),
    from the opening to ``spare`` empties, each with a move to play."""
    squares = len(tables(variant.geometry).squares)
    found = 0
    for seed in range(20 * count):
        board = random_board_for(variant, 2 + seed % (squares - spare), first_seed + seed)
        if board.is_game_over() or board.legal_moves == ["pass"]:
            continue
        t = board.turn_index
        yield seed, board, board.bits[t], board.bits[1 - t]
        found += 1
        if found == count:
            return
    raise AssertionError(f"fewer than {count} positions")


@pytest.mark.parametrize("case", SEARCH_CASES, ids=ids)
def test_the_compiled_search_finds_the_python_searchs_value_and_move(case):
    """Iterative deepening to a fixed depth (1 to 3 plies, 4 on the small
    boards now and then), seeded positions from the opening to the end: the
    same value, best move and depth from the C search as from the Python one
    (90 positions per board and rule, over a thousand in all)."""
    from games.ai.levels import evaluator
    from games.ai.search import Searcher

    variant = make_variant(**case)
    geo = tables(variant.geometry)
    anti = variant.anti
    native = core.native_evaluator(geo, anti)
    for seed, board, P, O in playable_positions(variant, 90, 7000):
        depth = 1 + seed % (4 if len(geo.squares) <= 64 and seed % 5 == 0 else 3)
        python = Searcher(geo, evaluator(geo, anti), anti=anti).iterate(P, O, max_depth=depth)
        compiled = Searcher(geo, evaluator(geo, anti), anti=anti, native=native)
        assert compiled.iterate(P, O, max_depth=depth) == python, (depth, board.render())
        assert compiled.nodes > 0


@pytest.mark.parametrize("case", SEARCH_CASES, ids=ids)
def test_with_probability_cut_offs_the_compiled_search_is_still_the_python_one(case):
    """The selective search (probcut.py) in C and in Python, reading the same
    table of cut-offs (here one that cuts often at 3 to 5 plies): the same
    value and best move on every seeded position, though the cut-offs change
    what a full-width search finds on some of them."""
    from games.ai.levels import evaluator
    from games.ai.probcut import Cuts
    from games.ai.search import Searcher

    variant = make_variant(**case)
    geo = tables(variant.geometry)
    anti = variant.anti
    native = core.native_evaluator(geo, anti)
    cuts = Cuts(len(geo.squares), ((10.0, 0.0, 1.0), (60.0, 0.0, 5.0)), t=0.5)
    changed = 0
    for seed, board, P, O in playable_positions(variant, 40, 8000):
        depth = 3 + seed % 3
        python = Searcher(geo, evaluator(geo, anti), anti=anti, cuts=cuts).iterate(P, O, max_depth=depth)
        compiled = Searcher(geo, evaluator(geo, anti), anti=anti, native=native, cuts=cuts)
        assert compiled.iterate(P, O, max_depth=depth) == python, (depth, board.render())
        full = Searcher(geo, evaluator(geo, anti), anti=anti, native=native).iterate(P, O, max_depth=depth)
        changed += full != python
    assert changed >= 2, changed


def test_hard_searches_selectively_on_the_compiled_core_where_cut_offs_are_calibrated():
    from games.ai.levels import _searcher
    from games.ai.probcut import MODELS

    for (board, anti) in MODELS:
        geo = tables_for(board)
        assert _searcher(geo, anti, "learned", selective=True).cuts is not None
        assert _searcher(geo, anti, "learned").cuts is None  # Normal: full width
        assert _searcher(geo, anti, "handmade", selective=True).cuts is None  # calibrated for the learned one
    with core.python_engine():
        assert _searcher(tables_for("8x8"), False, "learned", selective=True).cuts is None
    # 8x8 Anti's cuts lost strength at Hard's 2 s (benchmarks/README.md): it searches full width
    assert _searcher(tables_for("8x8"), True, "learned", selective=True).cuts is None


NORMAL_PLAYS = """
import json, sys
from games import Board
from games.ai import choose_move, engine_name
from tests.ai.conftest import make_variant
assert engine_name() == "pure Python", engine_name()
out = []
for case, history in json.load(sys.stdin):
    board = Board(make_variant(**case))
    for move in history:
        board.push(move)
    out.append(choose_move(board, "normal", seed=1))
print(json.dumps(out))
"""


def test_normal_plays_the_same_moves_with_either_engine():
    """Normal's fixed-depth search in C (the compiled core) and in Python (a
    process without it): the same move on seeded positions of every board and
    rule set, from the opening to Normal's solving horizon."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from .conftest import random_board

    jobs, moves = [], []
    for case in SEARCH_CASES:
        variant = make_variant(**case)
        squares = len(tables(variant.geometry).squares)
        for seed in range(8):
            board = random_board(variant, 3 + seed * (squares - 14) // 8, 500 + seed)
            if board.is_game_over():
                continue
            jobs.append((case, [str(m) for m in board.history]))
            moves.append(choose_move(board, "normal", seed=1))
    env = {**os.environ, "GAMES_AI_ENGINE": "python"}
    env.pop("GAMES_AI_REQUIRE_CORE", None)
    out = subprocess.run([sys.executable, "-c", NORMAL_PLAYS], input=json.dumps(jobs), env=env, text=True,
                         cwd=Path(__file__).resolve().parents[2], capture_output=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == moves
    assert len(moves) >= 80


def test_hard_and_normal_search_in_the_compiled_core():
    from games.ai.levels import _searcher

    for anti in (False, True):
        geo = tables_for("8x8")
        assert _searcher(geo, anti, "learned").native is not None
        assert _searcher(geo, anti, "handmade").native is not None


def test_hard_answers_within_its_time_on_the_compiled_search():
    """Midgame positions of every board: Hard's iterative deepening in C stops
    at the deadline (it looks at the clock every 1024 nodes)."""
    import time

    for case in SEARCH_CASES[:4]:
        variant = make_variant(**case)
        for seed in range(2):
            board = random_board_for(variant, 20 + 6 * seed, 900 + seed)
            if board.is_game_over() or len(board.legal_moves) < 2:
                continue
            start = time.monotonic()
            move = choose_move(board, "hard", time_limit=0.5, seed=seed)
            assert time.monotonic() - start < 0.5
            assert move in board.legal_moves


@pytest.mark.parametrize("case", SEARCH_CASES[:4] + SEARCH_CASES[-4:], ids=ids)
def test_every_moves_value_is_the_python_searchs_with_the_replies_searched_in_c(case):
    """The analysis weighs every move with ``move_values``: each reply searched
    in C gives the value the Python search gives it, at 1 to 3 plies."""
    from games.ai.levels import evaluator
    from games.ai.search import Searcher

    variant = make_variant(**case)
    geo = tables(variant.geometry)
    anti = variant.anti
    for seed, board, P, O in playable_positions(variant, 20, 9000, spare=8):
        depth = 1 + seed % 3
        python = Searcher(geo, evaluator(geo, anti), anti=anti).move_values(P, O, depth)
        compiled = Searcher(geo, evaluator(geo, anti), anti=anti, native=core.native_evaluator(geo, anti))
        assert sorted(compiled.move_values(P, O, depth)) == sorted(python), (depth, board.render())
