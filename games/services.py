"""What the site and its workers do to a running game, each as a command applied by
games.writer.apply (the one writer of Game, Seat and Move rows, under the game row's
lock): a person's move, the computer's, a time-out, a flag, Undo, New Game's
abandon, the computer's level, a leave, a page's first showing and lag, the site's
outages given back, sharing a finished game, a table's start. games.endings (resign,
offers, claims...) and games.seating (seats) are the other callers; games.creation
makes new games.

Humans (over HTTP and the socket), computer moves and time-outs (Celery tasks) all
go through `play_move`, so a move is validated, recorded and announced one way:
exactly once, by the writer's conditional update on the expected ply, with a unique
(game, ply) underneath. After commit what comes next is scheduled and the new state
pushed (games.publishing).
"""
import logging

from games import deadlines, downtime, writer
from games.ai import choose_move
from games.errors import ComputerBusy, GameError, NotAPlayer, NotYourTurn, OutOfTime, StaleMove, from_refusal
from games.access import Viewer
from games.models import Game, Level, Move
from games.publishing import give_back
from games.turn import commands
from games.turn.refusals import Refused
from infra.outages import UNREACHABLE

log = logging.getLogger(__name__)

# The most the computer may think per move, by level: Easy and Normal search to
# a fixed depth and usually answer far sooner; Hard uses its whole budget.
COMPUTER_TIME = {Level.EASY: 1.0, Level.NORMAL: 1.5, Level.HARD: 2.0}


def start_game(game):
    """A table's every seat is taken: the first colour is to move (inside the caller's
    transaction; nothing when it started already). After commit the first position is
    pushed and the first computer move scheduled."""
    try:
        return writer.apply(game, commands.Start())
    except StaleMove:
        return game


def play_move(game, square, *, expected_ply, viewer=None, made_by=Move.MadeBy.PLAYER, asker=None):
    """Play `square` for the side to move, exactly once.

    `viewer` must own the seat to move (None: the computer, or a worker, acting for
    the seat). A player who is due (their deadline and its grace past) is refused at
    once (OutOfTime) and their time-out queued, through the same claim as the workers'
    clocks: the web process never searches, and the late player sees the computer's
    move when it is pushed. In a game against the computer, `asker` (a
    games.thinking.Asker) takes the computer's place first: past the limit,
    ComputerBusy and nothing played; a move refused for another reason gives back the
    place it took.
    """
    taken = False
    if asker is not None and game.kind == Game.Kind.COMPUTER:
        taken = asker.take(game.public_id)
        if taken is None:
            raise ComputerBusy()
    try:
        return _play(game, square, expected_ply, viewer, made_by)
    except OutOfTime as late:
        try:
            deadlines.queue_time_out(game.pk, expected_ply, late.deadline)
        except UNREACHABLE as error:  # the workers' clocks and the sweep queue it once the broker is back
            log.warning("game %s: time-out of ply %s not queued (%s)", game.pk, expected_ply, error)
        raise
    except Exception:
        if taken:
            give_back(game.public_id)
        raise


def _play(game, square, expected_ply, viewer, made_by):
    if viewer is not None:
        return writer.apply(game, commands.Play(square=square), expected_ply=expected_ply, viewer=viewer)
    if made_by == Move.MadeBy.TIMEOUT:
        return writer.apply(game, commands.TimeOut(square=square), expected_ply=expected_ply)
    try:
        return writer.apply(game, commands.ComputerMove(square=square), expected_ply=expected_ply)
    except StaleMove:
        if made_by != Move.MadeBy.PLAYER:
            raise
    # A person's seat is to move, played for them without their viewer (an import, a test).
    fresh = Game.objects.prefetch_related("seats").get(pk=game.pk)
    seat = fresh.seat_of(fresh.turn)
    if seat is None:
        raise from_refusal(Refused.stale())
    mover = Viewer(user=seat.user, guest_token=seat.guest_token)
    return writer.apply(game, commands.Play(square=square), expected_ply=expected_ply, viewer=mover)


def undo(game, viewer, *, expected_ply):
    """Take back the viewer's last move and every computer answer after it."""
    return writer.apply(game, commands.Undo(), expected_ply=expected_ply, viewer=viewer)


def abandon(game, viewer):
    """The player leaves their computer game for a new one (New Game): it ends as
    abandoned, won by nobody. Nothing happens to a game that is over or not theirs."""
    return writer.apply(game, commands.Abandon(), viewer=viewer)


def set_level(game, viewer, level):
    """The computer's level for its next move (against the computer: the visitor's menu)."""
    return writer.apply(game, commands.SetLevel(level=level), viewer=viewer)


def leave(game, viewer):
    """The viewer leaves a running game: they lose (docs/rules.md §11), and from now on the
    computer plays their seat to the end. In a 3-4 player game the others play on
    and the leaver ranks last. Leaving is final."""
    return writer.apply(game, commands.Leave(), viewer=viewer)


