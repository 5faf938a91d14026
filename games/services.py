"""With games.seating (the seats of tables) and games.endings (a game ended before the
board is: resigned...), the only code that changes a stored game:
its Game, Seat and Move rows and their locks (tests/site/test_game_writers.py checks
that lobby, accounts and config only read them).

Humans (over HTTP), computer moves and time-outs (Celery tasks) all go through
`play_move`, so a move is validated, recorded and announced one way. A move is
applied exactly once: a conditional update on the expected ply (0 rows: stale or
repeated) inside the transaction that writes the move, with a unique (game, ply)
underneath. After commit whatever comes next (a computer move, a time-out) is
scheduled and the new state is pushed to every page showing the game.
"""
import dataclasses
import hashlib
import json
import logging
import random

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.write_waits import WritesBusy
from games import (
    Board, IllegalMoveError, Variant, broadcast, deadlines, downtime, draw_blocked, scheduling, signals, thinking,
    turn_mail,
)
from games.ai import choose_move
from games.models import Game, HandicapSide, Level, Move, Seat, new_public_id
from games.record import GameRecord, last_own_move, undo_refusal
from games.turn import ranking
from infra.outages import UNREACHABLE

log = logging.getLogger(__name__)


class GameError(Exception):
    """A request the game refuses; the message is for the player. Nothing changed."""

    status = 400


class StaleMove(GameError):
    """The game moved on (another tab, a double click, a retried request)."""

    status = 409


class NotYourTurn(GameError):
    status = 403


class NotAPlayer(GameError):
    status = 403


class ComputerBusy(GameError):
    """The visitor (or their address) has as many computer games thinking as allowed (games.thinking)."""

    status = 429

    def __init__(self):
        super().__init__(_("The computer is still thinking on your other games; try again once it has answered."))


class DatabaseBusy(GameError):
    """A person's move could not get the database in time (another writer holds its lock):
    nothing changed, and the page sends the move again shortly (static/js/moves.js)."""

    status = 503

    def __init__(self):
        super().__init__(_("The site is busy; your move is sent again in a moment."))


class OutOfTime(GameError):
    """The player's move came after their deadline (and its grace): a worker makes their time-out."""

    status = 409

    def __init__(self, message, deadline):
        super().__init__(message)
        self.deadline = deadline


# -- a guest signing up or in ------------------------------------------------

def claim_guest_seats(user, guest_token):
    """The seats a guest took in this session become the user's for good, so their
    games outlive the session (a sign-out ends it).

    A game where the user already has a seat keeps the guest seat as it is: one
    person plays one seat per game (games.seating.take_seat refuses a second), and the
    game stays the user's through the seat they have. The games the guest imported
    to analyse (store_import) become the user's too."""
    if not guest_token or user is None:
        return 0
    Game.objects.filter(owner_token=guest_token, owner__isnull=True).update(owner=user, owner_token="")
    seats = Seat.objects.filter(guest_token=guest_token, user__isnull=True, is_computer=False)
    return seats.exclude(game__seats__user=user).update(user=user, guest_token="")


# -- creating games ----------------------------------------------------------

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
            transaction.on_commit(lambda: game_changed(game.pk))
    except Exception:  # no game (the database was busy): the computer's place is given back
        if taken:
            _give_back(public_id)
        raise
    return game


# -- moving ------------------------------------------------------------------

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


def start_game(game):
    """A table's every seat is taken: the first colour is to move (inside the caller's
    transaction). After commit the first position is pushed and the first time-out or
    computer move scheduled."""
    board = Board(game.variant_obj)
    game = Game.objects.get(pk=game.pk)
    now = timezone.now()
    started = Game.objects.filter(pk=game.pk, status=Game.Status.WAITING).update(
        status=Game.Status.PLAYING, turn=board.turn, version=F("version") + 1, updated_at=now, turn_started_at=now)
    if started:
        remaining = deadlines.clock_of(game).starting_remaining()
        if remaining is not None:  # every clock starts full
            Seat.objects.filter(game=game).update(remaining=remaining)
        first = Seat.objects.get(game=game, colour=board.turn)
        Game.objects.filter(pk=game.pk).update(deadline=deadlines.deadline_for(game, first, now, first_move=True))
        transaction.on_commit(lambda: game_changed(game.pk))


