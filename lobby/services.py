"""Opening, joining, taking a seat as a guest, leaving and starting tables.

A table's game is a games.models.Game (kind TABLE) with one Seat per colour: seat i
is colour i of the variant (Black, White, Red, Green: the turn order). The game
waits (status WAITING) until every seat is taken (a user, a guest or the
computer), then games.services.start_game starts it: the first colour is to move,
and games.services takes over (deadlines, computer moves, time-outs, the result).

Every change happens under a lock on the game row (select_for_update on
PostgreSQL; SQLite's IMMEDIATE transactions serialise writers anyway), so two
people taking the last seats at once start the game exactly once, and a seat goes
to exactly one of two people who click it together. After commit, every page
showing the table and (for public tables) the lobby are told.
"""
import logging
import time
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch, Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.forms import clean_name
from accounts.ratings import category_of, ratings_by_user_and_category, seat_ratings
from games import broadcast
from games import services as game_services
from games.access import can_watch
from games.models import Game, Level, Seat
from games.presentation import colour_name, variant_label
from games.services import GameError, NotYourTurn
from lobby import presence
from lobby.models import Table, normalise_code

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
GUEST_NAME_MAX = 40
# Open tables nobody joined are dropped from the lobby after this long (they stay reachable by code).
LOBBY_WAITING_FOR = timedelta(hours=12)
LOBBY_ROWS = 50


class TableNotFound(GameError):
    status = 404


class TooManyCodeGuesses(TableNotFound):
    status = 429

    def __init__(self):
        super().__init__(_("Too many wrong table codes came from your address. "
                           "Please wait a few minutes and try again."))


def free_seat_q():
    return Q(user__isnull=True, guest_token="", is_computer=False)


def seat_is_free(seat):
    return not seat.is_computer and seat.user_id is None and not seat.guest_token


def free_colours(game):
    return [seat.colour for seat in game.seats.all() if seat_is_free(seat)]


# -- finding -------------------------------------------------------------------

def find_table(code):
    """The table with this code (typed with spaces, dashes or lower case, or a pasted link)."""
    normalised = normalise_code(code)
    table = None
    if normalised:
        try:
            table = Table.objects.select_related("game").get(code=normalised)
        except Table.DoesNotExist:
            pass
    if table is None:
        shown = (code or "").strip()[:40]
        if shown:
            raise TableNotFound(_("No table has the code “%(code)s”. Check the code and try again.") % {"code": shown})
        raise TableNotFound(_("Type the code of the table you were invited to."))
    return table


def can_view(table, viewer):
    """Who may open a table page: anyone holding the code while it waits for players;
    once it plays, its players, and everyone if the table is public (games.access)."""
    return table.game.status == Game.Status.WAITING or can_watch(table.game, viewer)


# -- opening -------------------------------------------------------------------

def open_table(host, variant, *, level=Level.NORMAL, is_public=False, host_colour=None, computer_colours=(),
               rated=False):
    """A new table hosted by `host` (a signed-in user) who sits at `host_colour`
    (default: the first colour); `computer_colours` go to the computer. A rated
    table seats only accounts and no computer (accounts.ratings)."""
    colours = variant.colours
    host_colour = host_colour or colours[0]
    computer_colours = set(computer_colours)
    if host_colour not in colours:
        raise GameError(_("A %(n)d-player table has no %(colour)s seat.")
                        % {"n": variant.players, "colour": colour_name(host_colour)})
    for colour in computer_colours:
        if colour not in colours:
            raise GameError(_("A %(n)d-player table has no %(colour)s seat.")
                            % {"n": variant.players, "colour": colour_name(colour)})
    if host_colour in computer_colours:
        raise GameError(_("Your own seat cannot go to the computer."))
    if rated and computer_colours:
        raise GameError(_("A rated table is for people only: give no seat to the computer."))
    with transaction.atomic():
        game = game_services.create_table_game(variant, level=level, is_public=is_public, rated=rated, host=host,
                                               host_colour=host_colour, computer_colours=computer_colours)
        table = Table.objects.create(host=host, is_public=is_public, level=level, game=game)
        if len(computer_colours) == len(colours) - 1:  # nobody else to wait for
            game_services.start_game(game)
        transaction.on_commit(lambda: table_changed(table.pk, lobby=is_public))
    return table


