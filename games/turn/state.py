"""A game as the turn engine sees it: plain frozen values, no Django.

games.writer reads them from the Game, Seat and Move rows under the game's lock and
writes back what decide() changed. The string values are those of games.models
(Game.Kind, Game.Status, Game.Ending, Move.MadeBy), defined here, where the rules are,
and used by the models' choices.
"""
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property

from games.rules import Board, Variant
from games.turn.clock import Clock

# Game.Kind
COMPUTER, TABLE, IMPORTED = "computer", "table", "imported"
# Game.Status
WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
# Game.Ending ("" while not over)
NORMAL, FORFEIT, ABANDONED, TIME = "normal", "forfeit", "abandoned", "time"
RESIGNED, AGREED, ABORTED, CLAIMED = "resigned", "agreed", "aborted", "claimed"
# Level (the computer's)
EASY, NORMAL_LEVEL, HARD = "easy", "normal", "hard"
LEVELS = (EASY, NORMAL_LEVEL, HARD)
# Move.MadeBy
BY_PLAYER, BY_COMPUTER, BY_TIMEOUT, BY_LEAVER, BY_AUTO = "player", "computer", "timeout", "leaver", "auto"


@dataclass(frozen=True)
class SeatState:
    """Who plays a colour. `occupant`: "user:<pk>", "guest:<token>", or "" (free, or
    the computer's); `name`: a guest's chosen name."""
    colour: str
    occupant: str = ""
    is_computer: bool = False
    name: str = ""
    left_at: datetime | None = None
    remaining: float | None = None  # on a clock: its seconds when its turn last began
    lag: float = 0.0  # the last measured round trip of its game page (Clock.lag_credit)
    board_shown_at: datetime | None = None
    display_name: str = ""  # the name the seat shows (Seat.display_name), for refusals that name it

    @property
    def played_by_computer(self):
        """The computer moves for this seat: a computer seat, or a player who left."""
        return self.is_computer or self.left_at is not None

    @property
    def is_free(self):
        return not self.is_computer and not self.occupant


@dataclass(frozen=True)
class PlayedMove:
    ply: int  # 1 for the first move
    colour: str
    square: str  # a square's name, or "pass"
    flips: tuple[str, ...] = ()
    made_by: str = BY_PLAYER

    @property
    def is_pass(self):
        return self.square == "pass"


@dataclass(frozen=True)
class GameState:
    """A game: its variant and time, its seats in turn order, every move, and where it
    stands. Never changed in place: decide() returns a new one (dataclasses.replace)."""
    variant: Variant
    clock: Clock
    seats: tuple[SeatState, ...]
    moves: tuple[PlayedMove, ...] = ()
    kind: str = COMPUTER
    status: str = PLAYING
    level: str = "normal"
    rated: bool = False
    is_public: bool = False
    turn: str = ""  # the colour to move; "" unless playing
    turn_started_at: datetime | None = None
    deadline: datetime | None = None  # when the player to move runs out (before any grace)
    draw_offer: str = ""  # the colour whose draw offer stands
    draw_offers: dict = field(default_factory=dict)  # {colour: ply of its last offer}
    takeback_request: str = ""  # the colour asking to take back its last move
    forfeited: tuple[str, ...] = ()  # colours that left, in order
    flagged: tuple[str, ...] = ()  # colours that ran out of time
    ending: str = ""
    winner: str = ""  # a colour; "" for a draw or nobody
    counts: dict = field(default_factory=dict)  # {colour: stones} at the end
    score: dict = field(default_factory=dict)  # the official score at the end
    finished_at: datetime | None = None
    mailed_ply: int | None = None  # correspondence: the ply whose mover was mailed
    version: int = 0

    @property
    def ply(self):
        return len(self.moves)

    @cached_property
    def board(self):
        """The position, replayed from the moves (kept: the state never changes)."""
        board = Board(self.variant)
        for move in self.moves:
            board.push(move.square)
        return board

    def seat_of(self, colour):
        return next((seat for seat in self.seats if seat.colour == colour), None)

    def seat_of_occupant(self, occupant):
        return next((seat for seat in self.seats if occupant and seat.occupant == occupant), None)

    def with_seat(self, colour, **changes):
        """This state with the seat at `colour` changed."""
        return replace(self, seats=tuple(replace(seat, **changes) if seat.colour == colour else seat
                                         for seat in self.seats))
