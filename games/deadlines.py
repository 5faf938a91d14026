"""Move deadlines: when a player is due, who is due now, and queuing their time-out once.

A player's deadline is a column of their game (Game.deadline, set by deadline_for
when their turn begins). They are *due* a grace after it (is_due, read by the move
path, the time-out itself and the clocks). Every sum on time (the deadline, the grace,
the lag credit, the downtime given back) is the game's Clock's (games.turn.clock,
docs/rules.md §11.3); this module reads and writes the games it concerns.

A time-out is always made by a Celery worker (the task games.timeout_move), never
in the web process, and queued only through queue_time_out: a claim in Redis (SET NX
on game, ply and deadline) lets exactly one of the many that notice it (every
worker's clock each second, the sweep, a late move) queue it; the ply guard of the
move keeps it single even if a claim lapses. Each worker runs run_clock in a thread
(wired in config.celery), so a deadline is kept to within about a second by any
worker that is up.

The time controls (Game.TimeControl) differ only in deadline_for and in what the
time-out does (games.services.timeout_move): at 60 s a move the computer moves for
the player; on a clock or in correspondence the player loses on time.

While no web process runs nobody can move, so nobody's time runs (games.downtime,
docs/rules.md §11.3): the clocks flag nobody then, and give_back_downtime gives the
outage back to the player to move, first to every game (before any flag), and also
in the move and the time-out themselves, which reach a game before that.
"""
import logging

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games import downtime, scheduling
from games.turn.clock import Clock, Turn
from games.models import Game
from infra.redis_clients import redis_client

log = logging.getLogger(__name__)

CLOCK_INTERVAL = 1.0
# A claim whose task was lost with its worker lapses after this, and the next tick queues it again.
CLAIM_SECONDS = 10


def clock_of(game):
    """The Clock (games.turn.clock) of `game`'s time control: every sum on its time."""
    return Clock(control=game.time_control, total=game.time_total, increment=game.time_increment,
                 move_limit=settings.MOVE_TIME_LIMIT, move_grace=settings.MOVE_TIME_GRACE)


def deadline_for(game, seat, now=None, first_move=False):
    """When the player at `seat`, now to move, runs out of time: at a table, and only a
    person (the computer, also for a player who left, moves at once); else None.
    `first_move`: they have made no move of their own yet (Clock.allowance)."""
    if game.kind != Game.Kind.TABLE or seat is None or seat.played_by_computer:
        return None
    return clock_of(game).start_turn(now or timezone.now(), seat.remaining, seat.lag, first_move).deadline


def is_due(game, now=None):
    """Whether the player to move in `game` is out of time at `now` (Clock.due_at)."""
    return clock_of(game).is_due(game.deadline, now or timezone.now())


def due_games(now=None):
    """(game id, ply, deadline) of every player out of time, the longest overdue first."""
    now = now or timezone.now()
    move_grace = Clock(Game.TimeControl.MOVE, move_grace=settings.MOVE_TIME_GRACE).grace
    return (Game.objects.filter(status=Game.Status.PLAYING)
            .filter(Q(time_control=Game.TimeControl.MOVE, deadline__lte=now - move_grace)
                    | (~Q(time_control=Game.TimeControl.MOVE) & Q(deadline__lte=now)))
            .order_by("deadline").values_list("pk", "ply", "deadline"))


def claim(game_id, ply, deadline):
    """Whether this process is the one to queue this time-out: the first to ask within
    CLAIM_SECONDS is."""
    key = f"reversi:time-out:{game_id}:{ply}:{deadline.timestamp():.6f}"
    return bool(redis_client().set(key, 1, nx=True, ex=CLAIM_SECONDS))


def queue_time_out(game_id, ply, deadline):
    """Queue the time-out of the player to move at `ply` unless another process did: whether this one did."""
    if not claim(game_id, ply, deadline):
        return False
    scheduling.timeout_move(game_id, ply)
    return True


def queue_due_time_outs(now=None):
    """Queue the time-out of every player out of time, once. How many this call queued.
    None while no web process runs, nor while an outage is owed (docs/rules.md §11.3):
    its credit is queued first (once, by a claim), and the flags wait for it."""
    now = now or timezone.now()
    serving, owed = downtime.state(now)
    if not serving:
        return 0
    if owed:
        if downtime.claim_credit():
            scheduling.credit_downtime()
        return 0
    return sum(queue_time_out(game_id, ply, deadline) for game_id, ply, deadline in due_games(now))


def give_back_downtime(game, seat, outages):
    """docs/rules.md §11.3: the parts of `outages` (games.downtime, oldest first) during
    the turn of the player to move at `seat` are not theirs (Clock.give_back). Changes
    `game` (and on a clock `seat.remaining`) in memory; whether it did (the caller
    writes both, under the game row's lock). Given once."""
    if game.deadline is None or game.turn_started_at is None:
        return False
    remaining = seat.remaining if seat is not None else None
    turn = clock_of(game).give_back(Turn(game.turn_started_at, game.deadline, remaining), outages)
    if turn is None:
        return False
    game.turn_started_at, game.deadline = turn.started, turn.deadline
    if seat is not None and turn.remaining is not None:
        seat.remaining = turn.remaining
    return True


def seconds_to_next_flag(now=None):
    """How long until the next clock runs out, at most CLOCK_INTERVAL: a clock's flag is
    made at its instant, not up to a tick late (the other deadlines keep the tick);
    benchmarks/README.md, "Clocks"."""
    now = now or timezone.now()
    upcoming = (Game.objects.filter(status=Game.Status.PLAYING, time_control=Game.TimeControl.CLOCK,
                                    deadline__gt=now).order_by("deadline").values_list("deadline", flat=True).first())
    if upcoming is None:
        return CLOCK_INTERVAL
    return min(CLOCK_INTERVAL, max(0.0, (upcoming - now).total_seconds()) + 0.002)


def run_clock(stopping):
    """A worker's clock: every CLOCK_INTERVAL (sooner when a clock runs out sooner)
    until the event `stopping` is set, queue the time-outs due. It reads the database
    and publishes, so it runs in a thread of its own, off the consumer's event loop (a
    busy database must not hold up task delivery)."""
    from django.db import close_old_connections

    failing = False
    wait = CLOCK_INTERVAL
    while not stopping.wait(wait):
        close_old_connections()  # as Celery does around every task: a broken connection is replaced
        wait = CLOCK_INTERVAL
        try:
            queue_due_time_outs()
            wait = seconds_to_next_flag()
        except Exception as error:  # the database or Redis is away: the next tick tries again
            if not failing:
                log.warning("deadline clock: time-outs not queued (%s); trying every second", error)
            failing = True
        else:
            if failing:
                log.info("deadline clock: queuing time-outs again")
            failing = False
