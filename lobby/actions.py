"""Opening, joining, taking a seat as a guest and leaving tables: the only code that
writes Table rows.

A table's game is a games.models.Game (kind TABLE) with one Seat per colour: seat i
is colour i of the variant (Black, White, Red, Green: the turn order). The game
waits (status WAITING) until every seat is taken (a user, a guest or the
computer), and the seat that fills it starts it (games.writer): the first colour is to
move, and the game service takes over (deadlines, computer moves, time-outs, the result).

This module checks who may ask (accounts, guests' names, the host); the seats
themselves are taken and given back by games.seating, under a lock on the game
row, so two people taking the last seats at once start the game exactly once, and
a seat goes to exactly one of two people who click it together. After commit,
every page showing the table and (for listed tables) the lobby are told
(lobby.broadcast).
"""
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.forms import clean_name
from accounts.lookalikes import LOOKS_LIKE_SOMEONE_ELSE, looks_like_someone_else
from games import seating
from games import creation, services as game_services
from games.models import Game, Level
from games.presentation import colour_name
from games.errors import GameError
from lobby.broadcast import table_changed, table_closed
from lobby.listing import LOBBY_WAITING_FOR
from lobby.models import Table

GUEST_NAME_MAX = 40


# -- the table's row -------------------------------------------------------------

def locked_table(table):
    """`table` read again under a lock on its row (select_for_update), held to the end
    of the caller's transaction: a rematch's answers (lobby.rematch) one at a time."""
    return Table.objects.select_for_update().get(pk=table.pk)


def move_on(table, game):
    """The table plays `game` now (a rematch's new game; the finished one stays reviewable)."""
    Table.objects.filter(pk=table.pk).update(game=game)


# -- opening -------------------------------------------------------------------

def open_table(host, variant, *, level=Level.NORMAL, listed=False, host_colour=None, computer_colours=(),
               rated=False, time_control=None, players_chat=True, waits=True):
    """A new table hosted by `host` (a signed-in user) who sits at `host_colour`
    (default: the first colour); `computer_colours` go to the computer. A rated
    table seats only accounts and no computer (accounts.ratings). `time_control`:
    (Game.TimeControl, total seconds, increment seconds), default 60 s a move.
    `players_chat=False` (rated tables only) opens it with chat off for both players.
    A table that waits for players counts against its host's limit (waiting_limit);
    `waits=False` for one whose players are seated in the same transaction."""
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
    if not players_chat and not rated:
        raise GameError(_("Only a rated table can be opened with chat off."))
    with transaction.atomic():
        if waits and len(computer_colours) < len(colours) - 1:
            waiting_limit(host)
        # A listed table's game may be watched by anyone (games.access.can_watch).
        game = creation.create_table_game(variant, level=level, is_public=listed, rated=rated, host=host,
                                               host_colour=host_colour, computer_colours=computer_colours,
                                               time_control=time_control)
        table = Table.objects.create(host=host, listed=listed, game=game, players_chat=players_chat)
        if len(computer_colours) == len(colours) - 1:  # nobody else to wait for
            game_services.start_game(game)
        transaction.on_commit(lambda: table_changed(table.pk, lobby=listed))
    return table


def waiting_limit(host):
    """Refuse a table past the tables `host` may have waiting for players at once. The
    host's row is locked first, so two opened at the same moment count each other (on
    SQLite the IMMEDIATE transaction does it). A table left waiting longer than the
    lobby lists one (LOBBY_WAITING_FOR) no longer counts: a forgotten private table
    does not keep its host from playing."""
    get_user_model().objects.select_for_update().only("pk").get(pk=host.pk)
    limit = settings.WAITING_TABLES_PER_PERSON
    if Table.objects.filter(host=host, game__status=Game.Status.WAITING,
                            created_at__gte=timezone.now() - LOBBY_WAITING_FOR).count() >= limit:
        raise GameError(ngettext(
            "You have %(n)d table waiting for players already: wait until it starts, or close it, "
            "before you open another.",
            "You have %(n)d tables waiting for players already: wait until one starts, or close one, "
            "before you open another.", limit) % {"n": limit})


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
    if looks_like_someone_else(name):
        raise GameError(str(LOOKS_LIKE_SOMEONE_ELSE))
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
        colour = seating.take_seat(table.game_id, viewer, colour, guest_name)
        transaction.on_commit(lambda: table_changed(table.pk, lobby=table.listed))
    return colour


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
        seat, others = seating.give_seat_back(table.game_id, viewer)
        if not others:  # the game is gone, and the table and its seats with it
            table_id, listed = table.pk, table.listed
            transaction.on_commit(lambda: table_closed(table_id, lobby=listed))
            return "closed"
        if seat.user_id is not None and seat.user_id == table.host_id:
            new_host = next((s.user for s in others if s.user_id), None)
            if new_host is not None:
                Table.objects.filter(pk=table.pk).update(host=new_host)
        transaction.on_commit(lambda: table_changed(table.pk, lobby=table.listed))
    return "freed"
