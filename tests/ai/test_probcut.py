"""The probability cut-offs of Hard's midgame search (games/ai/probcut.py), on
the pure-Python search: what the table holds, that cut-offs which can never
fire leave the full-width search as it was, and that calibrated ones save
nodes.  tests/ai/test_core_search.py checks that the compiled search makes the same
cuts."""

import pytest

from games.ai import core
from games.ai.bitboard import tables
from games.ai.levels import evaluator
from games.ai.probcut import MAX_DEPTH, MIN_DEPTH, MODELS, Cuts, cuts_for, shallow_depth
from games.ai.search import Searcher

from .conftest import make_variant, random_board


def test_the_shallow_search_is_about_half_as_deep_and_of_the_same_parity():
    for depth in range(MIN_DEPTH, 40):
        s = shallow_depth(depth)
        assert 0 <= s < depth
        assert s % 2 == depth % 2
        assert s <= depth // 2 + 1


def test_the_table_holds_a_cut_per_empties_and_depth_from_the_lowest_depth():
    cuts = Cuts(64, ((20.0, 0.0, 0.0), (100.0, 2.0, 10.0)), t=1.5)
    assert len(cuts.table) == 65 * (MAX_DEPTH + 1) * 3
    assert cuts.entry(40, MIN_DEPTH - 1)[0] == -1
    shallow, above, below = cuts.entry(40, 8)
    sigma = 100 + 2 * 40 + 10 * 8
    assert (shallow, above, below) == (shallow_depth(8), round(1.5 * sigma - 20), round(1.5 * sigma + 20))
    assert cuts.entry(40, 90) == cuts.entry(40, MAX_DEPTH)  # deeper nodes use the deepest row


def test_cut_offs_that_can_never_fire_leave_the_search_full_width():
    variant = make_variant(board="8x8")
    geo = tables(variant.geometry)
    never = Cuts(64, ((0.0, 0.0, 0.0), (10**6, 0.0, 0.0)))  # offsets beyond any finished game
    for seed in range(6):
        board = random_board(variant, 10 + 5 * seed, 300 + seed)
        P, O = board.bits[board.turn_index], board.bits[1 - board.turn_index]
        full = Searcher(geo, evaluator(geo, False), anti=False, compiled=False)
        selective = Searcher(geo, evaluator(geo, False), anti=False, compiled=False, cuts=never)
        assert selective.iterate(P, O, max_depth=4) == full.iterate(P, O, max_depth=4)


def test_the_calibrated_cut_offs_save_nodes_and_mostly_keep_the_move():
    board_name = "8x8"
    variant = make_variant(board=board_name)
    geo = tables(variant.geometry)
    cuts = cuts_for(board_name, False, 64)
    assert cuts is not None and (board_name, False) in MODELS
    full_nodes = selective_nodes = same = 0
    for seed in range(8):
        board = random_board(variant, 12 + 3 * seed, 500 + seed)
        P, O = board.bits[board.turn_index], board.bits[1 - board.turn_index]
        full = Searcher(geo, evaluator(geo, False), anti=False, compiled=False)
        selective = Searcher(geo, evaluator(geo, False), anti=False, compiled=False, cuts=cuts)
        same += full.iterate(P, O, max_depth=5)[1] == selective.iterate(P, O, max_depth=5)[1]
        full_nodes += full.nodes
        selective_nodes += selective.nodes
    assert selective_nodes < full_nodes
    assert same >= 6


def test_the_calibration_fits_the_spread_of_deep_against_shallow_values(capsys):
    """``python -m games.ai.tools.calibrate`` on a small 6x6 sample: per depth and
    empties, how far the deep value lies from the shallow one, and the line
    for ``probcut.MODELS``."""
    from games.ai.tools.calibrate import main

    if not core.available():
        pytest.skip("calibrating needs the compiled core")
    main(["--board", "6x6", "--positions", "160", "--max-depth", "6"])
    out = capsys.readouterr().out
    assert "160 positions, depths 0-6" in out
    rows = [line.split() for line in out.splitlines() if line[:3].strip().isdigit() and ":" in line]
    assert {int(r[0]) for r in rows} == {3, 4, 5, 6}
    assert all(float(r[6]) >= 0 for r in rows)  # standard deviations
    model = out.strip().splitlines()[-1]
    assert model.startswith('    ("6x6", False): ((') and model.endswith(")),")
