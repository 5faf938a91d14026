"""Arena: streaks and berserk worked by hand, and the properties of a pairing wave."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import arena
from tournaments.pairing.arena import ArenaGame, Waiting
from tournaments.pairing.records import Outcome

WIN, LOSS, DRAW = Outcome.FIRST_WINS, Outcome.SECOND_WINS, Outcome.DRAW


def test_two_wins_set_a_player_on_fire_until_a_game_is_not_won_and_berserk_adds_one():
    me = 1
    sequence = [  # (outcome for me moving first, moves, berserked)
        (WIN, 40, False),   # 2
        (WIN, 40, False),   # 2, now on fire
        (WIN, 40, False),   # 4
        (DRAW, 60, False),  # 2 (a draw on fire), the streak ends
        (WIN, 40, False),   # 2
        (LOSS, 40, True),   # 0: berserk adds nothing to a loss
        (WIN, 30, True),    # 2 + 1 berserk
        (WIN, 10, True),    # 2: berserk on a game under 20 moves adds nothing
        (WIN, 30, True),    # on fire: 4 + 1 (the berserk point is not doubled)
    ]
    games = [ArenaGame(number, me, 100 + number, outcome, moves, frozenset({me}) if berserk else frozenset())
             for number, (outcome, moves, berserk) in enumerate(sequence, start=1)]
    assert arena.game_points(games, me, min_berserk_moves=20) == [2, 2, 4, 2, 2, 0, 3, 2, 5]
    assert arena.on_fire(games, me)
    assert not arena.on_fire(games[:5], me)


def test_the_second_player_scores_their_own_side_and_a_forfeit_win_is_a_win():
    games = [ArenaGame(1, 5, 1, LOSS, 40), ArenaGame(2, 6, 1, Outcome.SECOND_BY_FORFEIT),
             ArenaGame(3, 1, 7, DRAW, 50), ArenaGame(4, 1, 8)]  # the last one is still on
    assert arena.game_points(games, 1, min_berserk_moves=20) == [2, 2, 2]
    assert arena.game_points(games, 5, min_berserk_moves=20) == [0]


def test_the_wave_pairs_neighbours_in_the_ranking_and_the_last_to_come_waits():
    waiting = [Waiting(id, rank, 1500) for id, rank in ((10, 1), (11, 2), (12, 3), (13, 4), (14, 5))]
    assert [set(pair) for pair in arena.pair_wave(waiting)] == [{10, 11}, {12, 13}]
    waiting[1] = Waiting(11, 2, 1500, since=5.0)
    assert [set(pair) for pair in arena.pair_wave(waiting)] == [{10, 12}, {13, 14}]


def test_the_last_opponent_is_never_paired_again_at_once():
    waiting = [Waiting(10, 1, 1500, last_opponent=11), Waiting(11, 2, 1500, last_opponent=10),
               Waiting(12, 3, 1500), Waiting(13, 4, 1500)]
    assert {frozenset(pair) for pair in arena.pair_wave(waiting)} == {frozenset((10, 12)), frozenset((11, 13))}
    two = waiting[:2]
    assert arena.pair_wave(two) == []
    # The last to come would wait, but one of the two who just met can play them.
    three = two + [Waiting(12, 3, 1500, since=9.0)]
    assert [set(pair) for pair in arena.pair_wave(three)] == [{11, 12}]


def test_the_one_who_moved_first_less_often_moves_first():
    a = Waiting(10, 1, 1500, firsts=3, seconds=1)
    b = Waiting(11, 2, 1500, firsts=1, seconds=3)
    assert arena.pair_wave([a, b]) == [(11, 10)]
    c = Waiting(12, 1, 1500, firsts=2, seconds=2, moved_first_last=True)
    d = Waiting(13, 2, 1500, firsts=2, seconds=2, moved_first_last=False)
    assert arena.pair_wave([c, d]) == [(13, 12)]


def test_a_place_in_the_ranking_outweighs_a_wide_rating_gap():
    waiting = [Waiting(1, 1, 2000), Waiting(2, 2, 1000), Waiting(3, 3, 2000), Waiting(4, 4, 1000)]
    assert {frozenset(pair) for pair in arena.pair_wave(waiting, ranks_in_arena=4)} == {
        frozenset((1, 2)), frozenset((3, 4))}


@settings(max_examples=40, deadline=None)
@given(count=st.integers(0, 130), seed=st.integers(0, 10**6))
def test_a_wave_pairs_everyone_at_most_once_never_with_themself_nor_their_last_opponent(count, seed):
    rnd = random.Random(seed)
    ids = rnd.sample(range(1, 10_000), count)
    last = {}
    for a, b in zip(ids[::2], ids[1::2]):
        if rnd.random() < 0.7:
            last[a], last[b] = b, a
    ranks = list(range(1, count + 1))
    rnd.shuffle(ranks)
    waiting = [Waiting(id, rank, rnd.randint(800, 2600), last.get(id), rnd.randint(0, 5), rnd.randint(0, 5))
               for id, rank in zip(ids, ranks)]
    pairs = arena.pair_wave(waiting)
    seated = [p for pair in pairs for p in pair]
    assert len(seated) == len(set(seated)) and set(seated) <= set(ids)
    assert all(a != b and last.get(a) != b for a, b in pairs)
    # Everyone who can play does: at most one waits, or two who just met each other.
    left = set(ids) - set(seated)
    assert len(left) <= 1 or (len(left) == 2 and last.get(min(left)) == max(left))