def play_move(game, square, *, expected_ply, viewer=None, made_by=Move.MadeBy.PLAYER, asker=None):
    """Play `square` for the side to move, exactly once.

    `viewer` is checked to own the seat to move (None for the computer acting for
    a seat). Passes that follow automatically are recorded in the same commit.
    A player who is due (games.deadlines.is_due) is refused at once and their
    time-out queued, through the same claim as the workers' clocks: the web process
    never searches, and the late player sees the computer's move when it is pushed.
    In a game against the computer, `asker` (a games.thinking.Asker) takes the
    computer's place first: past the limit, ComputerBusy and nothing played; a move
    refused for another reason gives back the place it took.
    """
    taken = False
    if asker is not None and game.kind == Game.Kind.COMPUTER:
        taken = asker.take(game.public_id)
        if taken is None:
            raise ComputerBusy()
    try:
        return _play_move(game, square, expected_ply=expected_ply, viewer=viewer, made_by=made_by)
    except OutOfTime as late:
        try:
            deadlines.queue_time_out(game.pk, expected_ply, late.deadline)
        except UNREACHABLE as error:  # the workers' clocks and the sweep queue it once the broker is back
            log.warning("game %s: time-out of ply %s not queued (%s)", game.pk, expected_ply, error)
        raise
    except Exception:
        if taken:
            _give_back(game.public_id)
        raise


def _play_move(game, square, *, expected_ply, viewer, made_by):
    try:
        return _apply_move(game, square, expected_ply=expected_ply, viewer=viewer, made_by=made_by)
    except WritesBusy as busy:  # the web process's bounded wait (infra.write_waits): the page sends it again
        if viewer is None:
            raise
        raise DatabaseBusy() from busy


def _apply_move(game, square, *, expected_ply, viewer, made_by):
    square = str(square).strip().lower()
    # Read before the lock (Redis): the site's outages a person's turn may have
    # overlapped, not charged to them (docs/rules.md §11.3).
    outages = downtime.outages_since(game.turn_started_at) if viewer is not None and game.deadline else []
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        if game.status != Game.Status.PLAYING:
            raise GameError(_("This game is over.") if game.is_over else _("This game has not started yet."))
        if expected_ply != game.ply:
            raise StaleMove(_("The game has moved on; here is the current position."))
        # Read once, under the lock: the record is what gets pushed after commit.
        record = GameRecord(game)
        board = record.board
        seat = game.seat_of(board.turn)
        if viewer is not None and (seat is None or not seat.belongs_to(viewer)):
            raise NotYourTurn(_("It is not your turn."))
        if viewer is not None and seat.played_by_computer:
            raise NotYourTurn(_("The computer plays this seat now."))
        now = timezone.now()
        deadlines.give_back_downtime(game, seat, outages)  # written with the move (the seat: by _charge_clock)
        if viewer is not None and deadlines.is_due(game, now):
            if game.time_control == Game.TimeControl.MOVE:
                raise OutOfTime(_("Your time for this move ran out; the computer moves for you."), game.deadline)
            raise OutOfTime(_("Your time ran out."), game.deadline)
        colour = board.turn
        try:
            board.push(square)
        except IllegalMoveError:
            raise GameError(_("%(square)s is not a legal move.") % {"square": square}) from None
        records = [Move(game=game, ply=game.ply + 1, colour=colour, square=square,
                        flips=board.last_flips, made_by=made_by)]
        while board.legal_moves == ["pass"]:  # a two-player side with no move passes by itself
            records.append(Move(game=game, ply=game.ply + len(records) + 1, colour=board.turn,
                                square="pass", made_by=Move.MadeBy.AUTO))
            board.push("pass")
        charged = _charge_clock(game, seat, now)  # before _state_after: a pass may give the mover the turn again
        changes = {"ply": expected_ply + len(records), "updated_at": now,
                   **_state_after(game, board, now, record.moves + records)}
        if game.draw_offer and game.draw_offer != colour:  # the offerer's opponent moved: it lapses
            changes["draw_offer"] = ""
        if game.takeback_request:  # asked of the position before this move: it lapses
            changes["takeback_request"] = ""
        updated = Game.objects.filter(pk=game.pk, ply=expected_ply, status=Game.Status.PLAYING).update(
            version=F("version") + 1, **changes)
        if updated != 1:
            raise StaleMove(_("The game has moved on; here is the current position."))
        if charged:  # under the lock and after the ply guard: charged once per move
            Seat.objects.filter(pk=seat.pk).update(remaining=seat.remaining)
        Move.objects.bulk_create(records)
        # The row is locked (SQLite: the transaction holds the write lock), so what
        # was written is exactly this: no second read.
        for field, value in changes.items():
            setattr(game, field, value)
        game.version += 1
        record.moves.extend(records)
        if changes.get("status") == Game.Status.FINISHED:
            _announce_finish(game, board.outcome())
        transaction.on_commit(lambda: game_changed(game.pk, record=record))
    return game


