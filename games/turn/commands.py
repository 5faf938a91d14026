"""What may happen to a game: the commands decide() takes.

`by` is the colour of the seat of the person who acts, or None when the person
has no seat in the game (games.writer resolves the viewer to their seat under the
game's lock; decide() refuses with the command's own message). Commands a worker or
the site issues (ComputerMove, TimeOut, Flag, Start, GiveBackDowntime, MarkMailed)
have no `by`.

Inputs the engine cannot know are given in the command: the computer's chosen
square, how long a player has been gone (games.gone) and how long counts, the
site's outages (games.downtime).
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    by: str | None = None


# -- moves -------------------------------------------------------------------

@dataclass(frozen=True)
class Play(Command):
    """A person plays `square` (or "pass" where the rules make them pass) for their seat.
    `outages`: the site's outages since their turn began (as GiveBackDowntime's), given
    back before their time is judged."""
    square: str = ""
    outages: tuple = ()


@dataclass(frozen=True)
class ComputerMove(Command):
    """The computer's chosen `square` for the seat to move, which it plays (a computer
    seat, or a player who left: made_by "leaver")."""
    square: str = ""


@dataclass(frozen=True)
class TimeOut(Command):
    """At 60 s a move the player to move is due: the computer plays `square` for them
    (made_by "timeout"). On a clock or in correspondence see Flag (a TimeOut there is
    stale). `outages`: as Play's; stale unless the player is due once they are given back."""
    square: str = ""
    outages: tuple = ()


@dataclass(frozen=True)
class Flag(Command):
    """On a clock or in correspondence the player to move is out of time (docs/rules.md
    §11.3): of two they lose on time, of three or four they are out like a leaver; before
    their first move the game is aborted. Refused (stale) unless they are due at `now`,
    once the site's `outages` since their turn began are given back."""
    outages: tuple = ()


@dataclass(frozen=True)
class Undo(Command):
    """Against the computer: take back `by`'s last move and every computer answer after it."""


# -- what players agree or decide besides moves ------------------------------

@dataclass(frozen=True)
class Resign(Command):
    """Two players: `by` loses now (Board.decided). Three or four: a Leave."""


@dataclass(frozen=True)
class OfferDraw(Command):
    pass


@dataclass(frozen=True)
class AcceptDraw(Command):
    pass


@dataclass(frozen=True)
class DeclineDraw(Command):
    pass


@dataclass(frozen=True)
class Abort(Command):
    """Before every player has moved: ended aborted, won by nobody, not rated."""


@dataclass(frozen=True)
class RequestTakeback(Command):
    pass


@dataclass(frozen=True)
class AcceptTakeback(Command):
    pass


@dataclass(frozen=True)
class DeclineTakeback(Command):
    pass


@dataclass(frozen=True)
class ClaimWin(Command):
    """Two players: the opponent to move has been gone `gone_for` seconds (0: here) of the
    `needed`; `by` wins."""
    gone_for: float = 0.0
    needed: float = 0.0


@dataclass(frozen=True)
class ComputerForGone(Command):
    """The player to move has been gone long enough: the computer plays their seat from
    now on and they rank last (as a Leave of theirs)."""
    gone_for: float = 0.0
    needed: float = 0.0


@dataclass(frozen=True)
class Leave(Command):
    """`by` leaves the running game for good: they lose, the computer plays on for them."""


@dataclass(frozen=True)
class Abandon(Command):
    """Against the computer, New Game: the running game ends abandoned, won by nobody."""


@dataclass(frozen=True)
class SetLevel(Command):
    level: str = ""


@dataclass(frozen=True)
class Share(Command):
    """A player shares the finished game (anyone with the link may review it), or stops."""
    public: bool = True


# -- seats and the start -------------------------------------------------------

@dataclass(frozen=True)
class TakeSeat(Command):
    """`occupant` ("user:<pk>" or "guest:<token>", named `name`) sits at `colour`, or at
    the first free seat; the last seat taken starts the game."""
    occupant: str = ""
    name: str = ""
    colour: str = ""


@dataclass(frozen=True)
class GiveSeatBack(Command):
    """Before the start, `occupant`'s seat is free again."""
    occupant: str = ""


@dataclass(frozen=True)
class Start(Command):
    """Every seat is taken: the first colour is to move, every clock full."""


@dataclass(frozen=True)
class ShowBoard(Command):
    """A page of `by` shows the running game for the first time (docs/rules.md §11.3)."""


@dataclass(frozen=True)
class RecordLag(Command):
    """The round trip just measured on `by`'s game socket (their lag credit)."""
    seconds: float = 0.0


# -- the site ----------------------------------------------------------------

@dataclass(frozen=True)
class GiveBackDowntime(Command):
    """The site's outages (each with .start and .end datetimes, oldest first) are not the
    mover's time (docs/rules.md §11.3, Clock.give_back)."""
    outages: tuple = ()


@dataclass(frozen=True)
class MarkMailed(Command):
    """Correspondence: the player to move at `ply` was told by e-mail (once a turn)."""
    ply: int = 0
