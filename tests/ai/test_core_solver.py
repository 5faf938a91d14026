"""The compiled core's exact endgame solver against the Python one (games.ai.endgame):
the same exact scores on random endgames of every board and rule set and on the
published FFO positions, every move's exact value, and Hard's moves from the core's
horizon; a test set labelled by either is the same."""

import random

import pytest

from games import Board
from games.ai import choose_move, core
from games.ai.bitboard import tables, tables_for
from games.ai.endgame import EndgameSolver
from games.ai.tools.train import main
from games.ai.tools.training_data import read_positions

from .conftest import make_variant
from .core_cases import SOLVE_CASES, ids, needs_core
from .test_endgame import _ffo_positions, endgame_board

pytestmark = needs_core


@pytest.mark.parametrize("case", SOLVE_CASES, ids=ids)
def test_exact_scores_agree_on_random_endgames(case):
    variant = make_variant(**case)
    geo = tables(variant.geometry)
    anti = variant.anti
    checked = 0
    for seed in range(10):
        board = endgame_board(variant, 9 + seed % 4, 1000 + seed)
        if board.is_game_over():
            continue
        t = board.turn_index
        P, O = board.bits[t], board.bits[1 - t]
        value, sq = core.CoreSolver(geo, anti=anti).solve(P, O)
        assert value == EndgameSolver(geo, anti=anti).value(P, O), board.render()
        if sq is None:  # a pass
            assert not geo.moves(P, O)
        else:  # the move it names reaches the value
            b = 1 << sq
            f = geo.flips(b, P, O)
            assert -EndgameSolver(geo, anti=anti).value(O ^ f, P | f | b) == value
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("case", SOLVE_CASES, ids=ids)
def test_the_evaluation_orders_the_solvers_moves_without_changing_a_value(case):
    """From 12 empties the compiled solver orders its moves by the learned
    evaluation (_core.c's SORT_EV): the same values as ordered without it."""
    variant = make_variant(**case)
    geo = tables(variant.geometry)
    anti = variant.anti
    checked = 0
    for seed in range(3):
        board = endgame_board(variant, 15, 2000 + seed)
        if board.is_game_over():
            continue
        t = board.turn_index
        P, O = board.bits[t], board.bits[1 - t]
        ordered = core.CoreSolver(geo, anti=anti)
        assert ordered.evaluator is not None
        plain = core.CoreSolver(geo, anti=anti)
        plain.evaluator = None
        assert ordered.solve(P, O)[0] == plain.solve(P, O)[0], board.render()
        checked += 1
    assert checked >= 2


def test_the_solver_refuses_an_evaluation_of_another_board_or_rule():
    geo = tables_for("8x8")
    board = Board(make_variant(board="8x8"))
    P, O = board.bits[board.turn_index], board.bits[1 - board.turn_index]
    for other in (core.native_evaluator(geo, True), core.native_evaluator(tables_for("6x6"), False), "learned"):
        with pytest.raises(TypeError):
            core.core_for(geo, False).probe(P, O, 0, 0.0, False, 1000, True, other)


def test_the_published_ffo_scores_and_moves():
    positions = [p for p in _ffo_positions() if int(p[0]) <= 24]  # 14 to 20 empties
    assert len(positions) == 24
    geo = tables_for("8x8")
    for ident, black, white, side, best, score in positions:
        P, O = (black, white) if side == "X" else (white, black)
        solver = core.CoreSolver(geo)
        value, sq = solver.solve(P, O)
        assert value == score, ident
        assert geo.name(sq) in best, ident
        assert core.CoreSolver(geo).solve_from_guess(P, O, score + 5)[0] == score, ident


def test_a_node_budget_stops_the_solver_keeping_what_it_proved():
    geo = tables_for("8x8")
    ident, black, white, side, best, score = [p for p in _ffo_positions() if p[0] == "40"][0]
    solver = core.CoreSolver(geo, max_nodes=200_000)
    with pytest.raises(core.Timeout):
        solver.solve_from_guess(black, white, 30)
    assert solver.proven[0] <= score and 0 < solver.nodes < 201_000


