"""Random Swiss tournaments played out through tournaments.pairing.swiss, for the tests."""
import random

from tournaments.pairing import swiss
from tournaments.pairing.records import Bye, Entrant, Game, Outcome

OUTCOMES = (Outcome.FIRST_WINS, Outcome.SECOND_WINS, Outcome.DRAW)


def play(pairing, rnd, forfeits=0.0):
    """The games of a paired round with random results and disc counts (64 squares)."""
    games = []
    for first, second in pairing.games:
        if rnd.random() < forfeits:
            games.append(Game(pairing.number, first, second, rnd.choice((Outcome.FIRST_BY_FORFEIT,
                                                                          Outcome.SECOND_BY_FORFEIT))))
            continue
        outcome = rnd.choice(OUTCOMES)
        discs = 32 if outcome == Outcome.DRAW else rnd.randint(33, 64)
        mine, theirs = (discs, 64 - discs) if outcome != Outcome.SECOND_WINS else (64 - discs, discs)
        games.append(Game(pairing.number, first, second, outcome, mine, theirs))
    return games


def tournament(entrants, rounds, seed, bye_points=1.0, forfeits=0.0, forbidden=()):
    """(rounds paired, games, byes) of a Swiss played to the end (or until unpairable)."""
    rnd = random.Random(seed)
    settings = swiss.Settings(rounds=rounds, bye_points=bye_points)
    paired, games, byes = [], [], []
    for number in range(1, rounds + 1):
        try:
            pairing = swiss.pair_round(entrants, games, byes, number, settings, forbidden)
        except swiss.Unpairable:
            break
        paired.append(pairing)
        games += play(pairing, rnd, forfeits)
        if pairing.bye is not None:
            byes.append(Bye(number, pairing.bye, bye_points))
    return paired, games, byes


def field(count, seed=0):
    rnd = random.Random(seed)
    return [Entrant(number, rnd.randint(1200, 2400)) for number in range(1, count + 1)]
