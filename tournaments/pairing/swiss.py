"""A Swiss round by FIDE's Dutch system, paired by py4swiss.

The pairing itself is py4swiss's (MIT; its Dutch engine gives bbpPairings' pairings, and
uses bbpPairings' maximum-weight matching, compiled). We hand it the tournament so far
as a TRF (`trf`) and read back who plays whom.

The input is the history as stored (`records`): the entrants (id, rating, late entry,
withdrawal), the games (opponents, who moved first, results) and the byes. A summary
per player (score, colours, opponents, had a bye) would not do: the Dutch system
also weighs who floated up or down a score group in each of the last two rounds,
which needs every round's scores.

- Colours: the engine's White is our first player (who moves first: Black in Othello).
  It balances colours and never gives anyone the same colour three times running or a
  colour difference beyond two (the Dutch system's absolute colour rules, which it
  relaxes only between top scorers in the last round).
- Nobody meets the same opponent twice, nor a pair in `forbidden` (say, two accounts of
  one household). A forfeit is no meeting: as FIDE rules, the two may be paired again.
- Bye: with an odd number of players, one gets the pairing bye, worth `bye_points`
  (the organiser's choice: 1, 1/2 or 0). Nobody gets it twice, nor after a forfeit win
  (the Dutch system's rule C2); the lowest-ranked who can takes it.
- Withdrawn players (`Entrant.withdrew_after`) are left out of later rounds; late
  entrants join in their `joined_round` with their `entry_points`, counted as score for
  pairing (and in `standings`).

Raises `Unpairable` when no pairing keeps those rules (e.g. three players who have all
met one another and all had the bye).
"""
from dataclasses import dataclass

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError

from . import trf


class Unpairable(Exception):
    pass


@dataclass(frozen=True)
class Settings:
    rounds: int
    bye_points: float = 1.0


@dataclass(frozen=True)
class Round:
    number: int
    games: tuple  # (first, second) player ids: first moves first
    bye: int | None


def pair_round(entrants, games, byes, round_number, settings, forbidden=()):
    """Round `round_number` of a Swiss whose rounds before it are in `games` and `byes`."""
    text = trf.write(entrants, games, byes, rounds=settings.rounds, bye_points=settings.bye_points,
                     through_round=round_number - 1, pairing_round=round_number, forbidden=forbidden)
    parsed = trf.parse(text)
    ours = {section.starting_number: section.fide_number for section in parsed.player_sections}
    try:
        pairings = DutchEngine.generate_pairings(parsed)
    except PairingError as error:
        raise Unpairable(str(error)) from error
    bye = next((ours[p.white] for p in pairings if p.black == 0), None)
    return Round(round_number, tuple((ours[p.white], ours[p.black]) for p in pairings if p.black), bye)
