"""Celery tasks: thin wrappers that re-read the game and do nothing if it moved on."""
import logging
from datetime import timedelta

from celery import shared_task
from django.db import DatabaseError, models
from django.utils import timezone

from games import analysis, deadlines, scheduling, services, turn_mail as mail
from games.models import Game

log = logging.getLogger(__name__)

# A move task that meets a busy database (SQLite's lock, a failover) tries again
# soon: the ply guard makes a retry harmless, and a game must never wait for the sweep.
RETRY = {"autoretry_for": (DatabaseError,), "retry_backoff": 0.5, "retry_backoff_max": 5,
         "retry_jitter": True, "max_retries": 8}


# Two names for the same move, so that each lands on its queue (config.settings'
# CELERY_TASK_ROUTES): a visitor's game against the computer, or a table's computer
# seat or leaver, which must never wait behind a flood of visitors' games.
@shared_task(name="games.computer_move", acks_late=True, **RETRY)
def computer_move(game_id, ply):
    """The computer moves at `ply` of a game against a visitor."""
    game = services.computer_move(game_id, ply)
    return game.ply if game else None


@shared_task(name="games.table_move", acks_late=True, **RETRY)
def table_move(game_id, ply):
    """The computer moves for the seat to move at `ply` of a table (a computer seat or a leaver)."""
    game = services.computer_move(game_id, ply)
    return game.ply if game else None


@shared_task(name="games.timeout_move", acks_late=True, **RETRY)
def timeout_move(game_id, ply):
    """The player to move at `ply` ran out of time (games.deadlines): the computer moves for them."""
    game = services.timeout_move(game_id, ply)
    return game.ply if game else None


@shared_task(name="games.credit_downtime", acks_late=True, **RETRY)
def credit_downtime():
    """The site's outages not yet given back are given to every game they cost time
    (games.downtime); the workers' clocks flag again once it is done."""
    return services.give_back_downtime()


@shared_task(name="games.turn_mail", acks_late=True, **RETRY)
def turn_mail(game_id, ply):
    """Correspondence: tell the player to move at `ply` by e-mail, once (games.turn_mail)."""
    return mail.send_turn_mail(game_id, ply)


@shared_task(name="games.sweep_overdue")
def sweep_overdue(stuck_after=None):
    """Safety net for lost tasks (a killed worker, a restarted broker, a task Redis
    could not take): queue the time-out of every player out of time, through the
    same claim as the workers' clocks (games.deadlines), and re-enqueue the computer moves that are due and have waited
    longer than `stuck_after` seconds (default STUCK_AFTER; 0 right after the worker
    reconnected, when any task may be lost). Doing one twice is harmless: every
    move task is guarded by its ply."""
    stuck_after = STUCK_AFTER if stuck_after is None else stuck_after
    now = timezone.now()
    playing = Game.objects.filter(status=Game.Status.PLAYING)
    handled = deadlines.queue_due_time_outs(now)
    waiting = playing.filter(deadline__isnull=True, updated_at__lte=now - timedelta(seconds=stuck_after))
    for game in waiting.prefetch_related("seats"):
        seat = game.seat_of(game.turn)
        if seat is not None and seat.played_by_computer:
            scheduling.computer_move(game.pk, game.ply, at_table=game.kind == Game.Kind.TABLE)
            handled += 1
    # A correspondence player not yet told it is their turn (the mail's task was lost).
    unmailed = (playing.filter(time_control=Game.TimeControl.DAYS, updated_at__lte=now - timedelta(seconds=stuck_after))
                .exclude(mailed_ply=models.F("ply")).prefetch_related("seats"))
    for game in unmailed:
        if mail.wants_mail(game, game.seat_of(game.turn)):
            turn_mail.delay(game.pk, game.ply)
            handled += 1
    if handled:
        log.info("sweep: acted on %d games", handled)
    return handled


# A computer move normally comes within seconds; one older than this was lost.
STUCK_AFTER = 30


@shared_task(name="games.analyse_game", acks_late=True)
def analyse_game(analysis_id):
    """Analyse a finished game a couple of seconds at a time (games.analysis), queuing
    the rest as a fresh task so computer moves are never held up for long."""
    more = analysis.run_chunk(analysis_id)
    if more:
        analyse_game.delay(analysis_id)
    return more
