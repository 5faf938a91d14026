"""Clock: the one place a game's time is computed (docs/rules.md §11.3).

Pure: the standard library only, no Django, no database. A Clock holds a game's time
control; its methods take plain values (a seat's remaining seconds and measured lag,
the turn's start and deadline as datetimes) and the instant `now` from the caller, and
give plain values back. games.deadlines, games.services and games.presentation read
and write the database and call this for every sum; the page only counts down the
instants it is given (static/js/clocks.js).

The three time controls (the values of Game.TimeControl):
- MOVE: MOVE_TIME_LIMIT a move, due a grace after the deadline, so a move that left
  the page just before it still counts;
- CLOCK: a total per player and an increment (Fischer); the deadline carries the
  mover's lag credit, so no grace; a first move has at most MOVE_TIME_LIMIT;
- DAYS: correspondence, the same days for every move, no grace.
"""
from dataclasses import dataclass
from datetime import datetime, timedelta

MOVE, CLOCK, DAYS = "move", "clock", "days"

# The most lag a move is credited on a clock: the player's last measured socket round
# trip, so a move sent in time is not lost on the way, capped so that a slow link
# cannot buy thinking time.
MAX_LAG_CREDIT = 1.0

# After an outage the player to move gets this long for their page to be back before
# their time runs again: a page tries to reconnect at least every 5 s
# (static/js/reconnect.js), and a daphne just started, on a busy machine, took up to
# 2 s more to answer it with the game (tests/site/test_downtime_browser.py).
RECONNECT = 10.0


@dataclass(frozen=True)
class Turn:
    """The running turn: when it began, when its player runs out (the deadline, before
    any grace) and, on a clock, that player's remaining seconds when it began."""
    started: datetime
    deadline: datetime
    remaining: float | None = None


@dataclass(frozen=True)
class Clock:
    control: str  # MOVE, CLOCK or DAYS
    total: float = 0.0  # CLOCK: seconds per player; DAYS: seconds a move
    increment: float = 0.0  # CLOCK: seconds added after each move
    move_limit: float = 60.0  # MOVE: seconds a move; CLOCK: the most a first move has
    move_grace: float = 0.0  # MOVE: how long after the deadline a move still counts

    @staticmethod
    def lag_credit(lag):
        """Seconds of a measured round trip `lag` credited to a move on a clock."""
        return min(max(lag or 0.0, 0.0), MAX_LAG_CREDIT)

    def _credit(self, lag):
        return self.lag_credit(lag) if self.control == CLOCK else 0.0

    def starting_remaining(self):
        """Each seat's clock when the game starts: full on a clock, else None (no clock)."""
        return float(self.total) if self.control == CLOCK else None

    def allowance(self, remaining, first_move=False):
        """The seconds a player has for this move: on a clock their `remaining` time, at
        most `move_limit` for their first move; in correspondence the days; else
        `move_limit`."""
        if self.control == CLOCK:
            remaining = max(0.0, remaining or 0.0)
            return min(remaining, self.move_limit) if first_move else remaining
        if self.control == DAYS:
            return float(self.total)
        return float(self.move_limit)

    def start_turn(self, now, remaining=None, lag=0.0, first_move=False):
        """A turn beginning at `now`: its start and deadline (the allowance, plus the
        lag credit on a clock). Also a takeback's or a shown board's restart."""
        deadline = now + timedelta(seconds=self.allowance(remaining, first_move) + self._credit(lag))
        return Turn(started=now, deadline=deadline, remaining=remaining if self.control == CLOCK else None)

    @property
    def grace(self):
        """After the deadline, how long a move still counts: none on a clock or in
        correspondence (their deadline holds the lag credit)."""
        return timedelta(seconds=self.move_grace) if self.control == MOVE else timedelta(0)

    def due_at(self, deadline):
        """The flag instant: when the player with `deadline` is out of time (None: never)."""
        return None if deadline is None else deadline + self.grace

    def is_due(self, deadline, now):
        due = self.due_at(deadline)
        return due is not None and now >= due

    def charge(self, remaining, lag, started, now, increment=True):
        """On a clock, the remaining seconds after a move at `now` of a turn begun at
        `started`: the time spent, less the lag credit, taken off (never below 0), and
        the increment added (`increment`: a move; not when the turn is stopped)."""
        used = max(0.0, (now - (started or now)).total_seconds() - self.lag_credit(lag))
        return max(0.0, (remaining or 0.0) - used) + (self.increment if increment else 0.0)

    def stop(self, remaining, lag, started, now):
        """A turn that ends without the mover's move (a takeback, the game ending early):
        the time it ran stays spent, with no increment."""
        return self.charge(remaining, lag, started, now, increment=False)

    def at_turn_start(self, remaining, started, deadline):
        """The seconds a seat's clock showed when the turn began: on a clock its
        remaining time; in correspondence the running turn's whole time (None: no turn)."""
        if self.control == CLOCK:
            return max(0.0, remaining or 0.0)
        if started is None or deadline is None:
            return None
        return max(0.0, (deadline - started).total_seconds())

    def shown(self, remaining, started, deadline, now, running):
        """The seconds a seat's clock shows at `now`: a stopped one what it holds, the
        running one what it held at the turn start less the time since (none before
        it: a turn given back an outage starts a little after it); never below 0."""
        shown = self.at_turn_start(remaining, started, deadline) or 0.0
        if running and started is not None:
            shown -= max(0.0, (now - started).total_seconds())
        return max(0.0, shown)

    def first_move_due(self, remaining, started):
        """When a first move's time is up (the game is then aborted), its lag credit not shown."""
        return started + timedelta(seconds=self.allowance(remaining, first_move=True))

    def give_back(self, turn, outages):
        """The outages of the site (oldest first, each with .start and .end) are not the
        mover's time. For each outage `turn` began before the end of: unless they were
        already due when it began (or their turn did, if later), their turn starts
        again RECONNECT after its end, with the time they had left then, and their
        deadline moves as much later. The new Turn, or None if nothing is owed. Given
        once: the new turn start is past the outages' ends."""
        started, deadline, remaining = turn.started, turn.deadline, turn.remaining
        changed = False
        for outage in outages:
            if deadline is None or started is None or started >= outage.end:
                continue
            began = max(outage.start, started)
            if self.due_at(deadline) <= began:
                break
            restart = outage.end + timedelta(seconds=RECONNECT)
            if self.control == CLOCK and remaining is not None:
                remaining = max(0.0, remaining - (began - started).total_seconds())
            deadline += restart - began
            started = restart
            changed = True
        return Turn(started, deadline, remaining) if changed else None
