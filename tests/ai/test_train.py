"""The training command: seeded self-play chunks, exact labels near the end,
and (with the optional numpy/scipy) a fit whose weights load in plain Python."""

import json

import pytest

from games.ai.bitboard import tables_for
from games.ai.endgame import EndgameSolver
from games.ai.learned import read_weights, evaluator_from
from games.ai.tools.train import main
from games.ai.tools.training_data import read_positions, selfplay_chunk
from games.rules.geometry import get_geometry


def test_a_chunk_is_reproducible_and_labelled_exactly_near_the_end(tmp_path):
    args = ("6x6", False, 3, 3, 4, 10, 150.0, False, ("handmade", 2))
    selfplay_chunk(args + (tmp_path / "a.txt",))
    selfplay_chunk(args + (tmp_path / "b.txt",))
    assert (tmp_path / "a.txt").read_text() == (tmp_path / "b.txt").read_text()
    rows = read_positions([tmp_path / "a.txt"])
    assert len(rows) > 60
    geo = tables_for("6x6")
    for P, O, e, label, exact in rows:
        assert not P & O and e == 36 - (P | O).bit_count()
        assert exact == (e <= 10)
    solved = [r for r in rows if r[4]][:5]
    for P, O, e, label, _ in solved:
        assert EndgameSolver(geo).solve(P, O)[0] == label
    # every earlier position carries the value of its game's first solved one,
    # seen by its own mover: labels are game margins, never more than the board
    assert all(abs(r[3]) <= 36 for r in rows)


@pytest.mark.parametrize("board,anti", [("8x8", False), ("octagon", True)])
def test_fast_selfplay_plays_and_labels_the_same_games_on_the_compiled_core(tmp_path, board, anti):
    from games.ai import core

    if not core.available():
        pytest.skip("the compiled core is not built")
    args = (board, anti, 5, 2, 10, 10, 150.0)
    selfplay_chunk(args + (False, ("handmade", 2), tmp_path / "python.txt"))
    selfplay_chunk(args + (True, ("handmade", 2), tmp_path / "core.txt"))
    python = (tmp_path / "python.txt").read_text()
    assert python and (tmp_path / "core.txt").read_text() == python


def test_the_learned_player_plays_its_own_games_the_same_on_both_engines(tmp_path):
    """``--player learned``: the moves come from a 4-ply search with the shipped
    learned evaluation, in C on the compiled core and the same in Python."""
    from games.ai import core

    if not core.available():
        pytest.skip("the compiled core is not built")
    args = ("6x6", False, 5, 2, 4, 8, 100.0)
    selfplay_chunk(args + (False, ("learned", 4), tmp_path / "python.txt"))
    selfplay_chunk(args + (True, ("learned", 4), tmp_path / "core.txt"))
    selfplay_chunk(args + (True, ("handmade", 4), tmp_path / "handmade.txt"))
    learned = (tmp_path / "core.txt").read_text()
    assert learned and (tmp_path / "python.txt").read_text() == learned
    assert learned != (tmp_path / "handmade.txt").read_text()
    rows = read_positions([tmp_path / "core.txt"])
    assert all(exact == (e <= 8) for _, _, e, _, exact in rows)


def test_bootstrap_labels_are_the_same_searched_in_c(tmp_path):
    from games.ai import core
    from games.ai.learned import shipped_stages
    from games.ai.tools.pattern_fit import _label_chunk

    if not core.available():
        pytest.skip("the compiled core is not built")
    selfplay_chunk(("8x8", False, 7, 2, 10, 10, 150.0, True, ("handmade", 2), tmp_path / "games.txt"))
    positions = [(P, O) for P, O, e, *_ in read_positions([tmp_path / "games.txt"]) if e > 12][:40]
    task = ("8x8", False, 2, shipped_stages(tables_for("8x8").lib, False), positions)
    in_c = _label_chunk(task)
    with core.python_engine():
        assert _label_chunk(task) == in_c
    assert len(set(in_c)) > 10


def test_selfplay_resumes_without_replaying_finished_chunks(tmp_path, capsys):
    common = ["--board", "6x6", "--data", str(tmp_path), "--chunk", "2", "--exact", "8"]
    main(["selfplay", "--games", "2"] + common)
    first = (tmp_path / "6x6" / "selfplay-00000.txt").read_text()
    main(["selfplay", "--games", "4"] + common)
    out = capsys.readouterr().out
    assert "1 of 2 chunks done, 1 to play" in out
    assert (tmp_path / "6x6" / "selfplay-00000.txt").read_text() == first
    assert (tmp_path / "6x6" / "selfplay-00001.txt").exists()


