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
import logging
import random

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games import Board, IllegalMoveError, Variant, broadcast, deadlines, draw_blocked, scheduling, signals
from games.ai import choose_move
from games.models import Game, Level, Move, Seat
from games.outages import UNREACHABLE
from games.record import GameRecord, last_own_move, undo_refusal

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
    game stays the user's through the seat they have."""
    if not guest_token or user is None:
        return 0
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


def create_computer_game(viewer, variant, level=Level.NORMAL, rng=None):
    """A game against the computer; the visitor's colour (seat) is drawn at random."""
    rng = rng or random.SystemRandom()
    colours = variant.colours
    human = rng.choice(colours)
    with transaction.atomic():
        game = Game.objects.create(
            kind=Game.Kind.COMPUTER, variant=variant.to_dict(), level=level,
            status=Game.Status.PLAYING, turn=Board(variant).turn,
        )
        Seat.objects.bulk_create(
            Seat(game=game, colour=colour, is_computer=colour != human,
                 user=viewer.user if colour == human else None,
                 guest_token=viewer.guest_token if colour == human else "")
            for colour in colours
        )
        transaction.on_commit(lambda: game_changed(game.pk))
    return game


# -- moving ------------------------------------------------------------------

def create_table_game(variant, *, level, is_public, host, host_colour, computer_colours, rated=False):
    """The waiting game of a new table: `host` at `host_colour`, the computer at
    `computer_colours`, every other seat free (inside the caller's transaction)."""
    return create_waiting_game(variant, level=level, is_public=is_public, rated=rated, seats=[
        {"colour": colour, "user": host if colour == host_colour else None, "is_computer": colour in computer_colours}
        for colour in variant.colours])


def create_waiting_game(variant, *, level, is_public, rated, seats):
    """A table's game waiting for its players, with `seats` (Seat fields, one dict per
    colour in turn order; inside the caller's transaction). A new table's first game
    and a rematch both start here."""
    game = Game.objects.create(kind=Game.Kind.TABLE, variant=variant.to_dict(), level=level,
                               status=Game.Status.WAITING, turn="", is_public=is_public, rated=rated)
    Seat.objects.bulk_create(Seat(game=game, **fields) for fields in seats)
    return game


def start_game(game):
    """A table's every seat is taken: the first colour is to move (inside the caller's
    transaction). After commit the first position is pushed and the first time-out or
    computer move scheduled."""
    board = Board(game.variant_obj)
    first = Seat.objects.get(game=game, colour=board.turn)
    started = Game.objects.filter(pk=game.pk, status=Game.Status.WAITING).update(
        status=Game.Status.PLAYING, turn=board.turn, deadline=deadlines.deadline_for(game, first),
        version=F("version") + 1, updated_at=timezone.now())
    if started:
        transaction.on_commit(lambda: game_changed(game.pk))


def play_move(game, square, *, expected_ply, viewer=None, made_by=Move.MadeBy.PLAYER):
    """Play `square` for the side to move, exactly once.

    `viewer` is checked to own the seat to move (None for the computer acting for
    a seat). Passes that follow automatically are recorded in the same commit.
    A player who is due (games.deadlines.due_at) is refused at once and their
    time-out queued, through the same claim as the workers' clocks: the web process
    never searches, and the late player sees the computer's move when it is pushed.
    """
    try:
        return _play_move(game, square, expected_ply=expected_ply, viewer=viewer, made_by=made_by)
    except OutOfTime as late:
        try:
            deadlines.queue_time_out(game.pk, expected_ply, late.deadline)
        except UNREACHABLE as error:  # the workers' clocks and the sweep queue it once the broker is back
            log.warning("game %s: time-out of ply %s not queued (%s)", game.pk, expected_ply, error)
        raise


def _play_move(game, square, *, expected_ply, viewer, made_by):
    square = str(square).strip().lower()
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
        if viewer is not None and deadlines.is_due(game, now):
            raise OutOfTime(_("Your time for this move ran out; the computer moves for you."), game.deadline)
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
        changes = {"ply": expected_ply + len(records), "updated_at": now, **_state_after(game, board)}
        if game.draw_offer and game.draw_offer != colour:  # the offerer's opponent moved: it lapses
            changes["draw_offer"] = ""
        if game.takeback_request:  # asked of the position before this move: it lapses
            changes["takeback_request"] = ""
        updated = Game.objects.filter(pk=game.pk, ply=expected_ply, status=Game.Status.PLAYING).update(
            version=F("version") + 1, **changes)
        if updated != 1:
            raise StaleMove(_("The game has moved on; here is the current position."))
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