def _announce_finish(game, outcome):
    """Inside the finishing transaction: tell the apps above (ratings) how the seats ranked.

    In a savepoint: the finishing move is sent once, so what the receivers write is
    written once too; a receiver that fails loses its own writes and is logged, and
    the game still finishes."""
    try:
        with transaction.atomic():
            signals.game_finished.send(sender=Game, game=game, ranking=ranking_with_forfeits(game, outcome))
    except Exception:
        log.exception("game %s finished, but a game_finished receiver failed", game.public_id)


def finish_early(game, record, outcome, ending, **also):
    """End `game` now, at the position `record` holds, with `outcome` (Board.decided):
    resigned, agreed drawn, claimed (games.endings), lost on time (flag). `also`: more
    Game fields to write. Inside the caller's transaction, under the game row's lock
    (_end_now)."""
    return _end_now(game, record, {"ending": ending, "winner": outcome.winner or "", "counts": outcome.counts,
                                   "score": outcome.score, **also}, outcome)


def abort_game(game, record):
    """End `game` now as aborted: won by nobody, not rated (no game_finished); a player
    aborted it before everyone moved (games.endings) or one did not make their first
    move in time (flag). Inside the caller's transaction, under the game row's lock
    (_end_now)."""
    return _end_now(game, record, {"ending": Game.Ending.ABORTED, "winner": "", "counts": record.board.counts(),
                                   "score": {}})


def _end_now(game, record, result, outcome=None):
    """Finish `game` now with `result` (its ending, winner, counts, score...): the clocks
    stop as they stand, so the pushed state shows them as the game ended; with an
    `outcome`, the apps above are told how the seats ranked. The update is conditional
    on the ply read under the caller's lock, so a move that got in first makes this a
    StaleMove and nothing changes."""
    now = timezone.now()
    stopped = stop_clock(game, now)
    changes = {"status": Game.Status.FINISHED, "turn": "", "deadline": None, "draw_offer": "",
               "finished_at": now, "updated_at": now, **result}
    if Game.objects.filter(pk=game.pk, ply=game.ply, status=Game.Status.PLAYING).update(
            version=F("version") + 1, **changes) != 1:
        raise StaleMove(_("The game has moved on; here is the current position."))
    if stopped is not None:
        Seat.objects.filter(pk=stopped.pk).update(remaining=stopped.remaining)
    for field, value in changes.items():
        setattr(game, field, value)
    game.version += 1
    if outcome is not None:
        _announce_finish(game, outcome)
    transaction.on_commit(lambda: game_changed(game.pk, schedule=False, record=record))
    return game


def ranking_with_forfeits(game, outcome):
    """outcome.ranking with the leavers put last (games.turn.ranking)."""
    return ranking.ranking_with_forfeits(game.forfeited, outcome)


