"""The one writer of a stored game: apply(game, command) takes the game row's lock,
runs the turn engine (games.turn.decide) and writes what it changed.

Every change of a Game, its Seats and its Moves after they were created
(games.creation inserts new ones) is a Command applied here: a person's move over
HTTP or the socket, the computer's move and a time-out in a worker, a resign, an
offer, a claim, a seat taken, a shown board, the site's outages given back
(tests/site/test_game_writers.py checks that nothing else writes them).

Locks, in order: before any, what the engine cannot read is read into the command
(the site's outages from Redis, how long a player is gone, the settings); then, in one
transaction, the Game row (select_for_update: this module is the only one that takes
it), with the web process's bounded waits (infra.write_waits: WritesBusy; a person's
move is told DatabaseBusy, in its own words). Under it the state is read (the seats
prefetched, the moves and position from the kept GameRecord), the expected ply or
version checked, decide() run; its new state is written as one conditional update of the Game on the ply,
version and status read (0 rows: stale, nothing written; a unique (game, ply) under
the moves besides), the Seats that changed, the Moves added (one bulk insert) or
taken back, the version bumped by one per event, and the events recorded
(games.events). A game that finished with a ranking is announced inside a savepoint
(signals.game_finished). After commit the events are published and what comes next
scheduled (games.publishing).
"""
import copy
import dataclasses
import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import downtime, events as game_events, gone as absence, publishing, signals, stored
from games.errors import DatabaseBusy, GameError, from_refusal
from games.models import Game, Move, Seat
from games.record import GameRecord
from games.turn import commands
from games.turn.engine import decide
from games.turn.ranking import ranking_with_forfeits
from games.turn.refusals import Refused
from games.turn.state import ABANDONED, ABORTED, FINISHED, TABLE, WAITING
from infra.write_waits import WritesBusy

log = logging.getLogger(__name__)

# Commands whose time may have overlapped the site's outages (docs/rules.md §11.3).
TIMED = (commands.Play, commands.TimeOut, commands.Flag)
# Commands against a player to move who is gone (games.gone).
CLAIMS = (commands.ClaimWin, commands.ComputerForGone)


@dataclasses.dataclass
class Applied:
    """What one apply() did: the game row (as written), the states before and after,
    and the events, numbered."""
    game: object
    old: object
    new: object
    events: list
    seats_before: dict = dataclasses.field(default_factory=dict)  # {colour: Seat row} of the seats changed


def apply(game, command, *, expected_ply=None, expected_version=None, viewer=None, now=None):
    """Apply `command` to `game` for `viewer` (a games.access.Viewer, or None for the
    site and its workers) at `now` (default: now): the game row as written, its seats
    prefetched. Raises a games.errors.GameError (nothing written) when the rules
    refuse it, or when the game is no longer at `expected_ply` / `expected_version`."""
    return change(game, command, expected_ply=expected_ply, expected_version=expected_version, viewer=viewer,
                  now=now).game


def change(game, command, *, expected_ply=None, expected_version=None, viewer=None, now=None):
    """apply(), answering the whole Applied (the seats' callers read who sat where)."""
    command, gone = _with_inputs(game, command)
    try:
        return _locked_change(game.pk, command, expected_ply, expected_version, viewer, now, gone)
    except WritesBusy as busy:  # the web process's bounded wait: a person's move is sent again by its page
        if viewer is None or not isinstance(command, commands.Play):
            raise  # answered "busy" like any other write (infra.write_waits)
        raise DatabaseBusy() from busy


def _with_inputs(game, command):
    """`command` with what the engine cannot read itself, read before the lock, and for
    a claim the colour whose absence was read (None otherwise): the player to move as
    stored now, not as the caller's copy of the game has it."""
    names = {field.name for field in dataclasses.fields(command)}
    inputs, gone = {}, None
    if "outages" in names and isinstance(command, TIMED) and game.deadline and not command.outages:
        inputs["outages"] = tuple(downtime.outages_since(game.turn_started_at))
    if isinstance(command, CLAIMS):
        gone = Game.objects.filter(pk=game.pk).values_list("turn", flat=True).first() or ""
        inputs["gone_for"] = absence.gone_for(game.public_id, gone) if gone else 0.0
        inputs["needed"] = settings.PLAYER_GONE_SECONDS
    return (dataclasses.replace(command, **inputs) if inputs else command), gone


def _locked_change(pk, command, expected_ply, expected_version, viewer, now, gone=None):
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").filter(pk=pk).first()
        if game is None:
            raise from_refusal(Refused.stale())
        record = GameRecord(game)
        old = stored.state_of(game, record, names=isinstance(command, CLAIMS))
        if ((expected_ply is not None and expected_ply != old.ply)
                or (expected_version is not None and expected_version != old.version)):
            _refuse_stale(old, command)
        if gone is not None and gone != old.turn:  # the absence read is of a player no longer to move
            raise from_refusal(Refused.stale())
        if viewer is not None:
            seat = viewer.seat_among(record.seats)
            command = dataclasses.replace(command, by=seat.colour if seat is not None else None)
        now = now or timezone.now()
        try:
            new, events = decide(old, command, now)
        except Refused as refused:
            raise from_refusal(refused) from None
        applied = Applied(game, old, new, list(events))
        _write(applied, record, now)
    return applied


