"""The seats panel of a table page, for one viewer, as its template draws it (the
table page serves it, and the table's websocket pushes it on every change)."""
from django.template.loader import render_to_string

from accounts.ratings import seat_ratings
from games.models import Game
from games.presentation import colour_name
from games.seating import seat_is_free
from lobby import rematch


def seats_view(table, viewer):
    """The seats panel of a table page, for this viewer."""
    game = table.game
    seats = list(game.seats.select_related("user__profile"))
    mine = viewer.seat_among(seats)
    rows = []
    for seat in seats:
        if seat.is_computer:
            kind = "computer"
        elif seat.left_at is not None:
            kind = "left"
        elif seat_is_free(seat):
            kind = "free"
        elif seat.user_id:
            kind = "player"
        else:
            kind = "guest"
        rows.append({
            "colour": seat.colour, "colour_name": colour_name(seat.colour), "kind": kind,
            "name": "" if kind == "free" else seat.display_name,
            "username": seat.user.get_username() if seat.user_id else "",
            "is_host": seat.user_id is not None and seat.user_id == table.host_id,
            "is_me": seat is mine,
        })
    _add_ratings(game, seats, rows)
    waiting = game.status == Game.Status.WAITING
    return {
        "rematch": rematch.offer(table, game, seats, mine),
        "table": table, "game": game, "seats": rows, "my_seat": mine,
        "status": game.status,
        "free_count": sum(1 for r in rows if r["kind"] == "free"),
        "can_sit": waiting and mine is None and viewer.user is not None,
        "can_give_up_seat": waiting and mine is not None,
        "can_leave": game.status == Game.Status.PLAYING and mine is not None and mine.left_at is None,
        "has_left": mine is not None and mine.left_at is not None,
        # Three or four players resign by leaving: the panel's Leave table is that.
        "can_resign": game.status == Game.Status.PLAYING and mine is not None and mine.left_at is None
        and game.variant_obj.players == 2,
        "can_take_back": game.status == Game.Status.PLAYING and mine is not None and mine.left_at is None
        and game.variant_obj.players == 2 and not game.rated,
    }


def _add_ratings(game, seats, rows):
    """Each account's rating in the game's category; after a rated game, its change too."""
    found = seat_ratings(game, seats)
    for row in rows:
        row["rating"] = found.get(row["colour"]) if row["kind"] in ("player", "left") else None


def render_seats(table, viewer, request=None):
    return render_to_string("lobby/includes/seats.html", seats_view(table, viewer), request=request)