@pytest.mark.parametrize("case", SOLVE_CASES[:4] + SOLVE_CASES[-4:], ids=ids)
def test_every_moves_exact_value_agrees_with_the_python_solver(case):
    variant = make_variant(**case)
    geo = tables(variant.geometry)
    anti = variant.anti
    checked = 0
    for seed in range(8):
        board = endgame_board(variant, 8 + seed % 3, 2000 + seed)
        if board.is_game_over() or board.legal_moves == ["pass"]:
            continue
        t = board.turn_index
        P, O = board.bits[t], board.bits[1 - t]
        compiled = core.CoreSolver(geo, anti=anti).solve_moves(P, O)
        assert sorted(compiled) == sorted(EndgameSolver(geo, anti=anti).solve_moves(P, O)), board.render()
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("case", [dict(board="8x8"), dict(board="8x8", anti=True), dict(board="10x10"),
                                  dict(board="octagon")], ids=ids)
def test_hard_plays_an_exactly_best_move_from_the_cores_horizon(case):
    variant = make_variant(**case)
    geo = tables(variant.geometry)
    for seed in range(3):
        board = endgame_board(variant, 12, 50 + seed)
        if board.is_game_over() or board.legal_moves == ["pass"]:
            continue
        t = board.turn_index
        P, O = board.bits[t], board.bits[1 - t]
        exact = EndgameSolver(geo, anti=variant.anti).value(P, O)
        move = choose_move(board, "hard", time_limit=2.0, seed=seed)
        b = 1 << geo.index[move]
        f = geo.flips(b, P, O)
        assert -core.CoreSolver(geo, anti=variant.anti).value(O ^ f, P | f | b) == exact


@pytest.mark.slow
def test_hard_keeps_a_proven_win_or_draw_from_the_cores_wider_horizon():
    """FFO positions of 17-19 empties, past the Python engine's solving horizon
    (16): Hard's move keeps the position's win, draw or loss, within its time."""
    geo = tables_for("8x8")
    from games.ai.levels import choose_hard
    from games.ai import clock

    for ident, black, white, side, _, score in _ffo_positions():
        if ident not in ("22", "23", "24", "25"):
            continue
        P, O = (black, white) if side == "X" else (white, black)
        assert 17 <= 64 - (P | O).bit_count() <= 19
        start = clock.now()
        sq = choose_hard(geo, P, O, False, random.Random(0), start + 1.7)
        assert clock.now() - start < 2.0, ident
        b = 1 << sq
        f = geo.flips(b, P, O)
        value = -core.CoreSolver(geo).value(O ^ f, P | f | b)
        assert (value > 0) == (score > 0) and (value < 0) == (score < 0), ident


def test_a_test_set_labelled_by_the_core_is_the_one_labelled_in_python(tmp_path, capsys):
    common = ["testset", "--board", "6x6", "--count", "10", "--test-empties", "12,14", "--exact", "10"]
    main(common + ["--data", str(tmp_path / "py")])
    main(common + ["--data", str(tmp_path / "c"), "--fast"])
    python_rows = read_positions(sorted((tmp_path / "py" / "6x6").glob("test-*.txt")))
    c_rows = read_positions(sorted((tmp_path / "c" / "6x6").glob("test-*.txt")))
    assert c_rows == python_rows and len(c_rows) == 10
    # without training data the report scales the hand-made evaluation on the test set
    capsys.readouterr()
    main(["report", "--board", "6x6", "--data", str(tmp_path / "c")])
    out = capsys.readouterr().out
    assert "scaled on the test set itself" in out
    assert [line.split()[:2] for line in out.splitlines()[2:]] == [["12", "5"], ["14", "5"]]


@pytest.mark.slow
def test_ffo_40_and_41_by_the_solve_command(capsys):
    """The first two of the FFO positions of 20-22 empties (a few seconds
    each on the compiled core; #40-#49 in benchmarks/README.md)."""
    from pathlib import Path

    from games.ai.tools.cli import main

    ffo = Path(__file__).resolve().parents[1] / "data" / "ffo.txt"
    assert main(["solve", str(ffo), "--ids", "40-41"]) == 0
    out = capsys.readouterr().out
    assert "compiled core" in out and "2 positions, 2 correct" in out
