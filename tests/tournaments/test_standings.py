"""Standings and tie-breaks worked by hand, and recomputed to the same table."""
import random

from tournaments.pairing import standings
from tournaments.pairing.arena import ArenaGame
from tournaments.pairing.records import Bye, Entrant, Game, Outcome

from .simulate import field, tournament

A, B, C, D = 1, 2, 3, 4
FOUR = [Entrant(A, 2000), Entrant(B, 1900), Entrant(C, 1800), Entrant(D, 1700)]
TWO_ROUNDS = [
    Game(1, A, D, Outcome.FIRST_WINS, 40, 24),
    Game(1, B, C, Outcome.DRAW, 32, 32),
    Game(2, A, C, Outcome.SECOND_WINS, 29, 35),
    Game(2, D, B, Outcome.FIRST_WINS, 33, 31),
]


def test_buchholz_sonneborn_berger_and_disc_difference_by_hand():
    # Scores: A 1, B 1/2, C 1 1/2, D 1.
    # Buchholz: A = D + C = 2.5, B = C + D = 2.5, C = B + A = 1.5, D = A + B = 1.5.
    # Sonneborn-Berger: A = D x 1 = 1, B = C x 1/2 = 0.75, C = B x 1/2 + A x 1 = 1.25, D = B x 1 = 0.5.
    # Discs: A +16 -6 = 10, B 0 -2 = -2, C 0 +6 = 6, D -16 +2 = -14.
    rows = standings.two_player(FOUR, TWO_ROUNDS, [])
    assert [(r.rank, r.player, r.score, r.tie_breaks) for r in rows] == [
        (1, C, 1.5, (1.5, 1.25, 6)),
        (2, A, 1.0, (2.5, 1.0, 10)),  # A and D on one point: A's Buchholz is higher
        (3, D, 1.0, (1.5, 0.5, -14)),
        (4, B, 0.5, (2.5, 0.75, -2)),
    ]


def test_byes_forfeits_and_a_late_entry_count_in_the_score_not_in_the_tie_breaks():
    entrants = FOUR + [Entrant(5, 1600, joined_round=2, entry_points=0.5)]
    games = TWO_ROUNDS[:2] + [Game(2, 5, C, Outcome.FIRST_BY_FORFEIT), Game(2, A, B, Outcome.DRAW, 32, 32)]
    byes = [Bye(2, D, 1.0)]
    rows = {r.player: r for r in standings.two_player(entrants, games, byes)}
    assert rows[5].score == 1.5 and rows[5].tie_breaks == (0, 0, 0)
    assert rows[D].score == 1.0 and rows[D].tie_breaks == (rows[A].score, 0.0, -16)
    assert rows[C].tie_breaks == (rows[B].score, rows[B].score / 2, 0)


def test_players_equal_on_every_tie_break_share_a_rank():
    rows = standings.two_player([Entrant(1, 1500), Entrant(2, 1600), Entrant(3, 1400)],
                                [Game(1, 1, 2, Outcome.DRAW, 32, 32)], [Bye(1, 3, 0.5)])
    assert [(r.rank, r.player) for r in rows] == [(1, 2), (1, 1), (3, 3)]


def test_games_still_on_count_nothing():
    rows = standings.two_player(FOUR, TWO_ROUNDS + [Game(3, A, B)], [])
    assert rows == standings.two_player(FOUR, TWO_ROUNDS, [])


def test_recomputing_from_the_records_in_any_order_gives_the_same_table():
    entrants = field(11, seed=2)
    _, games, byes = tournament(entrants, rounds=5, seed=2, forfeits=0.1)
    table = standings.two_player(entrants, games, byes)
    rnd = random.Random(2)
    for _ in range(5):
        shuffled = games[:]
        rnd.shuffle(shuffled)
        assert standings.two_player(rnd.sample(entrants, len(entrants)), shuffled, byes[::-1]) == table
    assert sorted(r.rank for r in table)[0] == 1 and len(table) == 11


def test_arena_standings_add_streaks_and_berserk_and_break_ties_by_wins():
    players = {1: 1500, 2: 1700, 3: 1600}
    games = [
        ArenaGame(1, 1, 2, Outcome.FIRST_WINS, 40),
        ArenaGame(2, 3, 1, Outcome.SECOND_WINS, 40, frozenset({1})),  # 1 berserked: 2 + 1
        ArenaGame(3, 1, 2, Outcome.FIRST_WINS, 40),                   # 1 on fire: 4
        ArenaGame(4, 2, 3, Outcome.DRAW, 50),
        ArenaGame(5, 3, 2, Outcome.DRAW, 50),
    ]
    rows = standings.arena(players, games, min_berserk_moves=20)
    # 2 and 3 both drew twice: 3 met stronger opponents (1500, 1700, 1700) than 2 did.
    assert [(r.rank, r.player, r.score, r.tie_breaks) for r in rows] == [
        (1, 1, 9, (3, 1667)),
        (2, 3, 2, (0, 1633)),
        (3, 2, 2, (0, 1550)),
    ]


def test_table_standings_add_places_and_byes_and_break_ties_by_first_places():
    results = [{1: 40, 2: 20, 3: 4, 4: 0}, {1: 10, 2: 30, 3: 10, 5: 14}]
    rows = standings.tables([1, 2, 3, 4, 5], results, byes=[5], size=4)
    # Table two: 2 first (3), 5 second (2), 1 and 3 tied for third ((1 + 0) / 2 each).
    points = {r.player: r.score for r in rows}
    assert points == {1: 3 + 0.5, 2: 2 + 3, 3: 1 + 0.5, 4: 0, 5: 2 + 1.5}
    # 1 and 5 on 3.5: 1 was first at a table, 5 never.
    assert [(r.rank, r.player, r.tie_breaks) for r in rows] == [
        (1, 2, (1, 50)), (2, 1, (1, 50)), (3, 5, (0, 14)), (4, 3, (0, 14)), (5, 4, (0, 0))]