def test_fit_writes_weights_that_load_without_numpy(tmp_path):
    pytest.importorskip("numpy")
    pytest.importorskip("scipy")
    common = ["--board", "6x6", "--data", str(tmp_path), "--exact", "8", "--chunk", "4"]
    main(["selfplay", "--games", "8"] + common)
    out = tmp_path / "6x6.bin"
    main(["fit", "--stage-width", "12", "--out", str(out)] + common)
    weights = read_weights(out)
    stages = weights.stages
    assert (weights.board, weights.anti, weights.squares) == ("6x6", False, 36)
    assert [(lo, hi) for lo, hi, _ in stages] == [(0, 11), (12, 23), (24, 35), (36, 36)]
    evaluate = evaluator_from(get_geometry("6x6"), stages)
    rows = read_positions([tmp_path / "6x6" / "selfplay-00000.txt"])
    # fitted to the margins: the training positions are mostly on the right side
    right = sum((evaluate(P, O) > 0) == (label > 0) for P, O, _, label, _ in rows if label)
    assert right > 0.7 * sum(1 for r in rows if r[3])
    # fitted from the end towards the opening, with search labels and the hand-made term
    boot = tmp_path / "6x6-boot.bin"
    main(["fit", "--stage-width", "12", "--bootstrap", "2", "--hand", "--out", str(boot)] + common)
    stages = read_weights(boot).stages
    ps_features = len(stages[0][2]) - 2
    assert any(w[ps_features + 1] for _, _, w in stages)
    evaluate = evaluator_from(get_geometry("6x6"), stages)
    assert isinstance(evaluate(*rows[0][:2]), int)
    # each stage damped toward the one before: a pattern this stage never saw keeps
    # its neighbour's weight instead of 0
    near = tmp_path / "6x6-near.bin"
    main(["fit", "--stage-width", "12", "--bootstrap", "2", "--hand", "--toward-previous", "--out", str(near)] + common)
    def weighed(stage):
        return sum(bool(w) for w in stage[2][:ps_features])

    assert weighed(read_weights(near).stages[1]) > weighed(read_weights(boot).stages[1])


def test_fit_needs_data(tmp_path):
    with pytest.raises(SystemExit):
        main(["fit", "--board", "6x6", "--data", str(tmp_path), "--out", str(tmp_path / "x.bin")])


def test_perfect_checks_hards_moves_against_the_solver(tmp_path, capsys):
    common = ["--board", "6x6", "--data", str(tmp_path), "--exact", "8"]
    main(["testset", "--count", "2", "--test-empties", "8"] + common)
    capsys.readouterr()
    main(["perfect", "--perfect-empties", "8", "--time", "0.5", "--cpu-clock"] + common)
    out = capsys.readouterr().out
    # 8 empties are solved at once: every move keeps the exact value
    assert "first move exact in 10 of 10" in out
    assert " 0 lose 0 discs" in out


def test_a_stopped_test_set_goes_on_where_it_was_and_gives_the_same_positions(tmp_path, capsys):
    common = ["testset", "--board", "6x6", "--count", "10", "--test-empties", "12", "--exact", "8"]
    main(common + ["--data", str(tmp_path / "whole")])
    whole = (tmp_path / "whole" / "6x6" / "test-0000.txt").read_text()
    # with no time left each call solves one position, keeps it and stops
    chunk = tmp_path / "steps" / "6x6" / "test-0000"
    main(common + ["--data", str(tmp_path / "steps"), "--minutes", "0"])
    assert not chunk.with_suffix(".txt").exists()
    assert len(json.loads(chunk.with_suffix(".part").read_text())["lines"]) == 1
    # the report already counts the solved positions of the unfinished chunk
    capsys.readouterr()
    main(["report", "--board", "6x6", "--data", str(tmp_path / "steps")])
    out = capsys.readouterr().out
    assert "1 held-out positions" in out and "1 chunk(s) not finished" in out
    calls = 1
    while not chunk.with_suffix(".txt").exists():
        main(common + ["--data", str(tmp_path / "steps"), "--minutes", "0"])
        calls += 1
    assert calls == 10
    assert chunk.with_suffix(".txt").read_text() == whole
    assert not chunk.with_suffix(".part").exists()
