"""Berger tables: FIDE's published tables, byes, double cycles and colour balance."""
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing.round_robin import berger, schedule


def test_six_players_follow_fides_berger_table():
    assert berger(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_five_players_sit_out_once_each_where_the_sixth_would_be():
    rounds = schedule(["a", "b", "c", "d", "e"])
    assert [r.bye for r in rounds] == ["a", "d", "b", "e", "c"]
    assert rounds[0].games == (("b", "e"), ("c", "d"))


def test_the_second_cycle_reverses_the_colours_of_the_first():
    rounds = schedule(list(range(1, 7)), cycles=2)
    assert len(rounds) == 10
    first = {game for r in rounds[:5] for game in r.games}
    second = {game for r in rounds[5:] for game in r.games}
    assert second == {(b, a) for a, b in first}
    # The first cycle's last two rounds are swapped.
    assert rounds[3].games == tuple(berger(6)[4]) and rounds[4].games == tuple(berger(6)[3])


@pytest.mark.parametrize("size", [2, 13])
def test_sizes_outside_three_to_twelve_are_refused(size):
    with pytest.raises(ValueError):
        schedule(list(range(size)))


def colours(rounds, player):
    return "".join("F" if player == game[0] else "S" for r in rounds for game in r.games if player in game)


@given(size=st.integers(3, 12), cycles=st.sampled_from((1, 2)))
def test_everyone_meets_everyone_exactly_once_a_cycle_with_balanced_colours(size, cycles):
    players = list(range(100, 100 + size))
    rounds = schedule(players, cycles)
    per_cycle = len(rounds) // cycles
    for cycle in range(cycles):
        played = rounds[cycle * per_cycle:(cycle + 1) * per_cycle]
        meetings = [frozenset(game) for r in played for game in r.games]
        assert sorted(meetings, key=sorted) == sorted(map(frozenset, combinations(players, 2)), key=sorted)
        for player in players:
            sides = colours(played, player)
            assert abs(sides.count("F") - sides.count("S")) <= 1
    for r in rounds:
        seats = [p for game in r.games for p in game] + ([r.bye] if r.bye is not None else [])
        assert sorted(seats) == players
    byes = [r.bye for r in rounds if r.bye is not None]
    assert sorted(byes) == (sorted(players * cycles) if size % 2 else [])
    if size != 4:
        assert not any("FFF" in colours(rounds, p) or "SSS" in colours(rounds, p) for p in players)
