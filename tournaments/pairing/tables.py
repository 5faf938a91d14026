"""Table rounds for three and four players: seating by standing, and scoring by place.

Seating. A table tournament plays at tables of one size, three or four (the board is
made for that many). Each round the players are sorted by standing (score, then
rating, then id) and seated down the list, a table at a time. When the count does not
divide, the remainder sit out with a bye: those lowest in the standing who have had the
fewest byes (so nobody has a second bye before everyone has had one). Then tables
swap players while that lowers the number of pairs who have already shared a
table, each swap also paying for how far it moves players from their place in the
standing (a repeat costs as much as moving `REPEAT_COST` places), until no swap of two
players between two tables helps (a local search: it finds a seating without repeats
when one is a swap or a few away, not always the fewest repeats).

Scoring by place. At a table of n, the places score n-1, n-2, ..., 0 (four players:
3/2/1/0; three: 2/1/0). Players who tie (the same final disc count) share the points of
the places they span: two tied for first at a table of four score (3+2)/2 = 2.5 each.
A bye scores the table's mean, (n-1)/2 (1.5 at tables of four, 1 at tables of three):
sitting out neither helps nor harms on average.
"""
from dataclasses import dataclass
from itertools import combinations

SIZES = (3, 4)
REPEAT_COST = 20


@dataclass(frozen=True)
class Standing:
    id: int
    score: float
    rating: int
    byes: int = 0


@dataclass(frozen=True)
class TableRound:
    number: int
    tables: tuple  # tuples of player ids, seat order as seated (by standing)
    byes: tuple


def seat_round(number, standings, size, met=frozenset()):
    """Round `number`: `standings` of everyone playing, `met` the frozensets of two
    players who have already shared a table."""
    if size not in SIZES:
        raise ValueError("tables of three or four")
    ordered = sorted(standings, key=lambda s: (-s.score, -s.rating, s.id))
    if len(ordered) < size:
        raise ValueError(f"{len(ordered)} players cannot fill a table of {size}")
    spare = len(ordered) % size
    by_bye_order = sorted(range(len(ordered)), key=lambda i: (ordered[i].byes, -i))
    sitting_out = set(by_bye_order[:spare])
    byes = tuple(ordered[i].id for i in sorted(sitting_out))
    seated = [(i, s.id) for i, s in enumerate(ordered) if i not in sitting_out]
    tables = [seated[start:start + size] for start in range(0, len(seated), size)]
    _improve(tables, met)
    return TableRound(number, tuple(tuple(player for _, player in table) for table in tables), byes)


def _cost(table, home, met):
    repeats = sum(frozenset((a, b)) in met for (_, a), (_, b) in combinations(table, 2))
    return REPEAT_COST * repeats + sum(abs(place - home) for place, _ in table)


def _improve(tables, met):
    """Swap two players of two tables while it lowers the cost."""
    size = len(tables[0]) if tables else 0
    homes = [index * size + size / 2 for index in range(len(tables))]

    def cost(index):
        return _cost(tables[index], homes[index], met) if met else 0

    improved = bool(met)
    while improved:
        improved = False
        for t, u in combinations(range(len(tables)), 2):
            for i in range(size):
                for j in range(size):
                    before = cost(t) + cost(u)
                    tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
                    if cost(t) + cost(u) < before:
                        improved = True
                    else:
                        tables[t][i], tables[u][j] = tables[u][j], tables[t][i]


def place_points(discs):
    """Points by place at one table: `discs` maps each player to their final disc count."""
    size = len(discs)
    ordered = sorted(discs.values(), reverse=True)
    points = {}
    for player, count in discs.items():
        first = ordered.index(count)  # the best place the tie spans (0-based)
        span = ordered.count(count)
        points[player] = sum(size - 1 - place for place in range(first, first + span)) / span
    return points


def bye_points(size):
    return (size - 1) / 2
