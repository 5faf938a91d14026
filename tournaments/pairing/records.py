"""The stored results of a two-player tournament, as every pairing and standing reads them.

A game is kept with who moved first and who second (Othello's Black and White), its
outcome once it has ended and, when it was played out, the discs each side finished
with (the disc difference tie-break). A forfeit is a game not played: its winner scores
a win, nobody scores discs. A bye is a round a player sat out with the points the
organiser set. An entrant is a player with their rating, the round they joined in (a
late entry starts with `entry_points`), and the round after which they withdrew, if
they did.

Points: a win 1, a draw 1/2, a loss 0 (Swiss and round-robin; arena scores its own way
in `arena`).
"""
import enum
from dataclasses import dataclass


class Outcome(enum.Enum):
    FIRST_WINS = "1-0"
    SECOND_WINS = "0-1"
    DRAW = "1/2"
    FIRST_BY_FORFEIT = "+-"  # the second player did not play
    SECOND_BY_FORFEIT = "-+"
    BOTH_FORFEIT = "--"

    @property
    def played(self):
        return self in (Outcome.FIRST_WINS, Outcome.SECOND_WINS, Outcome.DRAW)

    @property
    def points(self):
        """(first's points, second's points)."""
        return _POINTS[self]


_POINTS = {
    Outcome.FIRST_WINS: (1.0, 0.0),
    Outcome.SECOND_WINS: (0.0, 1.0),
    Outcome.DRAW: (0.5, 0.5),
    Outcome.FIRST_BY_FORFEIT: (1.0, 0.0),
    Outcome.SECOND_BY_FORFEIT: (0.0, 1.0),
    Outcome.BOTH_FORFEIT: (0.0, 0.0),
}


@dataclass(frozen=True)
class Game:
    round: int
    first: int
    second: int
    outcome: Outcome | None = None  # None while the game is on
    first_discs: int | None = None
    second_discs: int | None = None

    def points_of(self, player):
        if self.outcome is None:
            return 0.0
        first, second = self.outcome.points
        return first if player == self.first else second

    def opponent_of(self, player):
        return self.second if player == self.first else self.first

    def disc_difference_of(self, player):
        """The player's discs less the opponent's; 0 for a game not played out."""
        if self.outcome is None or not self.outcome.played or self.first_discs is None:
            return 0
        difference = self.first_discs - self.second_discs
        return difference if player == self.first else -difference


@dataclass(frozen=True)
class Bye:
    round: int
    player: int
    points: float


@dataclass(frozen=True)
class Entrant:
    id: int
    rating: int
    joined_round: int = 1
    entry_points: float = 0.0  # a late entry's score on joining
    withdrew_after: int | None = None  # the last round they were paired in

    def plays_in(self, round_number):
        return self.joined_round <= round_number and (self.withdrew_after is None
                                                      or round_number <= self.withdrew_after)