def _charge_clock(game, seat, now, increment=True):
    """On a clock, a person's move: charged to their clock (Clock.charge; without the
    increment, Clock.stop). Changes `seat` in memory; whether it did (the caller saves it)."""
    if game.time_control != Game.TimeControl.CLOCK or seat is None or seat.played_by_computer:
        return False
    clock = deadlines.clock_of(game)
    charge = clock.charge if increment else clock.stop
    seat.remaining = charge(seat.remaining, seat.lag, game.turn_started_at, now)
    return True


def stop_clock(game, now):
    """The turn of the player to move ends without a move of theirs (a takeback, the
    game ending early): the time their clock ran stays spent, with no increment
    (docs/rules.md §11.3). Changes their seat in memory; the seat to save, or None (the
    caller saves it after its guard)."""
    seat = game.seat_of(game.turn) if game.turn else None
    return seat if _charge_clock(game, seat, now, increment=False) else None


def _state_after(game, board, now, moves):
    """The Game fields that follow from the position `board` reached with `moves`."""
    outcome = board.outcome()
    if outcome is None:
        first_move = last_own_move(moves, board.turn) is None
        return {"turn": board.turn, "turn_started_at": now,
                "deadline": deadlines.deadline_for(game, game.seat_of(board.turn), now, first_move=first_move)}
    return {
        "turn": "", "deadline": None, "status": Game.Status.FINISHED,
        "ending": Game.Ending.FORFEIT if game.forfeited else Game.Ending.NORMAL,
        "winner": _winner_with_forfeits(game, outcome) or "",
        "counts": outcome.counts, "score": outcome.score, "finished_at": timezone.now(),
    }


def _winner_with_forfeits(game, outcome):
    """Who wins once leavers rank last (games.turn.ranking)."""
    return ranking.winner_with_forfeits(game.forfeited, outcome)


def undo(game, viewer, *, expected_ply):
    """Take back the viewer's last move and every computer answer after it."""
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        if game.kind != Game.Kind.COMPUTER:
            raise GameError(undo_refusal(game, None, ()))
        if expected_ply != game.ply:
            raise StaleMove(_("The game has moved on; here is the current position."))
        seat = viewer.seat_in(game)
        if seat is None:
            raise NotYourTurn(undo_refusal(game, None, ()))
        moves = GameRecord(game).moves
        refusal = undo_refusal(game, seat, moves)
        if refusal:
            raise GameError(refusal)
        keep = last_own_move(moves, seat.colour).ply - 1
        updated = Game.objects.filter(pk=game.pk, ply=expected_ply).update(
            ply=keep, turn=seat.colour, status=Game.Status.PLAYING, deadline=None,
            ending=Game.Ending.NONE, winner="", counts={}, score={}, finished_at=None,
            is_public=False,  # a shared game reopened is private again: sharing is for finished games
            version=F("version") + 1, updated_at=timezone.now())
        if updated != 1:
            raise StaleMove(_("The game has moved on; here is the current position."))
        game.moves.filter(ply__gt=keep).delete()
        transaction.on_commit(lambda: game_changed(game.pk))
    game.refresh_from_db()
    return game


def abandon(game, viewer):
    """The player leaves their computer game for a new one (New Game): it ends as
    abandoned, won by nobody. Nothing happens to a game that is over or not theirs."""
    if game.kind != Game.Kind.COMPUTER or viewer.seat_in(game) is None:
        return game
    updated = Game.objects.filter(pk=game.pk, status=Game.Status.PLAYING).update(
        status=Game.Status.FINISHED, ending=Game.Ending.ABANDONED, turn="", deadline=None, winner="",
        counts=game.board().counts(), score={}, finished_at=timezone.now(),
        version=F("version") + 1, updated_at=timezone.now())
    if updated:
        transaction.on_commit(lambda: game_changed(game.pk, schedule=False))
        game.refresh_from_db()
    return game


def set_level(game, viewer, level):
    """The computer's level for its next move (against the computer: the visitor's menu)."""
    if level not in Level.values:
        raise GameError(_("Choose Easy, Normal or Hard."))
    if game.kind != Game.Kind.COMPUTER or viewer.seat_in(game) is None:
        raise NotYourTurn(_("Only the player can change the computer's level."))
    Game.objects.filter(pk=game.pk).update(level=level, version=F("version") + 1)
    game.refresh_from_db()
    transaction.on_commit(lambda: game_changed(game.pk, schedule=False))
    return game


