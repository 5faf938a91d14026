"""Variants: docs/rules.md §6, §7 and every §9 combination."""

import itertools
import json
import random

import pytest

from games import InvalidVariantError, Variant, draw_blocked, get_geometry

BOARDS = ("6x6", "8x8", "10x10", "octagon")
# a valid symmetric blocked pair on each board (outside the central 4x4, not a cut)
PAIR = {"6x6": ("b1", "e6"), "8x8": ("b1", "g8"), "10x10": ("c5", "h6"), "octagon": ("c5", "h6")}


def forbidden_rule(board, players, free_opening, handicap):
    """What docs/rules.md §9 says about a combination: None if allowed."""
    if players > 2 and board == "6x6":
        return "6x6"
    if players > 2 and free_opening:
        return "free opening"
    if players > 2 and handicap:
        return "handicap"
    if handicap and board == "octagon":
        return "octagon"
    return None


@pytest.mark.parametrize(
    "board,players,anti,free_opening,blocked,handicap",
    list(itertools.product(BOARDS, (2, 3, 4), (False, True), (False, True), (False, True), (0, 2))),
)
def test_every_section_9_combination(board, players, anti, free_opening, blocked, handicap):
    fields = dict(
        board=board,
        players=players,
        anti=anti,
        free_opening=free_opening,
        blocked=PAIR[board] if blocked else (),
        handicap=handicap,
    )
    rule = forbidden_rule(board, players, free_opening, handicap)
    if rule is None:
        v = Variant(**fields)
        assert Variant.from_dict(json.loads(json.dumps(v.to_dict()))) == v
    else:
        with pytest.raises(InvalidVariantError, match="docs/rules.md §9") as info:
            Variant(**fields)
        assert rule in str(info.value).replace("corner handicap", "handicap")


def test_defaults_are_standard_reversi():
    v = Variant()
    assert (v.board, v.players, v.anti, v.free_opening, v.blocked, v.handicap) == ("8x8", 2, False, False, (), 0)
    assert v.label == "8×8 · 2 players"
    assert Variant(board="octagon", players=3, anti=True).label == "Octagon · 3 players · Anti"


def test_public_example_builds_and_round_trips():
    v = Variant(board="octagon", players=3, anti=False, free_opening=False,
                blocked=("h6", "c5"), handicap=0, handicap_colour="white")
    assert v.blocked == ("c5", "h6")  # board order, whatever the given order
    d = v.to_dict()
    assert d["blocked"] == ["c5", "h6"]
    assert Variant.from_dict(json.loads(json.dumps(d))) == v
    assert hash(Variant.from_dict(d)) == hash(v)


@pytest.mark.parametrize(
    "fields,rule",
    [
        (dict(board="9x9"), "§1"),
        (dict(players=5), "§8"),
        (dict(players=1), "§8"),
        (dict(handicap=5), "§7"),
        (dict(handicap=-1), "§7"),
        (dict(handicap=1, handicap_colour="red"), "§7"),
        (dict(anti="yes"), "§9"),
        (dict(blocked=("b1",)), "§6"),  # odd count
        (dict(blocked=("b1", "g8", "c1", "f8", "d1", "e8", "a2", "h7", "a3", "h6")), "§6"),  # 10
        (dict(blocked=("b1", "b1")), "§6"),
        (dict(blocked=("k1", "a2")), "§6"),
        (dict(blocked=("d4", "e5")), "§6"),  # central 4x4
        (dict(blocked=("c3", "f6")), "§6"),  # central 4x4 corner
        (dict(blocked=("b1", "g7")), "§6"),  # not symmetric
        (dict(board="octagon", blocked=("a1", "j10")), "§6"),  # octagon cut
        (dict(handicap=1, blocked=("a1", "h8")), "§7"),  # corner with a handicap
    ],
)
def test_invalid_fields_name_their_rule(fields, rule):
    with pytest.raises(InvalidVariantError) as info:
        Variant(**fields)
    assert str(info.value).startswith(f"docs/rules.md {rule}:")
    assert isinstance(info.value, ValueError)


def test_blocked_accepts_any_order_and_case():
    assert Variant(blocked=["G8", "b1"]).blocked == ("b1", "g8")
    assert Variant(blocked="g8, b1").blocked == ("b1", "g8")
    assert Variant(blocked=("a1", "h8")).blocked == ("a1", "h8")  # corners are fine without a handicap


def test_handicap_colour_is_meaningless_without_handicap():
    assert Variant(handicap_colour="black") == Variant()
    assert Variant(handicap=2, handicap_colour="black").handicap_colour == "black"


def test_from_dict_refuses_unknown_fields():
    with pytest.raises(InvalidVariantError, match="unknown variant field"):
        Variant.from_dict({"board": "8x8", "colour": "blue"})
    assert Variant.from_dict({}) == Variant()


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("count", (2, 4, 6, 8))
@pytest.mark.parametrize("handicap", (0, 3))
def test_drawn_blocked_squares_follow_section_6(board, count, handicap):
    if handicap and board == "octagon":
        return
    g = get_geometry(board)
    forbidden = set(g.names(g.centre_block | g.cuts))
    corners = set(g.names(g.mask_of_cells(g.corner_cells)))
    for seed in range(40):
        v = Variant.with_random_blocked(count, seed=seed, board=board, handicap=handicap)
        assert len(v.blocked) == len(set(v.blocked)) == count
        assert not forbidden & set(v.blocked)
        assert all(g.twin(n) in v.blocked for n in v.blocked)
        if handicap:
            assert not corners & set(v.blocked)
        assert v == Variant.with_random_blocked(count, seed=seed, board=board, handicap=handicap)


def test_drawing_varies_with_the_seed_and_refuses_bad_counts():
    layouts = {Variant.with_random_blocked(4, seed=s).blocked for s in range(30)}
    assert len(layouts) > 20
    assert draw_blocked("8x8", 2, random.Random(1)) == draw_blocked("8x8", 2, random.Random(1))
    with pytest.raises(InvalidVariantError, match="docs/rules.md §6"):
        draw_blocked("8x8", 3, random.Random(1))
    with pytest.raises(InvalidVariantError, match="docs/rules.md §9"):
        Variant.with_random_blocked(2, seed=1, board="6x6", players=3)


def test_geometry_counts_playable_squares():
    assert [get_geometry(b).playable_count for b in BOARDS] == [36, 64, 100, 88]
    v = Variant.with_random_blocked(8, seed=3, board="octagon")
    assert v.geometry.playable_count == 80
    assert v.geometry is Variant.from_dict(v.to_dict()).geometry  # cached
