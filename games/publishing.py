"""After a game changed (games.writer, after commit): what comes next scheduled (a
computer move, a correspondence turn's mail), the computer's place in its visitor's
limit given back once it answered (games.thinking), and the change's events published
to every page that shows the game (games.events; each page's daphne draws them:
games.drawing). Nothing here draws a template.

The change is already saved, so nothing here may fail the request: a task that cannot
be queued (Redis away) is logged and the sweep (games.tasks.sweep_overdue) makes that
move once the broker is back; a push that cannot be sent is logged and the pages catch
up when their websockets reconnect.
"""
import logging

from games import events as game_events, scheduling, signals, thinking
from games.models import Game, Move
from games.record import GameRecord
from infra.outages import UNREACHABLE

log = logging.getLogger(__name__)

# A pause before a computer move that follows another computer move, so a player
# can follow three computer turns in a row.
COMPUTER_PACE = 0.6


def after_change(game, record, events, schedule=True):
    """After the commit of games.writer.apply: `record` (the GameRecord it read and
    wrote) is kept for the game's next change here, `events` are published, and
    game_changed runs on what was written, reading nothing again."""
    game_changed(game.pk, schedule=schedule, record=record, events=events)


def game_changed(game_id, schedule=True, record=None, events=None):
    """After commit: schedule what is next, then publish the change's `events` to every
    page (None: a new game, told by a bare "state" event, games.events.record_state).

    Scheduling comes first: a process that dies in between loses a push, which pages
    recover from at once, rather than the next move, which would wait for the sweep.
    `record`: the GameRecord the change itself read and wrote, so that nothing is
    read again (it is kept); otherwise the game is read here."""
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
        give_back(game.public_id)
    try:
        game_events.publish(game, events if events is not None else game_events.record_state(game))
    except UNREACHABLE as error:
        log.warning("game %s: state %s not pushed (%s); pages catch up on reconnect",
                    game.pk, game.version, error)
    signals.state_pushed.send(sender=Game, game=game)


def give_back(public_id):
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
    at a correspondence game (games.turn_mail). A player's time-out needs no task:
    the workers' clocks watch the deadline (games.deadlines)."""
    if wants_mail(game, game.seat_of(game.turn)):
        scheduling.turn_mail(game.pk, game.ply)
    if computer_to_move(game):
        last = next((move for move in reversed(moves) if move.made_by != Move.MadeBy.AUTO), None)
        pace = COMPUTER_PACE if last is not None and last.made_by != Move.MadeBy.PLAYER else 0
        scheduling.computer_move(game.pk, game.ply, countdown=pace, at_table=game.kind == Game.Kind.TABLE)


def wants_mail(game, seat):
    """Whether the player at `seat`, now to move, is to be told by e-mail (games.turn_mail)."""
    return (game.time_control == Game.TimeControl.DAYS and game.status == Game.Status.PLAYING
            and seat is not None and not seat.played_by_computer and seat.user_id is not None
            and game.mailed_ply != game.ply)
