"""The pattern evaluation: the fast index computation agrees with a square-by-square
reference, mirror images get one value, and the weights file keeps what was written."""

import random
import zlib
from array import array

import pytest

from games import Board
from games.ai import choose_move
from games.ai.bitboard import tables
from games.ai.evaluation import make_evaluator
from games.ai.learned import (HEADER, STAGE, Weights, evaluator_from, learned_evaluator, read_weights,
                               weights_path, write_weights)
from games.ai.levels import evaluator
from games.ai.patterns import pattern_set
from games.rules.geometry import get_geometry

from .conftest import make_variant, random_board

BOARDS = ("6x6", "8x8", "10x10", "octagon")


def random_position(geo, rng):
    P = O = 0
    for sq in geo.squares:
        x = rng.random()
        if x < 0.35:
            P |= 1 << sq
        elif x < 0.7:
            O |= 1 << sq
    return P, O


def symmetric_weights(ps, rng, stages):
    """Random weights for every stage, equal on indices the symmetries tie."""
    out = []
    canon = ps.canonical_maps()
    for lo, hi in stages:
        w = array("h", [0]) * (ps.features + 2)
        for (_, size, off), cmap in zip(ps.classes, canon):
            values = [rng.randrange(-500, 500) for _ in range(3 ** size)]
            for i in range(3 ** size):
                w[off + i] = values[cmap[i]]
        w[ps.features] = rng.randrange(-100, 100)
        out.append((lo, hi, w))
    return out


@pytest.mark.parametrize("board", BOARDS)
def test_fast_indices_match_the_square_by_square_reference(board):
    geo = get_geometry(board)
    ps = pattern_set(geo)
    rng = random.Random(board)
    for _ in range(200):
        P, O = random_position(geo, rng)
        assert list(ps.evaluate_indices(P, O)) == ps.indices_slow(P, O)
    for plies in (0, 10, 30):
        b = random_board(make_variant(board), plies, seed=plies)
        P, O = b.bits[b.turn_index], b.bits[1 - b.turn_index]
        assert list(ps.evaluate_indices(P, O)) == ps.indices_slow(P, O)


