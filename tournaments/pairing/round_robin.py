"""Round-robin schedules by Berger's tables (FIDE Handbook C.05, annex 1), for 3-12 players.

Players are numbered 1..n in the order given (the caller draws lots or seeds by rating).
With an odd number, a dummy n+1 joins and whoever meets it has a bye that round (no
points; every player sits out exactly once a cycle). Round 1 pairs i with n+1-i, the
lower number moving first; each later round adds n/2 to every number modulo n-1, keeping
the places at the table, while n, who stays, changes colour every round. Over a cycle
each player moves first (n-1)/2 times or as near as can be.

Double round-robin: the second cycle is the first with colours reversed. As FIDE advises,
the first cycle's last two rounds are swapped, so that nobody moves first (or second)
three times running across the change of cycle (with four players two of them
cannot avoid it, whatever the order of the rounds).

py4swiss has no round-robin: this is the table itself, a few lines of arithmetic.
"""
from dataclasses import dataclass

SIZES = range(3, 13)


@dataclass(frozen=True)
class Round:
    number: int
    games: tuple  # (first, second) player ids: first moves first
    bye: int | None


def berger(n):
    """Berger's table for n (even) pairing numbers: a list of rounds of (first, second)."""
    if n % 2:
        raise ValueError("Berger's table is for an even count (add a dummy for a bye)")
    pairs = [(i, n + 1 - i) for i in range(1, n // 2 + 1)]
    rounds = [pairs]
    for _ in range(n - 2):
        shifted = []
        for a, b in rounds[-1]:
            if n in (a, b):
                other = _shift(b if a == n else a, n)
                shifted.append((other, n) if a == n else (n, other))
            else:
                shifted.append((_shift(a, n), _shift(b, n)))
        rounds.append(shifted)
    return rounds


def _shift(number, n):
    return (number - 1 + n // 2) % (n - 1) + 1


def schedule(players, cycles=1):
    """Every round of a round-robin between `players` (ids, in pairing-number order)."""
    if len(players) not in SIZES:
        raise ValueError(f"a round-robin has {SIZES.start}-{SIZES.stop - 1} players")
    if cycles not in (1, 2):
        raise ValueError("single or double round-robin")
    seats = list(players) + ([None] if len(players) % 2 else [])
    table = berger(len(seats))
    if cycles == 2:
        table = table[:-2] + [table[-1], table[-2]]
        table = table + [[(b, a) for a, b in pairs] for pairs in table]
    rounds = []
    for number, pairs in enumerate(table, start=1):
        games = tuple((seats[a - 1], seats[b - 1]) for a, b in pairs if None not in (seats[a - 1], seats[b - 1]))
        bye = next((seats[a - 1] if seats[b - 1] is None else seats[b - 1]
                    for a, b in pairs if None in (seats[a - 1], seats[b - 1])), None)
        rounds.append(Round(number, games, bye))
    return rounds
