"""Standings recomputed from the stored results: the same records give the same table.

Swiss and round-robin (`two_player`). Score: the points of every game (a win 1, a draw
1/2, a forfeit win 1), the byes' points and a late entrant's entry points. Ties are
broken, in order, by:

1. Buchholz: the sum of the scores of the opponents met over the board (forfeits and
   byes add no opponent);
2. Sonneborn-Berger: the sum, over the games played, of the opponent's score times the
   points scored against them (all of it for a win, half for a draw);
3. disc difference: the discs a player finished with less the opponent's, over their
   games played out (Othello's usual last tie-break);
4. rating, then id, only to give a fixed order: players equal on 1-3 share a rank.

Arena (`arena`): the sum of `arena.game_points` (streaks and berserk), ties broken by
the number of games won, then by the mean rating of the opponents met, then id; equal
on the first three share a rank.

Tables (`tables`): place points plus byes, ties broken by the number of first places,
then the disc count over all games; equal on those share a rank.
"""
from collections import defaultdict
from dataclasses import dataclass

from . import arena as arena_scoring
from . import tables as table_scoring


@dataclass(frozen=True)
class Row:
    rank: int
    player: int
    score: float
    tie_breaks: tuple  # as named in the function that made the row


def _ranked(entries):
    """entries: (player, score, tie_breaks, order) with order extending the tie-breaks
    only to sort; rows share a rank when score and tie-breaks are equal."""
    ordered = sorted(entries, key=lambda e: (-e[1], *(-t for t in e[2]), *e[3]))
    rows, previous = [], None
    for position, (player, score, tie_breaks, _) in enumerate(ordered, start=1):
        rank = rows[-1].rank if previous == (score, tie_breaks) else position
        rows.append(Row(rank, player, score, tie_breaks))
        previous = (score, tie_breaks)
    return rows


def two_player(entrants, games, byes):
    """Swiss and round-robin rows: tie_breaks = (Buchholz, Sonneborn-Berger, disc difference)."""
    ended = [game for game in games if game.outcome is not None]
    score = {entrant.id: entrant.entry_points for entrant in entrants}
    for game in ended:
        for player in (game.first, game.second):
            score[player] += game.points_of(player)
    for bye in byes:
        score[bye.player] += bye.points
    buchholz, berger, discs = defaultdict(float), defaultdict(float), defaultdict(int)
    for game in ended:
        if not game.outcome.played:
            continue
        for player in (game.first, game.second):
            opponent = game.opponent_of(player)
            buchholz[player] += score[opponent]
            berger[player] += score[opponent] * game.points_of(player)
            discs[player] += game.disc_difference_of(player)
    return _ranked([(e.id, score[e.id], (buchholz[e.id], berger[e.id], discs[e.id]), (-e.rating, e.id))
                    for e in entrants])


def arena(players, games, min_berserk_moves):
    """Arena rows: `players` maps id -> rating; tie_breaks = (wins, opponents' mean rating)."""
    rows = []
    for player in players:
        points = arena_scoring.game_points(games, player, min_berserk_moves)
        mine = [game for game in games if player in (game.first, game.second) and game.outcome]
        wins = sum(1 for game in mine if arena_scoring.won(game, player))
        opponents = [players[game.second if player == game.first else game.first] for game in mine]
        opposition = round(sum(opponents) / len(opponents)) if opponents else 0
        rows.append((player, sum(points), (wins, opposition), (player,)))
    return _ranked(rows)


def tables(players, results, byes, size):
    """Table-tournament rows: `results` are each table's {player: final discs}, `byes`
    the ids that sat out (once per bye); tie_breaks = (first places, discs)."""
    score = {player: 0.0 for player in players}
    firsts, discs = defaultdict(int), defaultdict(int)
    for table in results:
        best = max(table.values())
        for player, points in table_scoring.place_points(table).items():
            score[player] += points
            discs[player] += table[player]
            firsts[player] += table[player] == best
    for player in byes:
        score[player] += table_scoring.bye_points(size)
    return _ranked([(player, score[player], (firsts[player], discs[player]), (player,)) for player in players])
