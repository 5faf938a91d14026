"""A Swiss written as a FIDE TRF(x) file, and read back through py4swiss.

The TRF (FIDE's Tournament Report File, with the javafo "XX" lines) is what pairing
programs read: py4swiss pairs from it, bbpPairings and JaVaFo read the same file, and
it is the Swiss results export. What we write:

- a player line ("001") per entrant who has joined by the last round written, numbered
  by rating (highest first, then our id): the starting number. The name column holds
  the name given (or "Player <id>"), the FIDE-number column our player id, so a file
  read back maps to our players.
- each round's entry: the opponent's starting number, the colour ("w" is our first
  player, who moves first: the chess programs' White), and 1, =, 0 for a game played,
  + and - for a forfeit, "0000 - U" for the pairing bye, "0000 - Z" for a round the
  player was not in (before a late entry, after a withdrawal).
- XXR the number of rounds, XXS the bye's points (PAB), XXC white1 (the top seed moves
  first in round 1), XXZ the entrants who sit out the round being paired (withdrawn),
  XXA a late entrant's entry points from the round they joined in (the programs
  pair with them as if scored; our standings add them to the score too), XXP the
  forbidden pairs.

py4swiss checks the file as it reads it (every score adds up, each game is written
the same way by both players), so reading back what we wrote is a check of the writer.
"""
import tempfile
from pathlib import Path

from py4swiss.trf import ParsedTrf, TrfParser
from py4swiss.trf.results import ResultToken

from .records import Bye, Entrant, Game, Outcome

_RESULT = {  # outcome -> (first's token, second's token)
    Outcome.FIRST_WINS: ("1", "0"),
    Outcome.SECOND_WINS: ("0", "1"),
    Outcome.DRAW: ("=", "="),
    Outcome.FIRST_BY_FORFEIT: ("+", "-"),
    Outcome.SECOND_BY_FORFEIT: ("-", "+"),
    Outcome.BOTH_FORFEIT: ("-", "-"),
}
_OUTCOME = {tokens: outcome for outcome, tokens in _RESULT.items()}
_WIN, _DRAW, _LOSS = 1.0, 0.5, 0.0
_POINTS = {"1": _WIN, "=": _DRAW, "0": _LOSS, "+": _WIN, "-": _LOSS, "Z": 0.0}


def starting_numbers(entrants):
    """Our id -> starting number: by rating, highest first, then by id."""
    ordered = sorted(entrants, key=lambda entrant: (-entrant.rating, entrant.id))
    return {entrant.id: number for number, entrant in enumerate(ordered, start=1)}


def write(entrants, games, byes, *, rounds, bye_points, through_round, pairing_round=None,
          forbidden=(), names=None, title="Reversi Swiss"):
    """The TRF text of the results of rounds 1..`through_round`; with `pairing_round`, the
    file to pair that round from (its absentees in XXZ). `names`: our id -> name."""
    last = pairing_round or through_round
    present = [entrant for entrant in entrants if entrant.joined_round <= last]
    numbers = starting_numbers(present)
    tokens = _round_tokens(present, numbers, games, byes, through_round)
    points = {entrant.id: sum(_points_of(token, bye_points) for token in tokens[entrant.id])
              for entrant in present}
    ranks = {entrant.id: rank for rank, entrant in enumerate(
        sorted(present, key=lambda e: (-points[e.id] - e.entry_points, numbers[e.id])), start=1)}
    names = names or {}
    lines = [f"012 {title}", f"062 {len(present)}", "092 Individual: Swiss-System"]
    for entrant in sorted(present, key=lambda e: numbers[e.id]):
        name = names.get(entrant.id) or f"Player {entrant.id}"
        head = (f"001 {numbers[entrant.id]:>4}      {name[:33]:<33} {max(0, min(entrant.rating, 9999)):>4}"
                f"     {entrant.id:>11} {'':<10} {points[entrant.id]:>4.1f} {ranks[entrant.id]:>4}")
        lines.append(head + "".join(f"  {token}" for token in tokens[entrant.id]))
    lines += [f"XXR {rounds}", f"XXS PAB={bye_points:.1f}", "XXC white1"]
    if pairing_round:
        away = sorted(numbers[e.id] for e in present if not e.plays_in(pairing_round))
        if away:
            lines.append("XXZ " + " ".join(str(number) for number in away))
    for entrant in sorted(present, key=lambda e: numbers[e.id]):
        if entrant.entry_points:
            accelerations = [0.0] * (entrant.joined_round - 1) + [entrant.entry_points] * (
                rounds - entrant.joined_round + 1)
            lines.append(f"XXA {numbers[entrant.id]:>4} " + " ".join(f"{a:>4.1f}" for a in accelerations))
    for a, b in sorted(forbidden):
        if a in numbers and b in numbers:
            lines.append(f"XXP {numbers[a]} {numbers[b]}")
    return "\n".join(lines) + "\n"


def _round_tokens(present, numbers, games, byes, through_round):
    """Our id -> the TRF entries ("oooo c r") of rounds 1..through_round."""
    entries = {entrant.id: {} for entrant in present}
    for game in games:
        if game.round > through_round or game.first not in entries:
            continue
        if game.outcome is None:
            raise ValueError(f"round {game.round} is not over: {game.first} v {game.second}")
        first, second = _RESULT[game.outcome]
        entries[game.first][game.round] = f"{numbers[game.second]:>4} w {first}"
        entries[game.second][game.round] = f"{numbers[game.first]:>4} b {second}"
    for bye in byes:
        if bye.round <= through_round and bye.player in entries:
            entries[bye.player][bye.round] = "0000 - U"
    return {player: [by_round.get(number, "0000 - Z") for number in range(1, through_round + 1)]
            for player, by_round in entries.items()}


def _points_of(token, bye_points):
    result = token[-1]
    return bye_points if result == "U" else _POINTS[result]


def parse(text):
    """py4swiss's reading of a TRF text (it checks the file as it reads it)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tournament.trf"
        path.write_text(text, encoding="utf-8")
        return TrfParser.parse(path, strict=True)


def records(parsed: ParsedTrf, bye_points):
    """(entrants, games, byes) read back from a parsed TRF (our ids from the id column).
    An entrant's late entry is read from XXA; a withdrawal is not in the file."""
    by_number = {section.starting_number: section for section in parsed.player_sections}
    ours = {number: section.fide_number for number, section in by_number.items()}
    entrants, games, byes = [], [], []
    for section in parsed.player_sections:
        accelerations = parsed.x_section.accelerations.get(section.starting_number, [])
        joined = next((index for index, value in enumerate(accelerations, start=1) if value), 1)
        entry_points = (accelerations[joined - 1] / 10) if accelerations and any(accelerations) else 0.0
        entrants.append(Entrant(ours[section.starting_number], section.fide_rating or 0, joined, entry_points))
        for number, result in enumerate(section.results, start=1):
            if result.result == ResultToken.PAIRING_ALLOCATED_BYE:
                byes.append(Bye(number, ours[section.starting_number], bye_points))
            elif not result.result.is_bye() and result.color.value == "w":
                theirs = by_number[result.id].results[number - 1]
                outcome = _OUTCOME[(result.result.value, theirs.result.value)]
                games.append(Game(number, ours[section.starting_number], ours[result.id], outcome))
    return entrants, games, byes
