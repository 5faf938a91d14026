"""The compiled core (games.ai._core) against the pure-Python engine, its
reference: the same legal moves and flips on every board, the same perft, the
same exact endgame scores (random endgames of every board and rule set, FFO),
and the levels using it.  GAMES_AI_REQUIRE_CORE=1 (CI) makes its absence a
failure instead of a skip."""

import os
import random

import pytest

from games import Board
from games.ai import choose_move, core
from games.ai.bitboard import tables, tables_for
from games.ai.endgame import EndgameSolver
from games.ai.tools.train import main, read_positions
from games.rules.perft import perft_plain

from .conftest import make_variant, random_board as random_board_for
from .test_endgame import _ffo_positions, endgame_board

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


BOARDS = [
    dict(board="6x6"),
    dict(board="8x8"),
    dict(board="10x10"),
    dict(board="octagon"),
    dict(board="8x8", blocked=6, seed=5),
    dict(board="10x10", blocked=4, seed=3),
    dict(board="octagon", blocked=2, seed=1),
    dict(board="6x6", blocked=2, seed=7),
]
SOLVE_CASES = BOARDS + [dict(board=c["board"], anti=True) for c in BOARDS[:4]]


def ids(c):
    return "-".join(f"{k}={v}" for k, v in c.items())


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


SEARCH_CASES = BOARDS + [dict(board=c["board"], anti=True) for c in BOARDS[:4]]


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


def test_inside_python_engine_the_players_run_without_the_core():
    """The match runner's ``hard-python`` (Hard as before the core) runs here."""
    geo = tables_for("8x8")
    with core.python_engine():
        assert not core.available()
        assert core.native_evaluator(geo, False) is None
        assert isinstance(core.make_solver(geo), EndgameSolver)
    assert core.available()
    assert isinstance(core.make_solver(geo), core.CoreSolver)


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
