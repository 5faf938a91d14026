"""The exact solver against plain minimax on the rules library, and on FFO."""

from pathlib import Path

import pytest

from games import Board
from games.ai.bitboard import tables
from games.ai.tools.cli import parse_ffo_line
from games.ai.endgame import EndgameSolver
from games.rules.geometry import get_geometry

from .conftest import make_variant, minimax

CASES = [
    dict(board="6x6"),
    dict(board="8x8"),
    dict(board="8x8", anti=True),
    dict(board="octagon"),
    dict(board="10x10", blocked=4, seed=3),
    dict(board="8x8", blocked=6, seed=5),
    dict(board="6x6", anti=True, free_opening=True),
]


def endgame_board(variant, empties, seed):
    """A random position of ``variant`` with about ``empties`` empty squares."""
    g = variant.geometry
    board = Board(variant)
    import random

    rng = random.Random(seed)
    while not board.is_game_over() and g.playable_count - board.occupied.bit_count() > empties:
        board.push(rng.choice(board.legal_moves))
    return board


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_solver_matches_minimax(case):
    variant = make_variant(**case)
    geo = tables(variant.geometry)
    for seed in range(6):
        board = endgame_board(variant, 7, seed)
        if board.is_game_over():
            continue
        t = board.turn_index
        P, O = board.bits[t], board.bits[1 - t]
        expected = minimax(board.copy())
        value, sq = EndgameSolver(geo, anti=variant.anti).solve(P, O)
        assert value == expected, board.render()
        if sq is not None:  # the move it names reaches that value
            b = board.copy()
            b.push(geo.name(sq))
            assert -minimax(b) == expected
        else:
            assert board.legal_moves == ["pass"]
        # every move's exact value
        if board.legal_moves != ["pass"]:
            values = dict(EndgameSolver(geo, anti=variant.anti).solve_moves(P, O))
            for m in board.legal_moves:
                b = board.copy()
                b.push(m)
                assert values[geo.index[m]] == -minimax(b)


def test_solver_windows_are_bounds():
    variant = make_variant()
    geo = tables(variant.geometry)
    board = endgame_board(variant, 8, 11)
    t = board.turn_index
    P, O = board.bits[t], board.bits[1 - t]
    exact = EndgameSolver(geo).solve(P, O)[0]
    lo = EndgameSolver(geo).solve(P, O, exact - 1, exact + 1)[0]
    assert lo == exact
    high = EndgameSolver(geo).solve(P, O, exact + 2, exact + 4)[0]
    assert high <= exact + 2  # fail low: an upper bound
    low = EndgameSolver(geo).solve(P, O, exact - 6, exact - 2)[0]
    assert low >= exact - 2  # fail high: a lower bound


FFO = Path(__file__).resolve().parents[1] / "data" / "ffo.txt"  # FFO positions 1-59


def _ffo_positions():
    return [p for p in (parse_ffo_line(line) for line in FFO.read_text().splitlines()) if p]


def _solve_ffo(ident):
    pos = {p[0]: p for p in _ffo_positions()}
    _, black, white, side, best, score = pos[ident]
    P, O = (black, white) if side == "X" else (white, black)
    geo = tables(get_geometry("8x8"))
    value, sq = EndgameSolver(geo).solve(P, O)
    assert value == score
    assert geo.name(sq) in best


@pytest.mark.parametrize("ident", ["5", "7", "20"])
def test_ffo_quick(ident):
    _solve_ffo(ident)


@pytest.mark.slow
@pytest.mark.parametrize("ident", ["1", "2", "4", "6", "17"])
def test_ffo_more(ident):
    _solve_ffo(ident)


def test_analyse_is_exact_in_small_endgames():
    from games.ai import analyse

    variant = make_variant()
    for seed in range(3):
        board = endgame_board(variant, 6, 100 + seed)
        if board.is_game_over() or board.legal_moves == ["pass"]:
            continue
        result = dict(analyse(board, time_limit=2.0))
        for m in board.legal_moves:
            b = board.copy()
            b.push(m)
            assert result[m] == -minimax(b)


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_flips_at_matches_the_rules(case):
    import random

    variant = make_variant(**case)
    geo = tables(variant.geometry)
    rng = random.Random(7)
    for _ in range(300):
        P = O = 0
        for i in geo.squares:
            x = rng.random()
            if x < 0.4:
                P |= 1 << i
            elif x < 0.8:
                O |= 1 << i
        for i in geo.squares:
            if not (P | O) >> i & 1:
                assert geo.flips_at[i](P, O) == geo.flips(1 << i, P, O)


@pytest.mark.parametrize("case", CASES[:4], ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_solve_exact_from_any_guess(case):
    # null-window probes reach the exact value and a move that keeps it,
    # whatever the guess and with bounds from a win/draw/loss solve
    variant = make_variant(**case)
    geo = tables(variant.geometry)
    for seed in range(4):
        board = endgame_board(variant, 9, seed)
        if board.is_game_over():
            continue
        t = board.turn_index
        P, O = board.bits[t], board.bits[1 - t]
        exact = EndgameSolver(geo, anti=variant.anti).solve(P, O)[0]
        for guess in (-40, exact - 3, exact, exact + 1, 40):
            s = EndgameSolver(geo, anti=variant.anti)
            value, sq = s.solve_exact(P, O, guess)
            assert value == exact
            wld, wsq = s.solve(P, O, -1, 1)
            if wld > 0:
                assert s.solve_exact(P, O, guess, wld, 10_000, wsq)[0] == exact
            # what Hard calls: win/draw/loss, then the probes
            value2, sq2 = EndgameSolver(geo, anti=variant.anti).solve_from_guess(P, O, guess)
            assert value2 == exact
            for move in {sq, sq2} - {None}:
                b = 1 << move
                f = geo.flips(b, P, O)
                assert -EndgameSolver(geo, anti=variant.anti).solve(O ^ f, P | f | b)[0] == exact


def test_6x6_wipe_outs_at_16_empties_within_a_node_budget():
    # two held-out 6x6 positions at 16 empties worth +36 (a wipe-out): the
    # first took 178k nodes (the window went past +36); the second 658k after
    # win/draw/loss (full window, no stability cutoff), 314k by null-window
    # probes from a guess of 0 stepping up 2 at a time; now 46 and 90k
    geo = tables(get_geometry("6x6"))
    P, O = 0xC1C0B3, 0x30A1F08
    value, sq = EndgameSolver(geo, max_nodes=20_000).solve(P, O)
    assert value == 36
    # the side wiped out still gets a move to play (win/draw/loss proves -36 at once,
    # so no probe is left to find one)
    b = 1 << sq
    f = geo.flips(b, P, O)
    value, sq = EndgameSolver(geo).solve_from_guess(O ^ f, P | f | b, 0)
    assert value == -36 and geo.moves(O ^ f, P | f | b) >> sq & 1
    P, O = 0x1E001000000, 0x1E48F8E08
    s = EndgameSolver(geo, max_nodes=150_000)
    wld, sq = s.solve(P, O, -1, 1)
    assert wld > 0
    value, sq = s.solve_exact(P, O, 0, wld, 10_000, sq)
    assert value == 36
    b = 1 << sq
    f = geo.flips(b, P, O)
    assert EndgameSolver(geo).solve(O ^ f, P | f | b)[0] == -36