def record_lag(game, viewer, round_trip):
    """The round trip just measured on a player's game socket (games.consumers): their
    lag credit on a clock from their next turn on (games.turn.clock.Clock.lag_credit)."""
    if game.time_control == Game.TimeControl.CLOCK and viewer.seat_in(game) is not None:
        writer.apply(game, commands.RecordLag(seconds=round_trip), viewer=viewer)


def board_shown(game, seat, now=None):
    """A page of the player at `seat` shows the running game for the first time (its
    game socket opened: games.consumers). On a clock, when that player is to make their
    first move, its time starts now rather than when the game started (docs/rules.md
    §11.3), once, and only while it has not run out: one whose page never shows the
    game is still aborted at the deadline set when their turn began."""
    if game.time_control != Game.TimeControl.CLOCK:
        return game
    return writer.apply(game, commands.ShowBoard(by=seat.colour), now=now)


def computer_move(game_id, ply):
    """Move for the seat to move if the computer plays it (a Celery task calls this).

    Does nothing when the game moved on from `ply` or a human is to move.
    """
    game = Game.objects.filter(pk=game_id, ply=ply, status=Game.Status.PLAYING).prefetch_related("seats").first()
    if game is None:
        return None
    seat = game.seat_of(game.turn)
    if seat is None or not seat.played_by_computer:
        return None
    square = choose_move(game.board(), game.level, time_limit=COMPUTER_TIME[game.level])
    try:
        return writer.apply(game, commands.ComputerMove(square=square), expected_ply=ply)
    except GameError:  # moved on, or ended meanwhile (New Game, the last player left)
        return None


def timeout_move(game_id, ply):
    """The player to move at `ply` is due (games.deadlines): at 60 s a move the computer
    moves for them; on a clock or in correspondence they lose on time (flag).
    Only a worker calls this (the task games.timeout_move): it searches, once it knows
    the player is due."""
    game = Game.objects.filter(pk=game_id, ply=ply, status=Game.Status.PLAYING).prefetch_related("seats").first()
    if game is None or not _due_after_downtime(game):
        return None
    if game.time_control != Game.TimeControl.MOVE:
        return flag(game_id, ply)
    square = choose_move(game.board(), game.level, time_limit=COMPUTER_TIME[game.level])
    try:
        return writer.apply(game, commands.TimeOut(square=square), expected_ply=ply)
    except GameError:  # moved on, or ended meanwhile
        return None


def flag(game_id, ply):
    """The player to move at `ply` ran out of their clock or their days (docs/rules.md
    §4.1, §11.3): of two, they lose on time; of three or four, they are out like a
    leaver and the computer plays on for them; before their first move the game is
    aborted. Once, and only when they are still due (the writer's lock and ply guard)."""
    game = Game.objects.filter(pk=game_id, ply=ply, status=Game.Status.PLAYING).first()
    if game is None:
        return None
    try:
        return writer.apply(game, commands.Flag(), expected_ply=ply)
    except GameError:  # moved on, or not due once the outages are given back
        return None


def _due_after_downtime(game):
    """Whether the player to move is due once the site's outages in their turn are not
    counted (docs/rules.md §11.3); read only, to spare a search (the writer decides)."""
    outages = downtime.outages_since(game.turn_started_at) if game.deadline else []
    deadlines.give_back_downtime(game, game.seat_of(game.turn), outages)  # in memory only
    return deadlines.is_due(game)


def give_back_downtime():
    """The site's outages owed (games.downtime) given back to the player to move of
    every game whose turn they overlapped (docs/rules.md §11.3): each game a command
    of its own, and pushed; given once, since the turn's new start is past the outage.
    Then the outages are marked given back and the clocks flag again. The task
    games.credit_downtime runs it; how many games it changed."""
    _serving, outages = downtime.state()
    if not outages:
        return 0
    changed = 0
    candidates = Game.objects.filter(status=Game.Status.PLAYING, deadline__isnull=False,
                                     turn_started_at__lt=outages[-1].end)
    for game in candidates:
        try:
            writer.apply(game, commands.GiveBackDowntime(outages=tuple(outages)))
        except GameError:  # nothing owed, or moved on: the outage is not in its turn
            continue
        changed += 1
    downtime.credited(outages)
    if changed:
        log.info("the site was down %s: the time given back in %d games",
                 ", ".join(f"{o.start:%H:%M:%S}-{o.end:%H:%M:%S}" for o in outages), changed)
    return changed


def set_public(game, viewer, public):
    """A player shares a finished game (anyone with the link may review it) or stops sharing it."""
    try:
        shared = writer.apply(game, commands.Share(public=public), viewer=viewer)
    except NotYourTurn as refused:
        raise NotAPlayer(str(refused)) from None
    game.is_public = shared.is_public  # the caller's row draws the answer
    return shared

