"""Properties of the rules over random variants and positions (hypothesis),
and random games played in the library and in the reference side by side."""

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games import Board, Variant

from .reference import DIRECTIONS, RefGame, cell_of, name_of

BOARDS = ("6x6", "8x8", "10x10", "octagon")
PROPERTY = settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def variants(draw, players=None, blocked=None):
    board = draw(st.sampled_from(BOARDS if players in (None, 2) else BOARDS[1:]))
    if players is None:
        players = draw(st.sampled_from((2,) if board == "6x6" else (2, 3, 4)))
    fields = dict(board=board, players=players, anti=draw(st.booleans()))
    if players == 2:
        fields["free_opening"] = draw(st.booleans())
        if board != "octagon":
            fields["handicap"] = draw(st.integers(0, 4))
            fields["handicap_colour"] = draw(st.sampled_from(("black", "white")))
    count = draw(st.sampled_from((0, 2, 4, 6, 8))) if blocked is None else blocked
    if count:
        return Variant.with_random_blocked(count, seed=draw(st.integers(0, 2**32 - 1)), **fields)
    return Variant(**fields)


def play_randomly(board: Board, rng: random.Random, plies: int) -> Board:
    for _ in range(plies):
        moves = board.legal_moves
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


@st.composite
def positions(draw, **kw):
    v = draw(variants(**kw))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    return play_randomly(Board(v), rng, draw(st.integers(0, v.geometry.playable_count + 4)))


def bracketed(stones: dict, move: str, colour: str, playable: set) -> set:
    """Squares flipped by ``colour`` on ``move``, by walking the lines by hand."""
    c0, r0 = cell_of(move)
    out = set()
    for dc, dr in DIRECTIONS:
        line, c, r = [], c0 + dc, r0 + dr
        while (c, r) in playable and name_of(c, r) in stones and stones[name_of(c, r)] != colour:
            line.append(name_of(c, r))
            c, r = c + dc, r + dr
        if line and (c, r) in playable and stones.get(name_of(c, r)) == colour:
            out |= set(line)
    return out


