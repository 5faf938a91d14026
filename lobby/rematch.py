"""A rematch at a table whose game ended.

Every person still seated (not a leaver) is offered it; it starts when all of them
accepted (computer seats accept by themselves). The new game is a NEW Game at the same
table (same code and link; the finished one stays reviewable): the same variant and
options with blocked squares drawn again, and the colours rotated so that whoever moved
first moves last. A leaver's seat is free in it, so the table waits for someone to take
it; the offer says who plays which colour, and none is made when everybody else left.
Anyone declining, or leaving, ends the offer for all.

Every change happens under a lock on the table row (lobby.actions.locked_table: that
module writes every Table) and then on the finished game
(games.seating.finished_game_locked; SQLite's IMMEDIATE transactions serialise writers
anyway) and names the game it answers, so two people accepting at once, or one
pressing twice, start one game. The new game and its seats are made by games.seating.
"""
from django.db import transaction
from django.utils.translation import gettext as _

from games import Variant, seating
from games.models import Game
from games.presentation import colour_name
from games.errors import GameError, NotYourTurn
from lobby import actions
from lobby.models import Rematch
from lobby.signals import rematch_asked


def _locked(table, game_id):
    """(table, finished game) locked, or a GameError when `game_id` is not the table's
    finished game. Returns (table, None) when that game's rematch already started."""
    table = actions.locked_table(table)
    if str(table.game.public_id) != str(game_id):
        started = Rematch.objects.filter(table=table, game__public_id=game_id, status=Rematch.Status.STARTED)
        if started.exists():
            return table, None
        raise GameError(_("This table has moved on to another game. Reload the page."))
    return table, seating.finished_game_locked(table.game_id)


def people_still_seated(seats):
    return [seat for seat in seats if not seat.is_computer and seat.left_at is None
            and (seat.user_id or seat.guest_token)]


def nobody_else_left(seats):
    """Every other person left during the game: a rematch would be a new table waiting
    for players, so none is offered (a table against the computer alone still is)."""
    return len(people_still_seated(seats)) < 2 and any(seat.left_at is not None for seat in seats)


def lineup(game, seats):
    """Who plays which colour in the rematch, in turn order; a leaver's seat is open ("")."""
    colours = Variant.from_dict(game.variant).colours
    by_colour = {seat.colour: seat for seat in seats}
    new_colours = {seating.rotated(colours, index): by_colour[colour] for index, colour in enumerate(colours)}
    return [{"colour": colour, "colour_name": colour_name(colour),
             "name": "" if new_colours[colour].left_at is not None else str(new_colours[colour].display_name)}
            for colour in colours]


def accept(table, viewer, game_id):
    """The viewer accepts a rematch of `game_id`. Returns the new game once it started
    (also for a repeated press after the start), else None. The caller pushes the
    table (lobby.broadcast.table_changed), which draws this module's offer; the first
    acceptance also sends lobby.signals.rematch_asked after the commit."""
    with transaction.atomic():
        table, game = _locked(table, game_id)
        if game is None:
            return Rematch.objects.get(table=table, game__public_id=game_id).new_game
        seats = list(game.seats.select_related("user"))
        seat = next((s for s in people_still_seated(seats) if s.belongs_to(viewer)), None)
        if seat is None:
            raise NotYourTurn(_("Only the players still at the table can accept a rematch."))
        if nobody_else_left(seats):
            raise GameError(_("Nobody else is left at this table for a rematch."))
        rematch, _created = Rematch.objects.get_or_create(game=game, defaults={"table": table})
        if rematch.status == Rematch.Status.DECLINED:
            raise GameError(_("The rematch was declined."))
        first = not rematch.accepted
        rematch.accepted = sorted(set(rematch.accepted) | {seat.colour})
        new_game = None
        if {s.colour for s in people_still_seated(seats)} <= set(rematch.accepted):
            new_game = _start_rematch(table, game, seats)
            rematch.status, rematch.new_game = Rematch.Status.STARTED, new_game
        rematch.save()
        if first and new_game is None:
            others = [s.user_id for s in people_still_seated(seats) if s.user_id and s.colour != seat.colour]
            transaction.on_commit(lambda: rematch_asked.send(
                sender=Rematch, table=table, game=game, asked_by=seat.user_id, others=others))
    return new_game


def decline(table, viewer, game_id):
    """The viewer declines (or leaves): the offer ends for everyone. Nothing happens
    once the rematch started (leaving it is leaving the new game)."""
    with transaction.atomic():
        table, game = _locked(table, game_id)
        if game is None:
            raise GameError(_("The rematch has already started."))
        seat = next((s for s in people_still_seated(game.seats.select_related("user")) if s.belongs_to(viewer)), None)
        if seat is None:
            raise NotYourTurn(_("Only the players still at the table can decline a rematch."))
        rematch, _created = Rematch.objects.get_or_create(game=game, defaults={"table": table})
        if rematch.status == Rematch.Status.OPEN:
            rematch.status, rematch.declined_by = Rematch.Status.DECLINED, str(seat.display_name)[:40]
            rematch.save()


def _start_rematch(table, game, seats):
    # The table's flag, not the finished game's: a player sharing that game for review
    # must not make a private table's next game watchable.
    new = seating.rematch_game(game, seats, is_public=table.listed)
    actions.move_on(table, new)
    return new


def offer(table, game, seats, mine):
    """What the seats panel shows of the rematch, for the viewer seated at `mine`."""
    if game.status != Game.Status.FINISHED or game.is_abandoned:
        return None
    rematch = Rematch.objects.filter(game=game).first()
    status = rematch.status if rematch else Rematch.Status.OPEN
    accepted = set(rematch.accepted) if rematch else set()
    asked = people_still_seated(seats)
    still_seated = mine is not None and mine in asked
    if nobody_else_left(seats):
        return {"status": "alone", "can_leave": still_seated}
    playing = lineup(game, seats)
    return {
        "lineup": playing, "open_seat": any(not seat["name"] for seat in playing),
        "status": status,
        "game_id": game.public_id,
        "declined_by": rematch.declined_by if rematch else "",
        "accepted": [str(s.display_name) for s in asked if s.colour in accepted],
        "waiting_for": [str(s.display_name) for s in asked if s.colour not in accepted],
        "can_accept": still_seated and status == Rematch.Status.OPEN and mine.colour not in accepted,
        "has_accepted": still_seated and mine.colour in accepted,
        "can_decline": still_seated and status == Rematch.Status.OPEN,
        "can_leave": still_seated,
    }
