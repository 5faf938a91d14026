"""Swiss rounds by the Dutch system (py4swiss): hand-worked rounds and properties."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import swiss
from tournaments.pairing.records import Bye, Entrant, Game, Outcome

from .simulate import field, play, tournament

SIX = [Entrant(id, rating) for id, rating in ((11, 2000), (12, 1900), (13, 1800), (14, 1700), (15, 1600), (16, 1500))]


def test_round_one_pairs_the_top_half_with_the_bottom_half_colours_alternating():
    pairing = swiss.pair_round(SIX, [], [], 1, swiss.Settings(rounds=5))
    # By rating: 11 v 14, 15 v 12, 13 v 16, the top seed moving first and then every other board.
    assert pairing.games == ((11, 14), (15, 12), (13, 16))
    assert pairing.bye is None


def test_an_odd_round_one_gives_the_lowest_rated_the_bye():
    five = SIX[:5]
    pairing = swiss.pair_round(five, [], [], 1, swiss.Settings(rounds=4))
    assert pairing.bye == 15
    assert sorted(p for game in pairing.games for p in game) == [11, 12, 13, 14]


def test_round_two_pairs_the_winners_together_and_alternates_colours():
    round_one = [Game(1, 11, 14, Outcome.FIRST_WINS, 40, 24), Game(1, 15, 12, Outcome.SECOND_WINS, 20, 44),
                 Game(1, 13, 16, Outcome.FIRST_WINS, 35, 29)]
    pairing = swiss.pair_round(SIX, round_one, [], 2, swiss.Settings(rounds=5))
    games = {frozenset(game) for game in pairing.games}
    # The winners 11, 12, 13: two meet, the third floats down to a loser; nobody meets again.
    assert not games & {frozenset(game[1:3]) for game in [(1, 11, 14), (1, 15, 12), (1, 13, 16)]}
    assert frozenset((11, 12)) in games
    first = {game[0] for game in pairing.games}
    # 11 and 13 moved first in round one, 12 second: 12 now moves first against 11.
    assert (12, 11) in pairing.games and 13 not in first


def test_a_withdrawn_player_is_not_paired_again():
    entrants = SIX[:5] + [Entrant(16, 1500, withdrew_after=1)]
    round_one = [Game(1, 11, 14, Outcome.FIRST_WINS), Game(1, 15, 12, Outcome.DRAW), Game(1, 13, 16, Outcome.DRAW)]
    pairing = swiss.pair_round(entrants, round_one, [], 2, swiss.Settings(rounds=5))
    assert 16 not in {p for game in pairing.games for p in game}
    assert pairing.bye is not None and pairing.bye != 16


def test_a_late_entrant_is_paired_with_their_entry_score():
    # 17 joins in round 2 with a point: paired among the round-one winners.
    entrants = SIX + [Entrant(17, 1400, joined_round=2, entry_points=1.0), Entrant(18, 1300, joined_round=2)]
    round_one = [Game(1, 11, 14, Outcome.FIRST_WINS), Game(1, 15, 12, Outcome.SECOND_WINS),
                 Game(1, 13, 16, Outcome.FIRST_WINS)]
    pairing = swiss.pair_round(entrants, round_one, [], 2, swiss.Settings(rounds=5))
    opponent = {a: b for game in pairing.games for a, b in (game, game[::-1])}
    assert opponent[17] in {11, 12, 13}
    assert opponent[18] in {14, 15, 16}


def test_a_forbidden_pair_is_never_paired():
    pairing = swiss.pair_round(SIX, [], [], 1, swiss.Settings(rounds=5), forbidden=[(11, 14)])
    assert {frozenset(game) for game in pairing.games}.isdisjoint({frozenset((11, 14))})


def test_three_players_who_cannot_be_paired_are_refused():
    three = SIX[:3]
    games = [Game(1, 11, 12, Outcome.DRAW), Game(2, 13, 11, Outcome.DRAW), Game(3, 12, 13, Outcome.DRAW)]
    byes = [Bye(1, 13, 1.0), Bye(2, 12, 1.0), Bye(3, 11, 1.0)]
    with pytest.raises(swiss.Unpairable):
        swiss.pair_round(three, games, byes, 4, swiss.Settings(rounds=4))


def test_seven_players_over_seven_rounds_each_have_one_bye_and_no_rematch():
    paired, games, byes = tournament(field(7, seed=3), rounds=6, seed=3, bye_points=0.5)
    assert len(paired) == 6
    assert len({bye.player for bye in byes}) == len(byes) == 6
    meetings = [frozenset((game.first, game.second)) for game in games]
    assert len(meetings) == len(set(meetings))


def test_a_round_not_over_cannot_be_paired_from():
    with pytest.raises(ValueError):
        swiss.pair_round(SIX, [Game(1, 11, 14)], [], 2, swiss.Settings(rounds=5))


@settings(max_examples=25, deadline=None)
@given(count=st.integers(2, 16), rounds=st.integers(1, 6), seed=st.integers(0, 10**6),
       withdrawals=st.integers(0, 3), forfeits=st.sampled_from((0.0, 0.2)))
def test_every_round_pairs_each_player_at_most_once_and_gives_at_most_one_bye_each(
        count, rounds, seed, withdrawals, forfeits):
    rnd = random.Random(seed)
    entrants = [Entrant(e.id, e.rating, withdrew_after=rnd.randint(1, rounds) if e.id <= withdrawals else None)
                for e in field(count, seed)]
    paired, games, byes = tournament(entrants, rounds, seed, forfeits=forfeits)
    for pairing in paired:
        seats = [p for game in pairing.games for p in game] + ([pairing.bye] if pairing.bye is not None else [])
        assert len(seats) == len(set(seats))
        assert all(a != b for a, b in pairing.games)
        playing = {e.id for e in entrants if e.plays_in(pairing.number)}
        assert set(seats) == playing
    assert len({bye.player for bye in byes}) == len(byes)
    # A forfeit is no meeting (the Dutch system may pair the two again); a game played is.
    meetings = [frozenset((game.first, game.second)) for game in games if game.outcome.played]
    assert len(meetings) == len(set(meetings))


def test_play_gives_every_game_a_result():
    pairing = swiss.pair_round(SIX, [], [], 1, swiss.Settings(rounds=5))
    assert all(game.outcome for game in play(pairing, random.Random(1)))