def leave(game, viewer):
    """The viewer leaves a running game: they lose (docs/rules.md §11), and from now on the
    computer plays their seat to the end. In a 3-4 player game the others play on
    and the leaver ranks last (_winner_with_forfeits). Leaving is final.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        if game.status != Game.Status.PLAYING:
            raise GameError(_("This game is over.") if game.is_over else _("This game has not started yet."))
        seat = viewer.seat_in(game)
        if seat is None:
            raise NotYourTurn(_("You have no seat in this game."))
        if seat.left_at is not None:
            raise GameError(_("You have already left this game."))
        forfeit_seat(game, seat)
    game.refresh_from_db()
    return game


def forfeit_seat(game, seat, **also):
    """The player at `seat` is out for good (they left, ran out of time in a game of
    three or four, or were gone and their opponent let the computer play for them:
    games.endings): they lose, ranked last, and the computer plays their seat to the
    end. `also`: more Game fields to write. Inside the caller's transaction, under the
    game row's lock."""
    now = timezone.now()
    Seat.objects.filter(pk=seat.pk, left_at__isnull=True).update(left_at=now)
    their_turn = game.turn == seat.colour
    changes = {"forfeited": [*game.forfeited, seat.colour], "version": F("version") + 1, "updated_at": now, **also}
    if their_turn:
        changes["deadline"] = None  # no time-out: the computer moves for them now
    Game.objects.filter(pk=game.pk, status=Game.Status.PLAYING).update(**changes)
    # Schedule only when the leaver is to move (the computer takes over now);
    # otherwise the running time-out of whoever is to move stays as it is.
    transaction.on_commit(lambda: game_changed(game.pk, schedule=their_turn))


def record_lag(game, viewer, round_trip):
    """The round trip just measured on a player's game socket (games.consumers): their
    lag credit on a clock from their next turn on (games.turn.clock.Clock.lag_credit)."""
    seat = viewer.seat_in(game)
    if seat is not None and game.time_control == Game.TimeControl.CLOCK:
        Seat.objects.filter(pk=seat.pk).update(lag=round(max(0.0, round_trip), 3))


def board_shown(game, seat, now=None):
    """A page of the player at `seat` shows the running game for the first time (its
    game socket opened: games.consumers). On a clock, when that player is to make their
    first move, its time starts now rather than when the game started (docs/rules.md
    §11.3), once, and only while it has not run out: one whose page never shows the
    game is still aborted at the deadline set when their turn began. In daphne it waits
    for the database's lock as briefly as every write there (infra.write_waits)."""
    if game.time_control != Game.TimeControl.CLOCK:
        return game
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        if Seat.objects.filter(pk=seat.pk, board_shown_at__isnull=True).update(board_shown_at=now) != 1:
            return game  # shown before: the first move's time started then, or at the turn
        if game.status != Game.Status.PLAYING or game.turn != seat.colour or deadlines.is_due(game, now):
            return game
        record = GameRecord(game)
        seat = game.seat_of(game.turn)
        if seat.played_by_computer or last_own_move(record.moves, seat.colour) is not None:
            return game
        changes = {"turn_started_at": now, "deadline": deadlines.deadline_for(game, seat, now, first_move=True),
                   "updated_at": now}
        if Game.objects.filter(pk=game.pk, ply=game.ply, status=Game.Status.PLAYING).update(
                version=F("version") + 1, **changes) == 1:
            for field, value in changes.items():
                setattr(game, field, value)
            game.version += 1
            transaction.on_commit(lambda: game_changed(game.pk, schedule=False, record=record))
    return game


