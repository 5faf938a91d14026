"""Seats at a table's game: taking one, giving one back (a waiting game nobody sits at
any more is closed), and the finished game a rematch follows.

A table's game (kind TABLE) has one Seat per colour, in turn order; it waits
(status WAITING) until every seat is taken (a user, a guest or the computer), and
the seat that fills it starts it. The lobby decides who may ask (accounts, names,
hosts); the seats change by commands of the turn engine (games.turn.seats: TakeSeat,
GiveSeatBack, Start) applied by games.writer, under the lock of the game row, held to
the end of the caller's transaction: two people taking the last seats at once start
the game exactly once, and a seat goes to exactly one of two who click it together.
The rematch's new game is made by games.creation.rematch_game.
"""
from games import stored, writer
from games.creation import rematch_game, rotated  # noqa: F401  (the names the lobby uses)
from games.models import Game
from games.turn import commands
from games.writer import finished_game_locked  # noqa: F401


def seat_is_free(seat):
    return not seat.is_computer and seat.user_id is None and not seat.guest_token


def free_colours(game):
    return [seat.colour for seat in game.seats.all() if seat_is_free(seat)]


def take_seat(game_id, viewer, colour=None, guest_name=""):
    """Seat `viewer` (as their account, or as a guest named `guest_name` owning the
    seat through their session) at `colour`, or at the first free seat; the game
    starts when this fills the last one. Returns the colour taken. Inside the
    caller's transaction (the game row's lock is held to its end)."""
    occupant = stored.occupant_of_viewer(viewer)
    name = guest_name if viewer.user is None else ""
    applied = writer.change(Game(pk=game_id), commands.TakeSeat(occupant=occupant, name=name, colour=colour or ""))
    return applied.new.seat_of_occupant(occupant).colour


def give_seat_back(game_id, viewer):
    """Before the start: the viewer's seat is free again. Returns (their seat as it
    was, the people still seated); when nobody is, the game is closed, its seats and
    its table with it. A game that started meanwhile is refused (leaving it now is a
    forfeit: games.services.leave). Inside the caller's transaction."""
    applied = writer.change(Game(pk=game_id), commands.GiveSeatBack(occupant=stored.occupant_of_viewer(viewer)))
    new = applied.new
    freed = next(seat.colour for seat, was in zip(new.seats, applied.old.seats) if was.occupant and not seat.occupant)
    others = [seat for seat in applied.game.seats.all()
              if seat.colour != freed and not seat.is_computer and new.seat_of(seat.colour).occupant]
    return applied.seats_before[freed], others


def close_waiting_game(game):
    """Delete a game nobody waits at any more, with its seats (and the table it was
    played at, by its foreign key). Only a waiting game: one that started is kept."""
    writer.close_waiting_game(game)