# -- joining -------------------------------------------------------------------

def clean_guest_name(name):
    try:
        name = clean_name(name)
    except ValidationError as error:
        raise GameError(error.messages[0]) from None
    if not name:
        raise GameError(_("Type the name the other players will see."))
    if len(name) > GUEST_NAME_MAX:
        raise GameError(_("A name has at most %(n)d characters.") % {"n": GUEST_NAME_MAX})
    return name


def join(table, viewer, colour=None, guest_name=""):
    """Seat `viewer` at `table`: at `colour`, or at the first free seat.

    A signed-in viewer sits as their account; anyone else as a guest under
    `guest_name`, owning the seat through their session. When this fills the last
    seat, the game starts. Returns the colour taken.
    """
    if viewer.user is None:
        if table.game.rated:
            raise GameError(_("This table is rated: sign in or sign up to take a seat."))
        if not viewer.guest_token:
            raise GameError(_("Your browser must accept cookies to take a seat."))
        guest_name = clean_guest_name(guest_name)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=table.game_id)
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
            game_services.start_game(game)
        transaction.on_commit(lambda: table_changed(table.pk, lobby=table.is_public))
    return seat.colour


# -- leaving -------------------------------------------------------------------

def leave(table, viewer):
    """Before the start: give the seat back (a table nobody sits at any more closes).
    During the game: leave and lose; the computer plays the seat to the end.

    Returns "freed", "closed" or "left".
    """
    game = Game.objects.get(pk=table.game_id)
    if game.status == Game.Status.PLAYING:
        game_services.leave(game, viewer)
        transaction.on_commit(lambda: table_changed(table.pk, lobby=False))
        return "left"
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=table.game_id)
        if game.status != Game.Status.WAITING:
            # Started (or finished) meanwhile: leaving now is a forfeit; let the caller ask again.
            raise GameError(_("The game has started meanwhile. Reload the page to leave it."))
        seats = list(game.seats.select_related("user"))
        seat = viewer.seat_among(seats)
        if seat is None:
            raise NotYourTurn(_("You have no seat at this table."))
        Seat.objects.filter(pk=seat.pk).update(user=None, guest_token="", guest_name="")
        others = [s for s in seats if s.pk != seat.pk and not s.is_computer and not seat_is_free(s)]
        if not others:
            table_id, public = table.pk, table.is_public
            game.delete()  # the table and its seats go with it
            transaction.on_commit(lambda: table_closed(table_id, lobby=public))
            return "closed"
        if seat.user_id is not None and seat.user_id == table.host_id:
            new_host = next((s.user for s in others if s.user_id), None)
            if new_host is not None:
                Table.objects.filter(pk=table.pk).update(host=new_host)
        transaction.on_commit(lambda: table_changed(table.pk, lobby=table.is_public))
    return "freed"


# -- telling pages --------------------------------------------------------------

def group_send(group, message):
    broadcast.group_send(group, message)  # completes even if the request is cancelled meanwhile


def table_changed(table_id, lobby=True):
    """After commit: every page showing the table re-renders its seats; the lobby too."""
    try:
        group_send(f"table-{table_id}", {"type": "table.changed"})
        if lobby:
            broadcast_lobby()
    except Exception:  # a page misses an update; it catches up on reconnect
        log.exception("could not tell the pages of table %s", table_id)


def table_closed(table_id, lobby=True):
    try:
        group_send(f"table-{table_id}", {"type": "table.closed"})
        if lobby:
            broadcast_lobby()
    except Exception:
        log.exception("could not tell the pages of table %s", table_id)