def computer_move(game_id, ply):
    """Move for the seat to move if the computer plays it (a Celery task calls this).

    Does nothing when the game moved on from `ply` or a human is to move.
    """
    game = Game.objects.filter(pk=game_id, ply=ply, status=Game.Status.PLAYING).prefetch_related("seats").first()
    if game is None:
        return None
    board = game.board()
    seat = game.seat_of(board.turn)
    if seat is None or not seat.played_by_computer:
        return None
    square = choose_move(board, game.level, time_limit=COMPUTER_TIME[game.level])
    made_by = Move.MadeBy.LEAVER if seat.left_at else Move.MadeBy.COMPUTER
    try:
        return play_move(game, square, expected_ply=ply, made_by=made_by)
    except GameError:  # moved on, or ended meanwhile (New Game, the last player left)
        return None


def timeout_move(game_id, ply):
    """The player to move at `ply` is due (games.deadlines): at 60 s a move the computer
    moves for them; on a clock or in correspondence they lose on time (flag).
    Only a worker calls this (the task games.timeout_move): it searches."""
    game = Game.objects.filter(pk=game_id, ply=ply, status=Game.Status.PLAYING).prefetch_related("seats").first()
    if game is None or not _due_after_downtime(game):
        return None
    if game.time_control != Game.TimeControl.MOVE:
        return flag(game_id, ply)
    board = game.board()
    square = choose_move(board, game.level, time_limit=COMPUTER_TIME[game.level])
    try:
        return play_move(game, square, expected_ply=ply, made_by=Move.MadeBy.TIMEOUT)
    except GameError:  # moved on, or ended meanwhile
        return None


def flag(game_id, ply):
    """The player to move at `ply` ran out of their clock or their days (docs/rules.md
    §4.1, §11.3): of two, they lose on time, scored by Board.decided; of three or four,
    they are out like a leaver (forfeit_seat) and the computer plays on for them. One
    who had not made their first move yet loses nothing: the game is aborted (§11.3).
    Once, under the game's lock and ply guard, and only when they are still due."""
    with transaction.atomic():
        game = (Game.objects.select_for_update().prefetch_related("seats")
                .filter(pk=game_id, ply=ply, status=Game.Status.PLAYING).first())
        if game is None or not _due_after_downtime(game):
            return None
        record = GameRecord(game)
        colour = record.board.turn
        if last_own_move(record.moves, colour) is None:
            try:
                return abort_game(game, record)
            except StaleMove:
                return None
        seat = game.seat_of(colour)
        if seat.remaining is not None:  # their clock shows nothing left, in the state pushed too (the record's seat)
            seat.remaining = 0.0
            Seat.objects.filter(pk=seat.pk).update(remaining=0.0)
        if len(game.variant_obj.colours) > 2:
            forfeit_seat(game, seat, flagged=[*game.flagged, colour])
            game.refresh_from_db()
            return game
        try:
            return finish_early(game, record, record.board.decided(colour), Game.Ending.TIME, flagged=[colour])
        except StaleMove:
            return None


def _due_after_downtime(game):
    """Whether the player to move is due once the site's outages in their turn are not
    counted (docs/rules.md §11.3); those are written by give_back_downtime, not here."""
    outages = downtime.outages_since(game.turn_started_at) if game.deadline else []
    deadlines.give_back_downtime(game, game.seat_of(game.turn), outages)
    return deadlines.is_due(game)


def give_back_downtime():
    """The site's outages owed (games.downtime) given back to the player to move of
    every game whose turn they overlapped (docs/rules.md §11.3): each game under its
    row's lock and ply guard, and pushed; given once, since the turn's new start is past
    the outage. Then the outages are marked given back and the clocks flag again. The
    task games.credit_downtime runs it; how many games it changed."""
    _serving, outages = downtime.state()
    if not outages:
        return 0
    changed = 0
    candidates = Game.objects.filter(status=Game.Status.PLAYING, deadline__isnull=False,
                                     turn_started_at__lt=outages[-1].end).values_list("pk", flat=True)
    for game_id in candidates:
        with transaction.atomic():
            game = (Game.objects.select_for_update().prefetch_related("seats")
                    .filter(pk=game_id, status=Game.Status.PLAYING).first())
            seat = game and game.seat_of(game.turn)
            if game is None or not deadlines.give_back_downtime(game, seat, outages):
                continue
            Game.objects.filter(pk=game.pk, ply=game.ply, status=Game.Status.PLAYING).update(
                turn_started_at=game.turn_started_at, deadline=game.deadline, version=F("version") + 1,
                updated_at=timezone.now())
            if seat is not None and seat.remaining is not None:
                Seat.objects.filter(pk=seat.pk).update(remaining=seat.remaining)
            transaction.on_commit(lambda game_id=game.pk: game_changed(game_id, schedule=False))
            changed += 1
    downtime.credited(outages)
    if changed:
        log.info("the site was down %s: the time given back in %d games",
                 ", ".join(f"{o.start:%H:%M:%S}-{o.end:%H:%M:%S}" for o in outages), changed)
    return changed


