"""The exact solver in C (the training command's test set): the same scores as
the Python solver and plain minimax on every kind of board, and on FFO."""

import pytest

from games.ai.tools import fastsolve
from games.ai.bitboard import tables, tables_for
from games.ai.endgame import EndgameSolver
from games.ai.tools.train import main, read_positions

from .conftest import make_variant, minimax
from .test_endgame import CASES, _ffo_positions, endgame_board


@pytest.fixture(scope="module", autouse=True)
def compiled():
    try:
        fastsolve._library()
    except fastsolve.CompilerMissing:
        pytest.skip("no C compiler on this machine")


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_the_c_solver_scores_like_minimax_and_the_python_solver(case):
    variant = make_variant(**case)
    geo = tables(variant.geometry)
    fast = fastsolve.FastSolver(geo, anti=variant.anti)
    for seed in range(6):
        board = endgame_board(variant, 7, seed)
        if not board.is_game_over():
            P, O = board.bits[board.turn_index], board.bits[1 - board.turn_index]
            assert fast.value(P, O) == minimax(board.copy()), board.render()
        # deeper: past the parity-ordered last empties, into the table and the ordering
        board = endgame_board(variant, 13, 100 + seed)
        if not board.is_game_over():
            P, O = board.bits[board.turn_index], board.bits[1 - board.turn_index]
            assert fast.value(P, O) == EndgameSolver(geo, anti=variant.anti).value(P, O), board.render()
    assert fast.nodes > 0


def test_the_c_solver_finds_the_published_ffo_scores():
    positions = [p for p in _ffo_positions() if int(p[0]) < 20 or p[0] in ("25", "30")]  # 14 to 20 empties
    assert len(positions) == 21
    fast = fastsolve.FastSolver(tables_for("8x8"))
    for ident, black, white, side, _, score in positions:
        P, O = (black, white) if side == "X" else (white, black)
        assert fast.value(P, O) == score, ident


def test_a_test_set_labelled_in_c_is_the_one_labelled_in_python(tmp_path, capsys):
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