def finish_early(game, record, outcome, ending):
    """End `game` now, at the position `record` holds, with `outcome` (Board.decided):
    resigned, agreed drawn, claimed (games.endings). Inside the caller's transaction,
    under the game row's lock; the update is conditional on the ply read under it, so
    a move that got in first makes this a StaleMove and nothing changes."""
    now = timezone.now()
    changes = {"status": Game.Status.FINISHED, "ending": ending, "turn": "", "deadline": None,
               "winner": outcome.winner or "", "counts": outcome.counts, "score": outcome.score,
               "draw_offer": "", "finished_at": now, "updated_at": now}
    updated = Game.objects.filter(pk=game.pk, ply=game.ply, status=Game.Status.PLAYING).update(
        version=F("version") + 1, **changes)
    if updated != 1:
        raise StaleMove(_("The game has moved on; here is the current position."))
    for field, value in changes.items():
        setattr(game, field, value)
    game.version += 1
    _announce_finish(game, outcome)
    transaction.on_commit(lambda: game_changed(game.pk, schedule=False, record=record))
    return game


def ranking_with_forfeits(game, outcome):
    """outcome.ranking with the leavers taken out and put last (docs/rules.md §11), the one
    who left last above those who left before."""
    stayed = [tuple(c for c in group if c not in game.forfeited) for group in outcome.ranking]
    return tuple(group for group in stayed if group) + tuple((c,) for c in reversed(game.forfeited))


def _state_after(game, board):
    """The Game fields that follow from the position `board` reached."""
    outcome = board.outcome()
    if outcome is None:
        return {"turn": board.turn, "deadline": deadlines.deadline_for(game, game.seat_of(board.turn))}
    return {
        "turn": "", "deadline": None, "status": Game.Status.FINISHED,
        "ending": Game.Ending.FORFEIT if game.forfeited else Game.Ending.NORMAL,
        "winner": _winner_with_forfeits(game, outcome) or "",
        "counts": outcome.counts, "score": outcome.score, "finished_at": timezone.now(),
    }


def _winner_with_forfeits(game, outcome):
    """Who wins once leavers rank last (docs/rules.md §11): the best ranked who stayed."""
    if not game.forfeited:
        return outcome.winner
    for group in outcome.ranking:
        stayed = [colour for colour in group if colour not in game.forfeited]
        if stayed:
            return stayed[0] if len(stayed) == 1 else None
    return None


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


def forfeit_seat(game, seat):
    """The player at `seat` is out (they left, or were gone and their opponent let the
    computer play for them: games.endings): they lose, ranked last, and the computer
    plays their seat to the end. Inside the caller's transaction, under the game row's lock."""
    now = timezone.now()
    Seat.objects.filter(pk=seat.pk, left_at__isnull=True).update(left_at=now)
    their_turn = game.turn == seat.colour
    changes = {"forfeited": [*game.forfeited, seat.colour], "version": F("version") + 1, "updated_at": now}
    if their_turn:
        changes["deadline"] = None  # no time-out: the computer moves for them now
    Game.objects.filter(pk=game.pk, status=Game.Status.PLAYING).update(**changes)
    # Schedule only when the leaver is to move (the computer takes over now);
    # otherwise the running time-out of whoever is to move stays as it is.
    transaction.on_commit(lambda: game_changed(game.pk, schedule=their_turn))


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
    """The player to move at `ply` is due (games.deadlines): the computer moves for them.
    Only a worker calls this (the task games.timeout_move): it searches."""
    game = Game.objects.filter(pk=game_id, ply=ply, status=Game.Status.PLAYING).first()
    if game is None or not deadlines.is_due(game):
        return None
    board = game.board()
    square = choose_move(board, game.level, time_limit=COMPUTER_TIME[game.level])
    try:
        return play_move(game, square, expected_ply=ply, made_by=Move.MadeBy.TIMEOUT)
    except GameError:  # moved on, or ended meanwhile
        return None


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
    try:
        broadcast.send_state(game, record)
    except UNREACHABLE as error:
        log.warning("game %s: state %s not pushed (%s); pages catch up on reconnect",
                    game.pk, game.version, error)
    signals.state_pushed.send(sender=Game, game=game)


def schedule_next(game, moves):
    """Queue the computer's move if it is the computer's turn. A player's time-out
    needs no task: the workers' clocks watch the deadline (games.deadlines)."""
    seat = game.seat_of(game.turn)
    if seat is not None and seat.played_by_computer:
        last = next((move for move in reversed(moves) if move.made_by != Move.MadeBy.AUTO), None)
        pace = COMPUTER_PACE if last is not None and last.made_by != Move.MadeBy.PLAYER else 0
        scheduling.computer_move(game.pk, game.ply, countdown=pace)