def in_free_opening(b: Board) -> bool:
    n = b.geometry.width
    centre = {name_of(c, r) for c in (n // 2 - 1, n // 2) for r in (n // 2 - 1, n // 2)}
    return b.variant.free_opening and not centre <= set(b.stones())


@PROPERTY
@given(positions())
def test_a_move_adds_one_stone_and_flips_only_bracketed_lines(b):
    moves = b.legal_moves
    assume(moves and moves != ["pass"])
    playable = RefGame(b.variant).playable
    opening = in_free_opening(b)
    for move in moves:
        before, mover = b.stones(), b.turn
        expected = set() if opening else bracketed(before, move, mover, playable)
        b.push(move)
        after = b.stones()
        b.pop()
        assert move not in before and after[move] == mover
        assert len(after) == len(before) + 1
        changed = {s for s in before if before[s] != after[s]}
        assert changed == expected
        assert all(after[s] == mover for s in changed)
        if b.variant.players == 2 and not opening:
            assert expected  # a two-player move always flips


@PROPERTY
@given(positions())
def test_nothing_ever_stands_on_a_removed_square(b):
    playable = {name_of(*cell) for cell in RefGame(b.variant).playable}
    assert set(b.stones()) <= playable
    assert not (b.occupied & ~b.geometry.playable)
    assert set(b.legal_moves) - {"pass"} <= playable - set(b.stones())


@PROPERTY
@given(positions())
def test_the_eight_symmetries_map_legal_moves_onto_legal_moves(b):
    g = b.geometry
    moves = b.legal_moves
    for k in range(8):
        t = b.transform(k)
        if moves in ([], ["pass"]):
            assert t.legal_moves == moves
        else:
            assert t.legal_moves == sorted((g.transform_name(m, k) for m in moves), key=g.square_index)
        assert t.stones() == {g.transform_name(s, k): c for s, c in b.stones().items()}
        assert t.variant.geometry.playable == g.transform_bits(g.playable, k)


def snapshot(b: Board):
    return (b.position_key(), b.history, b.ply, b.turn, b.legal_moves, b.stones(), b.render(), b.outcome())


@PROPERTY
@given(positions(), st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_push_then_pop_restores_the_position_exactly(b, plies, seed):
    start = snapshot(b)
    for move in b.legal_moves:
        b.push(move)
        b.pop()
        assert snapshot(b) == start
    pushed = play_randomly(b, random.Random(seed), plies).ply - start[2]
    for _ in range(pushed):
        b.pop()
    assert snapshot(b) == start


PLACEMENTS = {("8x8", 3): 20, ("8x8", 4): 15, ("10x10", 3): 32, ("10x10", 4): 24, ("octagon", 3): 28, ("octagon", 4): 21}


@settings(PROPERTY, max_examples=25)
@given(variants(players=3, blocked=0) | variants(players=4, blocked=0), st.integers(0, 2**32 - 1))
def test_multi_player_games_never_pass_and_share_placements_evenly(v, seed):
    b = play_randomly(Board(v), random.Random(seed), 10_000)
    assert b.is_game_over() and "pass" not in b.history
    assert b.occupied == b.geometry.playable  # without blocked squares the board fills
    per_colour = {c: b.history[i :: v.players] for i, c in enumerate(v.colours)}
    assert {len(m) for m in per_colour.values()} == {PLACEMENTS[v.board, v.players]}


@settings(PROPERTY, max_examples=15)
@given(variants(players=3) | variants(players=4), st.integers(0, 2**32 - 1))
def test_multi_player_games_with_blocked_squares_never_pass(v, seed):
    b = Board(v)
    rng = random.Random(seed)
    while b.legal_moves:
        assert b.legal_moves != ["pass"]
        b.push(rng.choice(b.legal_moves))
    assert b.outcome().termination in ("board_full", "cut_off")


OCTAGON_SAFE = ("c1", "a3", "h1", "j3", "a8", "c10", "j8", "h10")


@settings(PROPERTY, max_examples=20)
@given(st.sampled_from((2, 3, 4)), st.booleans(), st.integers(0, 2**32 - 1))
def test_octagon_squares_beside_the_cuts_are_never_flipped(players, anti, seed):
    b = Board(Variant(board="octagon", players=players, anti=anti))
    rng = random.Random(seed)
    fixed = {}
    while b.legal_moves:
        b.push(rng.choice(b.legal_moves))
        stones = b.stones()
        for s in OCTAGON_SAFE:
            if s in stones:
                assert fixed.setdefault(s, stones[s]) == stones[s]
    assert set(fixed) == set(OCTAGON_SAFE)  # the octagon fills up, so all were played


# -- random games in the library and in the reference -------------------------------------

GAME_VARIANTS = [
    dict(board=board, players=players, anti=anti, free_opening=fo, handicap=hc, blocked=blocked)
    for board in BOARDS
    for players in ((2,) if board == "6x6" else (2, 3, 4))
    for anti, fo, hc, blocked in ((False, False, 0, 0), (True, players == 2, 0, 4), (False, False, 2 * (players == 2 and board != "octagon"), 6))
]


@pytest.mark.parametrize("fields", GAME_VARIANTS, ids=lambda f: "-".join(str(x) for x in f.values()))
def test_random_games_agree_with_the_reference(fields):
    rng = random.Random(str(fields))
    fields = dict(fields)
    count = fields.pop("blocked")
    v = Variant.with_random_blocked(count, rng=rng, **fields) if count else Variant(**fields)
    for _ in range(2):
        b, ref = Board(v), RefGame(v)
        while True:
            moves = b.legal_moves
            assert moves == ref.legal_moves(), b.history
            assert b.stones() == ref.stones(), b.history
            assert b.turn == ref.colours[ref.turn]
            if not moves:
                break
            move = rng.choice(moves)
            b.push(move)
            ref.play(move)
        o = b.outcome()
        assert (o.winner, o.counts, o.score) == ref.outcome()
