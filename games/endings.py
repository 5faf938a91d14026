"""A table's game ended before the board is: a player resigns.

Each ending is applied as a move is (games.services.play_move): under the game row's
lock, by a conditional update on the ply read under it, so one that is raced by a
move or repeated happens once; the result is pushed after commit and announced
(ratings) inside the finishing transaction (games.services.finish_early). Two
players are scored by the rules core's Board.decided (docs/rules.md §4.1); with three
or four nothing is decided early, and a resign is a leave (§11).
"""
from django.db import transaction
from django.utils.translation import gettext as _

from games import services
from games.models import Game
from games.record import GameRecord
from games.services import GameError, NotYourTurn


def running_seat(game, viewer):
    """The viewer's seat in the running `game` (read under its lock), or the refusal."""
    if game.status != Game.Status.PLAYING:
        raise GameError(_("This game is over.") if game.is_over else _("This game has not started yet."))
    seat = viewer.seat_in(game)
    if seat is None:
        raise NotYourTurn(_("You have no seat in this game."))
    if seat.left_at is not None:
        raise GameError(_("You have already left this game."))
    return seat


def opponent_gone(game, seat):
    """A two-player game whose other player left: it is the stayer's already (§11)."""
    if any(other.left_at is not None for other in game.seats.all() if other.pk != seat.pk):
        raise GameError(_("Your opponent left the table: this game is yours whatever happens."))


def resign(game, viewer):
    """The viewer resigns: with two players they lose at once (Board.decided); with
    three or four they leave (games.services.leave: the computer plays on, they rank last)."""
    if game.variant_obj.players > 2:
        return services.leave(game, viewer)
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        seat = running_seat(game, viewer)
        opponent_gone(game, seat)
        record = GameRecord(game)
        return services.finish_early(game, record, record.board.decided(seat.colour), Game.Ending.RESIGNED)
