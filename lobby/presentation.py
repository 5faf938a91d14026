"""The seats panel of a table page, for one viewer, as its template draws it (the
table page serves it, and the table's websocket pushes it on every change)."""
from django.conf import settings
from django.template.loader import render_to_string

from accounts.ratings import seat_ratings
from games import gone
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
            "is_me": seat is mine, "here": None,
        })
    _add_ratings(game, seats, rows)
    claims = _add_presence(game, seats, rows, mine)
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
        "gone_claims": claims, "two_players": len(seats) == 2,
        "spectators": gone.spectators(game.public_id) if game.status != Game.Status.WAITING else 0,
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


def _add_presence(game, seats, rows, mine):
    """Each person's seat of a running game says whether they are here (games.gone).
    Returns, for a seated viewer, the gone players they may act for once they are due:
    [{"colour", "name", "ready_at" (ms since the epoch)}]; the page shows each while that
    player is to move and their time has come (table.js), the server checks again."""
    if game.status != Game.Status.PLAYING:
        return []
    people = [seat for seat in seats if not seat.is_computer and seat.left_at is None and not seat_is_free(seat)]
    seen = gone.last_seen(game.public_id, [seat.colour for seat in people])
    claims = []
    for row in rows:
        if row["colour"] not in seen:
            continue
        here, since = seen[row["colour"]]
        row["here"] = here
        seat = next(seat for seat in people if seat.colour == row["colour"])
        if not here and since is not None and mine is not None and mine.left_at is None and seat is not mine:
            claims.append({"colour": seat.colour, "name": seat.display_name,
                           "ready_at": int((since + settings.PLAYER_GONE_SECONDS) * 1000)})
    return claims


def render_seats(table, viewer, request=None):
    return render_to_string("lobby/includes/seats.html", seats_view(table, viewer), request=request)