# The most the computer may think per move, by level: Easy and Normal search to
# a fixed depth and usually answer far sooner; Hard uses its whole budget.
COMPUTER_TIME = {Level.EASY: 1.0, Level.NORMAL: 1.5, Level.HARD: 2.0}
# A pause before a computer move that follows another computer move, so a player
# can follow three computer turns in a row.
COMPUTER_PACE = 0.6


def set_public(game, viewer, public):
    """A player shares a finished game (anyone with the link may review it) or stops sharing it."""
    if viewer.seat_in(game) is None:
        raise NotAPlayer(_("Only the players can share this game."))
    if not game.is_over:
        raise GameError(_("A game can be shared once it is over."))
    Game.objects.filter(pk=game.pk).update(is_public=public)
    game.is_public = public
    return game


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


# -- after every change --------------------------------------------------------

def game_changed(game_id, schedule=True, record=None):
    """After commit: schedule what is next, then push the new state to every page.

    The move is already saved, so neither step may fail the request: a task that
    cannot be queued (Redis away) is logged and the sweep (games.tasks.sweep_overdue)
    makes that move once the broker is back; a push that cannot be sent is logged
    and the pages catch up when their websockets reconnect. Scheduling comes first:
    a process that dies in between loses a push, which pages recover from at once,
    rather than the next move, which would wait for the sweep.

    `record`: the GameRecord the change itself read and wrote (play_move), so that
    nothing is read again; otherwise the game is read here.
    """
    if record is not None:
        record.keep()
    record = record or GameRecord(Game.objects.prefetch_related("seats").get(pk=game_id))
    game = record.game
    if schedule and game.status == Game.Status.PLAYING:
        try:
            schedule_next(game, record.moves)
        except UNREACHABLE as error:
            log.warning("game %s: next task for ply %s not queued (%s); the sweep will do it",
                        game.pk, game.ply, error)
    if game.kind == Game.Kind.COMPUTER and not computer_to_move(game):
        _give_back(game.public_id)
    try:
        broadcast.send_state(game, record)
    except UNREACHABLE as error:
        log.warning("game %s: state %s not pushed (%s); pages catch up on reconnect",
                    game.pk, game.version, error)
    signals.state_pushed.send(sender=Game, game=game)


def _give_back(public_id):
    """The computer is not thinking in this game (any longer): its place in the
    visitor's limit is free (games.thinking); with Redis away, the place lapses by itself."""
    try:
        thinking.give_back(public_id)
    except UNREACHABLE as error:
        log.warning("game %s: computer's place not given back (%s); it lapses", public_id, error)


def computer_to_move(game):
    seat = game.seat_of(game.turn) if game.status == Game.Status.PLAYING else None
    return seat is not None and seat.played_by_computer


def schedule_next(game, moves):
    """Queue the computer's move if it is the computer's turn, and the turn's mail
    at a correspondence game (games.turn_mail). A player's time-out needs no task: the workers' clocks watch the deadline (games.deadlines)."""
    if turn_mail.wants_mail(game, game.seat_of(game.turn)):
        scheduling.turn_mail(game.pk, game.ply)
    if computer_to_move(game):
        last = next((move for move in reversed(moves) if move.made_by != Move.MadeBy.AUTO), None)
        pace = COMPUTER_PACE if last is not None and last.made_by != Move.MadeBy.PLAYER else 0
        scheduling.computer_move(game.pk, game.ply, countdown=pace, at_table=game.kind == Game.Kind.TABLE)
