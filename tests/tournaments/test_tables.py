"""Table rounds for three and four: seating by standing, repeats avoided, places scored."""
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.tables import Standing, bye_points, place_points, seat_round


def test_places_score_three_two_one_nothing_and_ties_share_the_places_they_span():
    assert place_points({1: 30, 2: 20, 3: 10, 4: 4}) == {1: 3, 2: 2, 3: 1, 4: 0}
    assert place_points({1: 30, 2: 30, 3: 4, 4: 0}) == {1: 2.5, 2: 2.5, 3: 1, 4: 0}
    assert place_points({1: 10, 2: 20, 3: 10, 4: 10}) == {1: 1, 2: 3, 3: 1, 4: 1}
    assert place_points({1: 20, 2: 20, 3: 20}) == {1: 1, 2: 1, 3: 1}


def test_a_bye_scores_a_tables_mean():
    assert (bye_points(4), bye_points(3)) == (1.5, 1)


def test_the_first_round_seats_down_the_standing_and_the_last_two_sit_out():
    players = [Standing(id, 0, 2000 - id) for id in range(1, 11)]
    round_ = seat_round(1, players, 4)
    assert round_.tables == ((1, 2, 3, 4), (5, 6, 7, 8)) and round_.byes == (9, 10)


def test_byes_go_to_those_who_have_had_fewest_and_repeats_are_avoided():
    met = {frozenset(pair) for table in ((1, 2, 3, 4), (5, 6, 7, 8)) for pair in combinations(table, 2)}
    players = [Standing(id, 0, 2000 - id, byes=int(id in (9, 10))) for id in range(1, 11)]
    round_ = seat_round(2, players, 4, met)
    assert round_.byes == (7, 8)
    repeats = sum(frozenset(pair) in met for table in round_.tables for pair in combinations(table, 2))
    assert repeats == 2  # eight players from two tables of four at two tables: two pairs must meet again


def test_three_players_fill_one_table_of_three():
    round_ = seat_round(1, [Standing(id, 0, 1500) for id in (3, 1, 2)], 3)
    assert round_.tables == ((1, 2, 3),) and round_.byes == ()


@pytest.mark.parametrize("size", [2, 5])
def test_only_tables_of_three_or_four(size):
    with pytest.raises(ValueError):
        seat_round(1, [Standing(id, 0, 1500) for id in range(8)], size)


@settings(max_examples=30, deadline=None)
@given(count=st.integers(4, 40), size=st.sampled_from((3, 4)), rounds=st.integers(1, 6), seed=st.integers(0, 999))
def test_everyone_is_seated_or_sits_out_once_a_round_and_byes_go_round(count, size, rounds, seed):
    import random
    rnd = random.Random(seed)
    scores = {id: 0.0 for id in range(1, count + 1)}
    byes = {id: 0 for id in scores}
    met = set()
    for number in range(1, rounds + 1):
        round_ = seat_round(number, [Standing(id, scores[id], 1500, byes[id]) for id in scores], size, met)
        seated = [p for table in round_.tables for p in table] + list(round_.byes)
        assert sorted(seated) == sorted(scores)
        assert all(len(table) == size for table in round_.tables) and len(round_.byes) == count % size
        for table in round_.tables:
            for player, points in place_points({p: rnd.randint(0, 3) for p in table}).items():
                scores[player] += points
            met |= {frozenset(pair) for pair in combinations(table, 2)}
        for player in round_.byes:
            byes[player] += 1
            scores[player] += bye_points(size)
        assert max(byes.values()) - min(byes.values()) <= 1