def _refuse_stale(old, command):
    """A stale ply or version: when the game is not running, the rules' own refusal
    (it is over, or not started) is the one shown; else StaleMove."""
    if old.status == FINISHED or old.status == WAITING:
        try:
            decide(old, command, timezone.now())
        except Refused as refused:
            raise from_refusal(refused) from None
    raise from_refusal(Refused.stale())


def _write(applied, record, now):
    game, old, new = applied.game, applied.old, applied.new
    difference = stored.difference(old, new, game)
    if not difference and not applied.events:
        return
    applied.seats_before = {colour: copy.copy(stored.seat_row(game, colour)) for colour in difference.seat_fields}
    if _closed(old, new):
        close_waiting_game(game)
        return
    bumped = old.version + len(applied.events)
    if difference.game or applied.events or difference.added or difference.removed:
        # The claim: nothing else changed the game since it was read.
        claimed = Game.objects.filter(pk=game.pk, ply=old.ply, version=old.version, status=old.status).update(
            ply=new.ply, version=bumped, updated_at=now, **difference.game)
        if claimed != 1:
            raise from_refusal(Refused.stale())
    for colour, fields in difference.seat_fields.items():
        Seat.objects.filter(pk=stored.seat_row(game, colour).pk).update(**fields)
    if difference.removed:
        Move.objects.filter(game=game, ply__gt=difference.kept).delete()
    if difference.added:
        Move.objects.bulk_create(difference.added)
    stored.apply_in_memory(game, record, difference, new)
    if applied.events:
        applied.events = game_events.record(game, applied.events)
    game.version = bumped
    if new.status == FINISHED and old.status != FINISHED and new.ending not in (ABORTED, ABANDONED):
        _announce_finish(game, new)
    schedule = _schedules(old, new)
    numbered = applied.events
    if numbered:
        transaction.on_commit(lambda: publishing.after_change(game, record, numbered, schedule=schedule))


def _closed(old, new):
    """A table's waiting game nobody sits at any more: it is deleted, not written."""
    return (new.kind == TABLE and new.status == WAITING
            and any(seat.occupant for seat in old.seats if not seat.is_computer)
            and not any(seat.occupant for seat in new.seats if not seat.is_computer))


def _schedules(old, new):
    """Whether the change calls for the next task (a computer move, a turn's mail): a
    new ply, a new player to move, or the computer taking over the seat to move. A
    change that leaves the turn as it was leaves its task as it was too."""
    if new.ply != old.ply or new.turn != old.turn or new.status != old.status:
        return True
    before, after = old.seat_of(old.turn), new.seat_of(new.turn)
    return after is not None and before is not None and after.played_by_computer != before.played_by_computer


def ranking(state):
    """How the seats of the finished `state` ranked, best first: the board's outcome,
    or for two players ended early its decision; leavers last, the latest leaver above
    the earlier ones (docs/rules.md §11)."""
    board = state.board
    outcome = board.outcome()
    if outcome is None:
        loser = next((c for c in state.variant.colours if c != state.winner), None) if state.winner else None
        outcome = board.decided(loser)
    return ranking_with_forfeits(state.forfeited, outcome)


def _announce_finish(game, state):
    """Inside the finishing transaction: tell the apps above (ratings) how the seats ranked.

    In a savepoint: the finishing change is made once, so what the receivers write is
    written once too; a receiver that fails loses its own writes and is logged, and
    the game still finishes."""
    try:
        with transaction.atomic():
            signals.game_finished.send(sender=Game, game=game, ranking=ranking(state))
    except Exception:
        log.exception("game %s finished, but a game_finished receiver failed", game.public_id)


def close_waiting_game(game):
    """Delete a game nobody waits at any more, with its seats (and the table it was
    played at, by its foreign key). Only a waiting game: one that started is kept.
    The caller holds the game row's lock (a GiveSeatBack), or the delete is
    conditional on the game still waiting."""
    Game.objects.filter(pk=game.pk, status=WAITING).delete()


def finished_game_locked(game_id):
    """The finished game a rematch follows, under a lock on its row (to the end of the
    caller's transaction: two acceptances at once start one game), or a GameError
    while it is not over (or was abandoned)."""
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.status != Game.Status.FINISHED or game.is_abandoned:
        raise GameError(_("A rematch can be played once the game has ended."))
    return game


def claim_guest_seats(user, guest_token):
    """The seats a guest took in this session become the user's for good, so their
    games outlive the session (a sign-out ends it): who sits there is the same person,
    so no game changes and none is locked.

    A game where the user already has a seat keeps the guest seat as it is: one
    person plays one seat per game (TakeSeat refuses a second), and the game stays
    the user's through the seat they have. The games the guest imported to analyse
    (games.creation.store_import) become the user's too."""
    if not guest_token or user is None:
        return 0
    Game.objects.filter(owner_token=guest_token, owner__isnull=True).update(owner=user, owner_token="")
    seats = Seat.objects.filter(guest_token=guest_token, user__isnull=True, is_computer=False)
    return seats.exclude(game__seats__user=user).update(user=user, guest_token="")
