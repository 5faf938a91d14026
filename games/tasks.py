"""Celery tasks: thin wrappers that re-read the game and do nothing if it moved on."""
import logging
from datetime import timedelta
from functools import lru_cache

import redis
from celery import shared_task
from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

from games import analysis, services
from games.models import Game

log = logging.getLogger(__name__)

# A move task that meets a busy database (SQLite's lock, a failover) tries again
# soon: the ply guard makes a retry harmless, and a game must never wait for the sweep.
RETRY = {"autoretry_for": (DatabaseError,), "retry_backoff": 0.5, "retry_backoff_max": 5,
         "retry_jitter": True, "max_retries": 8}


@shared_task(name="games.computer_move", acks_late=True, **RETRY)
def computer_move(game_id, ply):
    """The computer moves for the seat to move at `ply` (a computer seat or a leaver)."""
    game = services.computer_move(game_id, ply)
    return game.ply if game else None


@shared_task(name="games.move_timeout", acks_late=True, **RETRY)
def move_timeout(game_id, ply):
    """The player to move at `ply` ran out of time: the computer moves for them."""
    game = services.timeout_move(game_id, ply)
    return game.ply if game else None


def queue_due_time_outs():
    """Called every second by each worker's clock (config.deadline_clock): queue the
    time-out of every player past their deadline, once. How many it queued."""
    queued = 0
    overdue = Game.objects.filter(status=Game.Status.PLAYING, deadline__lt=timezone.now())
    for game_id, ply, deadline in overdue.order_by("deadline").values_list("pk", "ply", "deadline"):
        if claim_time_out(game_id, ply, deadline):
            move_timeout.delay(game_id, ply)
            queued += 1
    return queued


def claim_time_out(game_id, ply, deadline):
    """Whether this process is the one to queue this time-out: the first to ask within
    CLAIM_SECONDS is. Every worker's clock finds the same overdue player; the ply
    guard would keep the move single anyway, but each would first compute it. A
    claim whose task was lost with its worker lapses, and the next tick after that
    queues it again."""
    key = f"reversi:time-out:{game_id}:{ply}:{deadline.timestamp():.6f}"
    return bool(_claims().set(key, 1, nx=True, ex=CLAIM_SECONDS))


CLAIM_SECONDS = 10


@lru_cache(maxsize=1)
def _claims():
    return redis.Redis.from_url(settings.REDIS_URL)


@shared_task(name="games.sweep_overdue")
def sweep_overdue(stuck_after=None):
    """Safety net for lost tasks (a killed worker, a restarted broker, a task Redis
    could not take): time out every overdue player (what the workers' clocks
    normally queue), and re-enqueue the computer moves that are due and have waited
    longer than `stuck_after` seconds (default STUCK_AFTER; 0 right after the worker
    reconnected, when any task may be lost). Doing one twice is harmless: every
    move task is guarded by its ply."""
    stuck_after = STUCK_AFTER if stuck_after is None else stuck_after
    now = timezone.now()
    playing = Game.objects.filter(status=Game.Status.PLAYING)
    handled = 0
    for game_id, ply in playing.filter(deadline__lt=now).values_list("pk", "ply"):
        if services.timeout_move(game_id, ply):
            handled += 1
    waiting = playing.filter(deadline__isnull=True, updated_at__lte=now - timedelta(seconds=stuck_after))
    for game in waiting.prefetch_related("seats"):
        seat = game.seat_of(game.turn)
        if seat is not None and seat.played_by_computer:
            computer_move.delay(game.pk, game.ply)
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