@pytest.mark.parametrize("board", BOARDS)
def test_mirror_images_get_the_same_value(board):
    geo = get_geometry(board)
    ps = pattern_set(geo)
    rng = random.Random(f"{board} mirror")
    squares = geo.playable_count
    evaluate = evaluator_from(geo, symmetric_weights(ps, rng, [(0, squares // 2), (squares // 2 + 1, squares)]))
    for _ in range(20):
        P, O = random_position(geo, rng)
        values = {evaluate(geo.transform_bits(P, k), geo.transform_bits(O, k)) for k in range(8)}
        assert len(values) == 1, values


def test_every_square_of_the_board_is_in_some_pattern():
    for board in BOARDS:
        geo = get_geometry(board)
        covered = set()
        for _, squares in pattern_set(geo).instances:
            covered |= set(squares)
        assert covered == set(geo.squares), board


def test_weights_file_round_trip(tmp_path):
    geo = get_geometry("6x6")
    ps = pattern_set(geo)
    stages = symmetric_weights(ps, random.Random(3), [(0, 17), (18, 36)])
    path = tmp_path / "6x6.bin"
    write_weights(path, Weights("6x6", False, geo.playable_count, stages))
    weights = read_weights(path)
    assert (weights.board, weights.anti, weights.squares) == ("6x6", False, 36)
    back = weights.stages
    assert [(lo, hi, list(w)) for lo, hi, w in back] == [(lo, hi, list(w)) for lo, hi, w in stages]
    # the stage is picked by the number of empties
    P, O = random_position(geo, random.Random(4))
    evaluate = evaluator_from(geo, back)
    empties = 36 - (P | O).bit_count()
    w = stages[0][2] if empties <= 17 else stages[1][2]
    patterns = sum(w[i] for i in ps.indices_slow(P, O)) + w[ps.features]
    assert evaluate(P, O) == patterns
    # the hand-made evaluation as one more feature, weighted in 1/1000
    for _, _, stage in back:
        stage[ps.features + 1] = 500
    with_hand = evaluator_from(geo, back)
    hand = make_evaluator(tables(geo), False)
    assert with_hand(P, O) == patterns + 500 * hand(P, O) // 1000


def test_a_version_2_file_compressed_with_zlib_still_reads(tmp_path):
    """A version 2 file, compressed with zlib (say an older fit kept to measure a
    new one against), loads the same weights; an unknown version is refused."""
    geo = get_geometry("6x6")
    stages = symmetric_weights(pattern_set(geo), random.Random(5), [(0, 17), (18, 36)])
    path = tmp_path / "6x6.bin"
    write_weights(path, Weights("6x6", False, geo.playable_count, stages))
    raw = path.read_bytes()
    header = bytearray(raw[:HEADER.size + 2 * STAGE.size])
    assert HEADER.unpack_from(header)[1] == 3
    header[4:6] = (2).to_bytes(2, "little")
    data = b"".join(w.tobytes() for _, _, w in stages)
    old = tmp_path / "old.bin"
    old.write_bytes(bytes(header) + zlib.compress(data, 9))
    assert [list(w) for _, _, w in read_weights(old).stages] == [list(w) for _, _, w in stages]
    header[4:6] = (1).to_bytes(2, "little")
    old.write_bytes(bytes(header) + zlib.compress(data, 9))
    with pytest.raises(ValueError, match="not a weights file of version 2 or 3"):
        read_weights(old)


@pytest.mark.parametrize("anti", [False, True])
def test_a_file_of_the_hand_made_term_alone_evaluates_as_the_hand_made_evaluation(tmp_path, anti):
    """The Anti conventions end to end: a weights file whose only weight is the
    hand-made term at 1000/1000 searches exactly as today's level of that rule
    (same sign and scale), and Anti weights live in ``<board>-anti.bin``."""
    geo = get_geometry("8x8")
    ps = pattern_set(geo)
    w = array("h", [0]) * (ps.features + 2)
    w[ps.features + 1] = 1000
    path = weights_path("8x8", anti, tmp_path)
    assert path.name == ("8x8-anti.bin" if anti else "8x8.bin")
    write_weights(path, Weights("8x8", anti, geo.playable_count, [(0, 64, w)]))
    evaluate = evaluator_from(geo, read_weights(path).stages, anti)
    hand = make_evaluator(tables(geo), anti)
    for plies in (4, 20, 40):
        b = random_board(make_variant("8x8", anti=anti), plies, seed=plies)
        P, O = b.bits[b.turn_index], b.bits[1 - b.turn_index]
        assert evaluate(P, O) == hand(P, O)


def test_blocked_boards_have_no_patterns_and_keep_the_hand_made_evaluation():
    variant = make_variant("8x8", blocked=4, seed=5)
    geo = variant.geometry
    assert pattern_set(geo) is None
    assert learned_evaluator(geo, False) is None
    board = Board(variant)
    assert choose_move(board, "normal", seed=1) in board.legal_moves


def test_hand_made_evaluation_can_still_be_asked_for():
    board = random_board(make_variant("8x8"), 12, seed=8)
    for level in ("normal", "hard"):
        assert choose_move(board, level, time_limit=0.2, seed=1, evaluation="handmade") in board.legal_moves
    with pytest.raises(ValueError):
        choose_move(board, "normal", evaluation="psychic")


@pytest.mark.parametrize("anti", [False, True])
@pytest.mark.parametrize("board", BOARDS)
def test_normal_and_hard_use_the_shipped_weights(board, anti):
    """Every board, normal and Anti, ships weights (two players; three and four
    players have their own evaluation, games/ai/multiplayer_evaluation.py)."""
    geo = get_geometry(board)
    shipped = learned_evaluator(geo, anti)
    assert shipped is not None
    assert evaluator(tables(geo), anti) is shipped
    assert evaluator(tables(geo), anti, "handmade") is not shipped


def test_a_weights_file_under_another_boards_or_rules_name_is_refused(tmp_path):
    """The file says which board and rules it was fitted for: Anti weights
    copied to ``8x8.bin`` would judge every normal position backwards."""
    geo = get_geometry("8x8")
    anti = read_weights(weights_path("8x8", True))
    write_weights(weights_path("8x8", False, tmp_path), anti)
    with pytest.raises(ValueError, match="8x8 Anti"):
        learned_evaluator(geo, False, tmp_path)
    assert learned_evaluator(geo, True, tmp_path) is None  # no 8x8-anti.bin there
    write_weights(weights_path("8x8", True, tmp_path / "right"), anti)
    evaluate = learned_evaluator(geo, True, tmp_path / "right")
    assert isinstance(evaluate(*random_position(geo, random.Random(5))), int)


def test_the_shipped_8x8_weights_value_a_corner():
    board = random_board(make_variant("8x8"), 20, seed=2)
    P, O = board.bits[board.turn_index], board.bits[1 - board.turn_index]
    geo = get_geometry("8x8")
    evaluate = learned_evaluator(geo, False)
    corner = geo.bit("a1")
    P, O = P & ~corner, O & ~corner
    assert evaluate(P | corner, O) > evaluate(P, O | corner)
