"""The TRF we write is read back by py4swiss to the same tournament, line for line."""
from tournaments.pairing import swiss, trf
from tournaments.pairing.records import Bye, Entrant, Game, Outcome

from .simulate import field, tournament


def written_and_read(entrants, games, byes, rounds, bye_points):
    text = trf.write(entrants, games, byes, rounds=rounds, bye_points=bye_points, through_round=rounds)
    return text, trf.parse(text)


def test_a_played_swiss_round_trips_through_py4swiss():
    entrants = field(9, seed=5) + [Entrant(10, 1500, joined_round=2, entry_points=0.5)]
    paired, games, byes = tournament(entrants, rounds=5, seed=5, bye_points=0.5, forfeits=0.1)
    assert len(paired) == 5
    text, parsed = written_and_read(entrants, games, byes, 5, 0.5)
    read_entrants, read_games, read_byes = trf.records(parsed, bye_points=0.5)
    assert {(e.id, e.rating) for e in read_entrants} == {(e.id, e.rating) for e in entrants}
    assert {(e.id, e.joined_round, e.entry_points) for e in read_entrants if e.entry_points} == {(10, 2, 0.5)}
    # The disc counts are not in a TRF.
    assert {(g.round, g.first, g.second, g.outcome) for g in read_games} == {
        (g.round, g.first, g.second, g.outcome) for g in games}
    assert set(read_byes) == set(byes)
    # py4swiss writes each player line as we did.
    ours = [line for line in text.splitlines() if line.startswith("001")]
    assert [section.to_string().rstrip() for section in parsed.player_sections] == ours


def test_a_hand_written_file_has_the_columns_the_format_gives():
    entrants = [Entrant(7, 2000), Entrant(8, 1900), Entrant(9, 1800)]
    games = [Game(1, 7, 9, Outcome.DRAW, 32, 32), Game(2, 8, 7, Outcome.FIRST_BY_FORFEIT)]
    byes = [Bye(1, 8, 1.0), Bye(2, 9, 1.0)]
    text = trf.write(entrants, games, byes, rounds=3, bye_points=1.0, through_round=2,
                     names={7: "Ada"}, pairing_round=3, forbidden=[(8, 9)])
    lines = text.splitlines()
    assert lines[3] == ("001    1      Ada                               2000               7            "
                        " 0.5    3     3 w =     2 b -")
    assert lines[4].endswith(" 2.0    1  0000 - U     1 w +")
    assert lines[5].endswith(" 1.5    2     1 b =  0000 - U")
    assert lines[6:] == ["XXR 3", "XXS PAB=1.0", "XXC white1", "XXP 2 3"]


def test_a_round_is_paired_the_same_from_the_file_read_back():
    entrants = field(12, seed=8)
    paired, games, byes = tournament(entrants, rounds=3, seed=8)
    text = trf.write(entrants, games, byes, rounds=4, bye_points=1.0, through_round=3)
    read_entrants, read_games, read_byes = trf.records(trf.parse(text), bye_points=1.0)
    settings = swiss.Settings(rounds=4)
    assert (swiss.pair_round(read_entrants, read_games, read_byes, 4, settings)
            == swiss.pair_round(entrants, games, byes, 4, settings))
