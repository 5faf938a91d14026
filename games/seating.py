"""Seats at a table's game: taking one, giving one back, closing a waiting game
nobody sits at any more, and the seats of a rematch's new game.

A table's game (kind TABLE) has one Seat per colour, in turn order; it waits
(status WAITING) until every seat is taken (a user, a guest or the computer), then
games.services.start_game starts it. The lobby decides who may ask (accounts,
names, hosts); this module changes the seats, with games.services the only code
that writes a Game, a Seat or a Move.

Every change happens inside the caller's transaction under a lock on the game row
(select_for_update on PostgreSQL; SQLite's IMMEDIATE transactions serialise writers
anyway), so two people taking the last seats at once start the game exactly once;
the seat itself is taken by a conditional update on its still being free, so it
goes to exactly one of two people who click it together.
"""
from django.db.models import Q
from django.utils.translation import gettext as _

from games import Variant
from games import services
from games.models import Game, Seat
from games.presentation import colour_name
from games.services import GameError, NotYourTurn


def free_seat_q():
    return Q(user__isnull=True, guest_token="", is_computer=False)


def seat_is_free(seat):
    return not seat.is_computer and seat.user_id is None and not seat.guest_token


def free_colours(game):
    return [seat.colour for seat in game.seats.all() if seat_is_free(seat)]


def take_seat(game_id, viewer, colour=None, guest_name=""):
    """Seat `viewer` (as their account, or as a guest named `guest_name` owning the
    seat through their session) at `colour`, or at the first free seat; the game
    starts when this fills the last one. Returns the colour taken.

    Locks: the game row (select_for_update), then a conditional update of the seat on
    its being free (0 rows: taken meanwhile, refused). Inside the caller's transaction.
    """
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.status == Game.Status.FINISHED:
        raise GameError(_("This game is over."))
    if game.status != Game.Status.WAITING:
        raise GameError(_("This table is full and already playing. You can watch it."))
    seats = list(game.seats.select_related("user"))
    if viewer.seat_among(seats) is not None:
        raise GameError(_("You already have a seat at this table."))
    free = [seat for seat in seats if seat_is_free(seat)]
    if colour:
        seat = next((s for s in seats if s.colour == colour), None)
        if seat is None:
            raise GameError(_("This table has no such seat."))
        if seat not in free:
            raise GameError(_("The %(colour)s seat is taken. Choose another.") % {"colour": colour_name(colour)})
    elif free:
        seat = free[0]
    else:
        raise GameError(_("This table is full."))
    if viewer.user is not None:
        taken = {"user": viewer.user}
    else:
        taken = {"guest_token": viewer.guest_token, "guest_name": guest_name}
    if not Seat.objects.filter(free_seat_q(), pk=seat.pk).update(**taken):
        raise GameError(_("That seat was just taken. Choose another."))
    if len(free) == 1:
        services.start_game(game)
    return seat.colour


def give_seat_back(game_id, viewer):
    """Before the start: the viewer's seat is free again. Returns (their seat as it
    was, the people still seated); when nobody is, the game is closed
    (close_waiting_game).

    Locks: the game row (select_for_update), held to the end of the caller's
    transaction; the seat is freed under it. A game that started meanwhile is refused
    (leaving it now is a forfeit: games.services.leave).
    """
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.status != Game.Status.WAITING:
        raise GameError(_("The game has started meanwhile. Reload the page to leave it."))
    seats = list(game.seats.select_related("user"))
    seat = viewer.seat_among(seats)
    if seat is None:
        raise NotYourTurn(_("You have no seat at this table."))
    Seat.objects.filter(pk=seat.pk).update(user=None, guest_token="", guest_name="")
    others = [s for s in seats if s.pk != seat.pk and not s.is_computer and not seat_is_free(s)]
    if not others:
        close_waiting_game(game)
    return seat, others


def close_waiting_game(game):
    """Delete a game nobody waits at any more, with its seats (and the table it was
    played at, by its foreign key). Only a waiting game: one that started is kept.

    Locks: the caller holds the game row (give_seat_back); the delete is conditional
    on the game still waiting.
    """
    Game.objects.filter(pk=game.pk, status=Game.Status.WAITING).delete()


def finished_game_locked(game_id):
    """The finished game a rematch follows, under a lock on its row (select_for_update,
    to the end of the caller's transaction), or a GameError while it is not over (or
    was abandoned)."""
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.status != Game.Status.FINISHED or game.is_abandoned:
        raise GameError(_("A rematch can be played once the game has ended."))
    return game


def rotated(colours, index):
    """The colour of seat `index` in the rematch: one step back in the turn order, so
    the first player moves last."""
    return colours[(index - 1) % len(colours)]


def rematch_game(game, seats, *, is_public):
    """The new game of a rematch of the finished `game` (its `seats` read under its
    lock, finished_game_locked): the same variant and options with blocked squares
    drawn again, the colours rotated, a leaver's seat free. It starts at once when
    nobody is missing. Inside the caller's transaction; the new game's rows are new,
    so it takes no lock of its own (start_game's update is conditional on WAITING).
    """
    old = Variant.from_dict(game.variant)
    variant = services.build_variant(
        board=old.board, players=old.players, anti=old.anti, free_opening=old.free_opening,
        blocked=len(old.blocked), handicap=old.handicap, handicap_colour=old.handicap_colour)
    by_colour = {seat.colour: seat for seat in seats}
    new_seats = []
    for index, colour in enumerate(old.colours):
        seat = by_colour[colour]
        stays = seat.left_at is None
        new_seats.append({
            "colour": rotated(variant.colours, index), "is_computer": seat.is_computer,
            "user": seat.user if stays else None, "guest_token": seat.guest_token if stays else "",
            "guest_name": seat.guest_name if stays else ""})
    new_seats.sort(key=lambda seat: variant.colours.index(seat["colour"]))  # listed in turn order
    new = services.create_waiting_game(variant, level=game.level, is_public=is_public,
                                       rated=game.rated, seats=new_seats,
                                       time_control=(game.time_control, game.time_total, game.time_increment))
    if all(seat["is_computer"] or seat["user"] or seat["guest_token"] for seat in new_seats):
        services.start_game(new)
        new.refresh_from_db()
    return new
