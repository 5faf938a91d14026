"""Move deadlines: when a player is due, who is due now, and queuing their time-out once.

A player's deadline is a column of their game (Game.deadline, set by deadline_for
when their turn begins). They are *due* a grace after it (due_at: the one rule, read
by the move path, the time-out itself and the clocks), so a move that left the page
just before the deadline still counts: MOVE_TIME_GRACE at 60 s a move; on a clock or
in correspondence none, since there the deadline itself already carries the player's
own lag credit (lag_credit, docs/rules.md §11.3).

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
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games import downtime, scheduling
from games.models import Game
from infra.redis_clients import redis_client

log = logging.getLogger(__name__)

CLOCK_INTERVAL = 1.0
# A claim whose task was lost with its worker lapses after this, and the next tick queues it again.
CLAIM_SECONDS = 10


# The most lag a move is credited on a clock (docs/rules.md §11.3): the player's last
# measured socket round trip, so a move sent in time is not lost on the way, capped so
# that a slow link cannot buy thinking time.
MAX_LAG_CREDIT = 1.0


def lag_credit(seat):
    """Seconds of network lag credited to `seat`'s moves on a clock."""
    return min(max(seat.lag or 0.0, 0.0), MAX_LAG_CREDIT)


def clock_time(game, seat, first_move=False):
    """The seconds the player at `seat` has for their move on a clock: their remaining
    time; for their first move at most MOVE_TIME_LIMIT (docs/rules.md §11.3: one who
    does not make it in time has the game aborted, games.services.flag)."""
    remaining = seat.remaining or 0.0
    return min(remaining, settings.MOVE_TIME_LIMIT) if first_move else remaining


def deadline_for(game, seat, now=None, first_move=False):
    """When the player at `seat`, now to move, runs out of time: at a table, and only a
    person (the computer, also for a player who left, moves at once); else None.
    On a clock: their time for this move (clock_time; `first_move`: they have made no
    move of their own yet), plus their lag credit, from now."""
    if game.kind != Game.Kind.TABLE or seat is None or seat.played_by_computer:
        return None
    now = now or timezone.now()
    if game.time_control == Game.TimeControl.CLOCK:
        return now + timedelta(seconds=clock_time(game, seat, first_move) + lag_credit(seat))
    if game.time_control == Game.TimeControl.DAYS:
        return now + timedelta(seconds=game.time_total)
    return now + timedelta(seconds=settings.MOVE_TIME_LIMIT)


def grace(game=None):
    """The time after the deadline a move still counts: none on a clock or in
    correspondence (their deadline holds the lag credit)."""
    if game is not None and game.time_control != Game.TimeControl.MOVE:
        return timedelta(0)
    return timedelta(seconds=settings.MOVE_TIME_GRACE)


def due_at(game):
    """The instant the player to move in `game` is out of time (None: never)."""
    return None if game.deadline is None else game.deadline + grace(game)


def is_due(game, now=None):
    due = due_at(game)
    return due is not None and (now or timezone.now()) >= due


def due_games(now=None):
    """(game id, ply, deadline) of every player out of time, the longest overdue first."""
    now = now or timezone.now()
    return (Game.objects.filter(status=Game.Status.PLAYING)
            .filter(Q(time_control=Game.TimeControl.MOVE, deadline__lte=now - grace())
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


# After an outage the player to move gets this long for their page to be back before
# their time runs again: a page tries to reconnect at least every 5 s
# (static/js/reconnect.js), and a daphne just started, on a busy machine, took up to
# 2 s more to answer it with the game (tests/site/test_downtime_browser.py).
RECONNECT = 10.0


def give_back_downtime(game, seat, outages):
    """docs/rules.md §11.3: the parts of `outages` (games.downtime, oldest first) during
    the turn of the player to move at `seat` are not theirs. For each outage their turn
    began before the end of: unless they were already due when it began (or their turn
    did, if later), their turn starts again RECONNECT after its end, with the time they
    had left then, and their deadline moves as much later. Changes `game` (and on a
    clock `seat.remaining`) in memory; whether it did (the caller writes both, under the
    game row's lock). Given once: the new turn start is past the outage's end."""
    changed = False
    for outage in outages:
        if game.deadline is None or game.turn_started_at is None or game.turn_started_at >= outage.end:
            continue
        began = max(outage.start, game.turn_started_at)
        if due_at(game) <= began:
            break
        restart = outage.end + timedelta(seconds=RECONNECT)
        if game.time_control == Game.TimeControl.CLOCK and seat is not None and seat.remaining is not None:
            seat.remaining = max(0.0, seat.remaining - (began - game.turn_started_at).total_seconds())
        game.deadline += restart - began
        game.turn_started_at = restart
        changed = True
    return changed


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
