"""New games: their Game, Seat and Move rows inserted, the one writing of those rows
besides games.writer. Nothing else can see rows not yet committed, so no lock is
taken; every change after this is a command applied by games.writer (a table's
start included)."""
import dataclasses
import hashlib
import json
import random

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import Board, Variant, draw_blocked, publishing, writer
from games.errors import ComputerBusy, GameError
from games.models import Game, HandicapSide, Level, Move, Seat, new_public_id
from games.turn import commands


def build_variant(*, board="8x8", players=2, anti=False, free_opening=False, blocked=0,
                  handicap=0, handicap_colour="white", rng=None):
    """A Variant from form values, with `blocked` a count (drawn now) or squares.

    Raises InvalidVariantError naming the broken rule.
    """
    fields = dict(board=board, players=players, anti=anti, free_opening=free_opening,
                  handicap=handicap, handicap_colour=handicap_colour)
    Variant(**fields)  # the options themselves first, so their error is the one shown
    if isinstance(blocked, int):
        squares = draw_blocked(board, blocked, rng or random.SystemRandom(), avoid_corners=handicap > 0) if blocked else ()
    else:
        squares = tuple(blocked)
    return Variant(**fields, blocked=squares)


def create_computer_game(viewer, variant, level=Level.NORMAL, rng=None, *, colour=None,
                         handicap_side=HandicapSide.ME, asker=None):
    """A game against the computer; the visitor plays `colour`, or one drawn at random.
    A corner handicap goes to `handicap_side` (docs/rules.md §7), whichever colour that
    side plays: the variant's own handicap colour is replaced. When the computer
    opens, `asker` (a games.thinking.Asker) takes its place first: ComputerBusy, and
    no game, past the limit."""
    rng = rng or random.SystemRandom()
    colours = variant.colours
    human = colour if colour in colours else rng.choice(colours)
    if variant.handicap:
        receiver = human if handicap_side == HandicapSide.ME else next(c for c in colours if c != human)
        variant = dataclasses.replace(variant, handicap_colour=receiver)
    public_id = new_public_id()
    taken = asker is not None and human != Board(variant).turn
    if taken and asker.take(public_id) is None:
        raise ComputerBusy()
    try:
        with transaction.atomic():
            game = Game.objects.create(
                public_id=public_id, kind=Game.Kind.COMPUTER, variant=variant.to_dict(), level=level,
                status=Game.Status.PLAYING, turn=Board(variant).turn,
            )
            Seat.objects.bulk_create(
                Seat(game=game, colour=colour, is_computer=colour != human,
                     user=viewer.user if colour == human else None,
                     guest_token=viewer.guest_token if colour == human else "")
                for colour in colours
            )
            transaction.on_commit(lambda: publishing.game_changed(game.pk))
    except Exception:  # no game (the database was busy): the computer's place is given back
        if taken:
            publishing.give_back(public_id)
        raise
    return game


def create_table_game(variant, *, level, is_public, host, host_colour, computer_colours, rated=False,
                      time_control=None):
    """The waiting game of a new table: `host` at `host_colour`, the computer at
    `computer_colours`, every other seat free (inside the caller's transaction)."""
    return create_waiting_game(variant, level=level, is_public=is_public, rated=rated, time_control=time_control,
                               seats=[{"colour": colour, "user": host if colour == host_colour else None,
                                       "is_computer": colour in computer_colours} for colour in variant.colours])


def create_waiting_game(variant, *, level, is_public, rated, seats, time_control=None):
    """A table's game waiting for its players, with `seats` (Seat fields, one dict per
    colour in turn order; inside the caller's transaction). A new table's first game
    and a rematch both start here. `time_control`: (Game.TimeControl, total seconds,
    increment seconds); default 60 s a move."""
    control, total, increment = time_control or (Game.TimeControl.MOVE, 0, 0)
    game = Game.objects.create(kind=Game.Kind.TABLE, variant=variant.to_dict(), level=level,
                               status=Game.Status.WAITING, turn="", is_public=is_public, rated=rated,
                               time_control=control, time_total=total, time_increment=increment)
    Seat.objects.bulk_create(Seat(game=game, **fields) for fields in seats)
    return game


def rotated(colours, index):
    """The colour of seat `index` in the rematch: one step back in the turn order, so
    the first player moves last."""
    return colours[(index - 1) % len(colours)]


def rematch_game(game, seats, *, is_public):
    """The new game of a rematch of the finished `game` (its `seats` read under its
    lock, games.writer.finished_game_locked): the same variant and options with
    blocked squares drawn again, the colours rotated, a leaver's seat free. It starts
    at once (games.writer: Start) when nobody is missing. Inside the caller's transaction.
    """
    old = Variant.from_dict(game.variant)
    variant = build_variant(
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
    new = create_waiting_game(variant, level=game.level, is_public=is_public, rated=game.rated, seats=new_seats,
                              time_control=(game.time_control, game.time_total, game.time_increment))
    if all(seat["is_computer"] or seat["user"] or seat["guest_token"] for seat in new_seats):
        new = writer.apply(new, commands.Start())
    return new


def store_import(viewer, variant, moves, names, computers=()):
    """A finished game from a record, stored for `viewer` (its owner, games.access) so
    it can be analysed like any other: once per importer and record, however often
    or however fast it is asked for. Returns the game; GameError if it is not over.
    `names` ({colour: name}, already cleaned) become the seats' names; the colours in
    `computers` were the computer's, and so are their moves."""
    board = Board(variant)
    for square in moves:
        board.push(square)
    outcome = board.outcome()
    if outcome is None:
        raise GameError(_("Only a finished game can be analysed."))
    owner = f"user:{viewer.user.pk}" if viewer.user is not None else f"guest:{viewer.guest_token}"
    record = json.dumps([owner, variant.to_dict(), list(board.history), names, sorted(computers)], sort_keys=True)
    key = hashlib.sha256(record.encode()).hexdigest()
    stored = Game.objects.filter(import_key=key).first()
    if stored is not None:
        return stored
    try:
        with transaction.atomic():
            game = Game.objects.create(
                kind=Game.Kind.IMPORTED, variant=variant.to_dict(), status=Game.Status.FINISHED, ply=board.ply,
                turn="", ending=Game.Ending.NORMAL, winner=outcome.winner or "", counts=outcome.counts,
                score=outcome.score, finished_at=timezone.now(), owner=viewer.user,
                owner_token="" if viewer.user is not None else viewer.guest_token, import_key=key)
            Seat.objects.bulk_create(Seat(game=game, colour=colour, guest_name=names.get(colour, ""),
                                          is_computer=colour in computers) for colour in variant.colours)
            replay = Board(variant)
            rows = []
            for ply, square in enumerate(board.history, 1):
                colour = replay.turn
                replay.push(square)
                made_by = (Move.MadeBy.AUTO if square == "pass" else Move.MadeBy.COMPUTER if colour in computers
                           else Move.MadeBy.PLAYER)
                rows.append(Move(game=game, ply=ply, colour=colour, square=square, flips=replay.last_flips,
                                 made_by=made_by))
            Move.objects.bulk_create(rows)
    except IntegrityError:  # the same import, stored a moment ago by a racing request
        return Game.objects.get(import_key=key)
    return game
