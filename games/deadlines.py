"""Move deadlines: when a player is due, who is due now, and queuing their time-out once.

A player's deadline is a column of their game (Game.deadline, set by deadline_for
when their turn begins). They are *due* MOVE_TIME_GRACE seconds after it (due_at:
the one rule, read by the move path, the time-out itself and the clocks), so a
move that left the page just before the deadline still counts.

A time-out is always made by a Celery worker (the task games.timeout_move), never
in the web process, and queued only through queue_time_out: a claim in Redis (SET NX
on game, ply and deadline) lets exactly one of the many that notice it (every
worker's clock each second, the sweep, a late move) queue it; the ply guard of the
move keeps it single even if a claim lapses. Each worker runs run_clock in a thread
(wired in config.celery), so a deadline is kept to within about a second by any
worker that is up.

Clocks with a total time per player will set `deadline` from the mover's remaining
time in deadline_for; everything after it stays the same.
"""
import logging
from datetime import timedelta
from functools import lru_cache

import redis
from django.conf import settings
from django.utils import timezone

from games import scheduling
from games.models import Game

log = logging.getLogger(__name__)

CLOCK_INTERVAL = 1.0
# A claim whose task was lost with its worker lapses after this, and the next tick queues it again.
CLAIM_SECONDS = 10


def deadline_for(game, seat):
    """When the player at `seat`, now to move, runs out of time: at a table, and only a
    person (the computer, also for a player who left, moves at once); else None."""
    if game.kind != Game.Kind.TABLE or seat is None or seat.played_by_computer:
        return None
    return timezone.now() + timedelta(seconds=settings.MOVE_TIME_LIMIT)


def grace():
    return timedelta(seconds=settings.MOVE_TIME_GRACE)


def due_at(deadline):
    """The instant the player with this deadline is out of time (None: never)."""
    return None if deadline is None else deadline + grace()


def is_due(game, now=None):
    due = due_at(game.deadline)
    return due is not None and (now or timezone.now()) >= due


def due_games(now=None):
    """(game id, ply, deadline) of every player out of time, the longest overdue first."""
    due_before = (now or timezone.now()) - grace()
    return (Game.objects.filter(status=Game.Status.PLAYING, deadline__lte=due_before)
            .order_by("deadline").values_list("pk", "ply", "deadline"))


def claim(game_id, ply, deadline):
    """Whether this process is the one to queue this time-out: the first to ask within
    CLAIM_SECONDS is."""
    key = f"reversi:time-out:{game_id}:{ply}:{deadline.timestamp():.6f}"
    return bool(_claims().set(key, 1, nx=True, ex=CLAIM_SECONDS))


@lru_cache(maxsize=1)
def _claims():
    return redis.Redis.from_url(settings.REDIS_URL)


def queue_time_out(game_id, ply, deadline):
    """Queue the time-out of the player to move at `ply` unless another process did: whether this one did."""
    if not claim(game_id, ply, deadline):
        return False
    scheduling.timeout_move(game_id, ply)
    return True


def queue_due_time_outs(now=None):
    """Queue the time-out of every player out of time, once. How many this call queued."""
    return sum(queue_time_out(game_id, ply, deadline) for game_id, ply, deadline in due_games(now))


def run_clock(stopping):
    """A worker's clock: every CLOCK_INTERVAL until the event `stopping` is set, queue the
    time-outs due. It reads the database and publishes, so it runs in a thread of its
    own, off the consumer's event loop (a busy database must not hold up task delivery)."""
    from django.db import close_old_connections

    failing = False
    while not stopping.wait(CLOCK_INTERVAL):
        close_old_connections()  # as Celery does around every task: a broken connection is replaced
        try:
            queue_due_time_outs()
        except Exception as error:  # the database or Redis is away: the next tick tries again
            if not failing:
                log.warning("deadline clock: time-outs not queued (%s); trying every second", error)
            failing = True
        else:
            if failing:
                log.info("deadline clock: queuing time-outs again")
            failing = False