def on_state_pushed(sender, game, **kwargs):
    """games.signals.state_pushed: a table's game finished; its pages and the lobby follow."""
    if game.kind != Game.Kind.TABLE or game.status != Game.Status.FINISHED:
        return
    for table in Table.objects.filter(game=game):
        table_changed(table.pk, lobby=table.is_public)


# -- what pages show -------------------------------------------------------------

def lobby_tables():
    """Open public tables (waiting for players) and public tables playing now."""
    seats = Prefetch("game__seats", queryset=Seat.objects.select_related("user__profile"))
    public = (Table.objects.filter(is_public=True).select_related("game", "host__profile")
              .prefetch_related(seats).order_by("-created_at"))
    waiting = public.filter(game__status=Game.Status.WAITING, created_at__gte=timezone.now() - LOBBY_WAITING_FOR)
    waiting = waiting.exclude(pk__in=presence.abandoned(waiting))[:LOBBY_ROWS]
    playing = public.filter(game__status=Game.Status.PLAYING)[:LOBBY_ROWS]

    tables = list(waiting) + list(playing)
    ratings = lobby_ratings(tables)

    def row(table):
        seats = list(table.game.seats.all())
        category = category_of(table.game.variant)
        return {
            "rated": table.game.rated, "category": category,
            "people": [{"name": s.display_name, "username": s.user.get_username() if s.user_id else "",
                        "rating": ratings.get((s.user_id, category))}
                       for s in seats if not seat_is_free(s) and not s.is_computer],
            "table": table,
            "code": table.code,
            "variant": variant_label(table.game.variant),
            "host": table.host.display_name,
            "taken": sum(1 for s in seats if not seat_is_free(s)),
            "computers": sum(1 for s in seats if s.is_computer),
            "total": len(seats),
            "players": [s.display_name for s in seats if not seat_is_free(s)],
            "level": table.game.get_level_display(),
            "ply": table.game.ply,
        }

    return {"open_tables": [row(t) for t in tables if t.game.status == Game.Status.WAITING],
            "playing_tables": [row(t) for t in tables if t.game.status == Game.Status.PLAYING]}


def lobby_ratings(tables):
    """Every seated account's rating in its table's category, in one query."""
    return ratings_by_user_and_category(
        (seat.user_id, category_of(table.game.variant)) for table in tables for seat in table.game.seats.all())


def render_lobby():
    return render_to_string("lobby/includes/tables.html", lobby_tables())


def render_lobby_in_every_language():
    rendered = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            rendered[code] = render_lobby()
    return rendered


def broadcast_lobby():
    # Stamped before reading: a page drops a list rendered earlier than the one it shows.
    stamp = time.time()
    group_send(LOBBY_GROUP, {"type": "lobby.tables", "html": render_lobby_in_every_language(), "stamp": stamp})


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
    from lobby import rematch  # it builds on this module

    return {
        "rematch": rematch.offer(table, game, seats, mine),
        "table": table, "game": game, "seats": rows, "my_seat": mine,
        "status": game.status,
        "free_count": sum(1 for r in rows if r["kind"] == "free"),
        "can_sit": waiting and mine is None and viewer.user is not None,
        "can_give_up_seat": waiting and mine is not None,
        "can_leave": game.status == Game.Status.PLAYING and mine is not None and mine.left_at is None,
        "has_left": mine is not None and mine.left_at is not None,
    }


def _add_ratings(game, seats, rows):
    """Each account's rating in the game's category; after a rated game, its change too."""
    found = seat_ratings(game, seats)
    for row in rows:
        row["rating"] = found.get(row["colour"]) if row["kind"] in ("player", "left") else None


def render_seats(table, viewer, request=None):
    return render_to_string("lobby/includes/seats.html", seats_view(table, viewer), request=request)
