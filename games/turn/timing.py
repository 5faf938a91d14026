"""A turn's time in a GameState (docs/rules.md §11.3): its deadline, whether its
player is due, their clock charged or stopped, the site's outages given back. Every
sum is the game's Clock's (games.turn.clock); this module only reads and replaces
the state's fields."""
from dataclasses import replace

from games.turn.clock import CLOCK, Turn
from games.turn.state import TABLE


def deadline_for(state, colour, now, first_move=False):
    """When the player at `colour`, now to move, runs out of time: at a table, and only
    a person (the computer, also for a player who left, moves at once); else None.
    `first_move`: they have made no move of their own yet (Clock.allowance)."""
    seat = state.seat_of(colour)
    if state.kind != TABLE or seat is None or seat.played_by_computer:
        return None
    return state.clock.start_turn(now, seat.remaining, seat.lag, first_move).deadline


def is_due(state, now):
    """Whether the player to move is out of time at `now` (Clock.due_at)."""
    return state.clock.is_due(state.deadline, now)


def charge(state, colour, now, increment=True):
    """On a clock, a person's move at `now` charged to the clock of `colour`
    (Clock.charge; without the increment, Clock.stop). The state, changed or not."""
    seat = state.seat_of(colour) if colour else None
    if state.clock.control != CLOCK or seat is None or seat.played_by_computer:
        return state
    clock = state.clock
    spend = clock.charge if increment else clock.stop
    return state.with_seat(colour, remaining=spend(seat.remaining, seat.lag, state.turn_started_at, now))


def stop_clock(state, now):
    """The turn of the player to move ends without a move of theirs (a takeback, the
    game ending): the time their clock ran stays spent, with no increment."""
    return charge(state, state.turn, now, increment=False)


def give_back(state, outages):
    """The site's `outages` (oldest first, each with .start and .end) during the running
    turn are not its player's (Clock.give_back): the state with the turn moved, or None
    when nothing is owed."""
    if state.deadline is None or state.turn_started_at is None:
        return None
    seat = state.seat_of(state.turn)
    remaining = seat.remaining if seat is not None else None
    turn = state.clock.give_back(Turn(state.turn_started_at, state.deadline, remaining), outages)
    if turn is None:
        return None
    state = replace(state, turn_started_at=turn.started, deadline=turn.deadline)
    if seat is not None and turn.remaining is not None:
        state = state.with_seat(seat.colour, remaining=turn.remaining)
    return state
