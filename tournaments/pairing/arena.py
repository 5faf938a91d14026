"""Arena: pairing waves of waiting players, and the arena's scoring.

Pairing (ideas from lichess's arena, not its code). Everyone waiting when a wave runs is
paired at once by a maximum-weight matching (networkx's blossom algorithm, maximum
cardinality first: as many games as can be). A pair costs the rank difference, weighed
more near the top of the table (the leaders' pairings matter most: 2000 a place at
rank 1 down to 300 at the bottom), plus the rating difference; the weight is a constant
less that cost. A player is never paired with their last opponent (no edge). Only the
`NEIGHBOURS` nearest by rank are candidates, and a wave is matched `GROUP` players at a
time down the ranking (whoever a group leaves out joins the next): the blossom
algorithm is cubic in pure Python, and a pair further apart would cost more than any
rating difference saves. A group that the window leaves short is matched again over
all its pairs. With an odd count, whoever started waiting last (then the lowest
ranked) is set aside for the next wave, unless someone is left over whom they can play
(two who just met each other, say). Colours: whoever has moved first less often moves
first (then whoever moved second last time; then the higher rank).

Scoring: a win 2, a draw 1, a loss 0. After two wins in a row a player is "on fire":
their games score double (a win 4, a draw 2) until a game is not won. Berserk (half the
clock) adds 1 to a win (not doubled on fire), but not when the game lasted fewer than
`min_berserk_moves` moves in all (a quick game would make berserk free).
"""
from dataclasses import dataclass

import networkx

from .records import Outcome

NEIGHBOURS = 10  # candidates below a player in the ranking (benchmarks/README.md, "Tournament pairing")
GROUP = 50
WIN, DRAW, LOSS = 2, 1, 0
BERSERK_BONUS = 1


@dataclass(frozen=True)
class Waiting:
    id: int
    rank: int  # 1 = the leader
    rating: int
    last_opponent: int | None = None
    firsts: int = 0  # games in which they moved first
    seconds: int = 0
    moved_first_last: bool | None = None
    since: float = 0.0  # when they started waiting (any clock)


def pair_wave(waiting, ranks_in_arena=None):
    """[(first, second)] for the players waiting now, best ranked first; `ranks_in_arena`:
    the number of players in the arena (the bottom rank), by default the lowest waiting."""
    players = sorted(waiting, key=lambda player: (player.rank, player.id))
    if len(players) < 2:
        return []
    bottom = ranks_in_arena or max(player.rank for player in players)
    aside = max(players, key=lambda player: (player.since, player.rank)) if len(players) % 2 else None
    if aside:
        players.remove(aside)
    pairs, left = [], []
    for start in range(0, len(players), GROUP):
        group = left + players[start:start + GROUP]
        matched = _match(group, bottom, NEIGHBOURS)
        if 2 * len(matched) < len(group) - 1:
            matched = _match(group, bottom, len(group))
        pairs += matched
        paired = {player.id for pair in matched for player in pair}
        left = [player for player in group if player.id not in paired]
    if aside and left:
        pairs += _match(left + [aside], bottom, len(left))
    pairs.sort(key=lambda pair: min(pair[0].rank, pair[1].rank))
    return [_colours(a, b) for a, b in pairs]


def _match(players, bottom, neighbours):
    graph = networkx.Graph()
    for index, a in enumerate(players):
        for b in players[index + 1:index + 1 + neighbours]:
            if a.last_opponent == b.id or b.last_opponent == a.id:
                continue
            graph.add_edge(a.id, b.id, weight=10**9 - cost(a, b, bottom))
    by_id = {player.id: player for player in players}
    return [(by_id[a], by_id[b]) for a, b in networkx.max_weight_matching(graph, maxcardinality=True)]


def cost(a, b, bottom):
    """What pairing `a` with `b` costs: their rank difference, weighed more near the top
    (`bottom` is the lowest rank), plus their rating difference."""
    factor = 300 + 1700 * (bottom - min(a.rank, b.rank)) // max(bottom, 1)
    return factor * abs(a.rank - b.rank) + abs(a.rating - b.rating)


def _colours(a, b):
    """(first, second) ids: the one who has moved first less often moves first."""
    def owes_first(player):
        return (player.firsts - player.seconds, player.moved_first_last is True, player.rank)
    first, second = (a, b) if owes_first(a) <= owes_first(b) else (b, a)
    return first.id, second.id


@dataclass(frozen=True)
class ArenaGame:
    number: int  # orders a player's games: increasing with the time each started
    first: int
    second: int
    outcome: Outcome | None = None  # None while on
    moves: int = 0
    berserk: frozenset = frozenset()  # who berserked


def game_points(games, player, min_berserk_moves):
    """What each ended game of `player` scored them, in the order they played them."""
    mine = sorted((game for game in games if player in (game.first, game.second) and game.outcome),
                  key=lambda game: game.number)
    points, wins_in_a_row = [], 0
    for game in mine:
        victory = won(game, player)
        score = WIN if victory else DRAW if game.outcome == Outcome.DRAW else LOSS
        score *= 2 if wins_in_a_row >= 2 else 1
        if victory and player in game.berserk and game.outcome.played and game.moves >= min_berserk_moves:
            score += BERSERK_BONUS
        points.append(score)
        wins_in_a_row = wins_in_a_row + 1 if victory else 0
    return points


def won(game, player):
    first, second = game.outcome.points
    return first > second if player == game.first else second > first


def on_fire(games, player):
    """Whether `player`'s next game scores double: their last two ended games were wins."""
    mine = sorted((game for game in games if player in (game.first, game.second) and game.outcome),
                  key=lambda game: game.number)[-2:]
    return len(mine) == 2 and all(won(game, player) for game in mine)
