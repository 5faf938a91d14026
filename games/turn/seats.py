"""A table's seats and its start, and what a player's page tells about their seat: the
board shown for the first time (a first move's time on a clock starts then) and the
measured lag (their lag credit on a clock)."""
from dataclasses import replace

from games.turn import events, timing
from games.turn.checks import person_seat
from games.turn.clock import CLOCK
from games.turn.record import last_own_move
from games.turn.refusals import NOT_YOURS, Refused, _
from games.turn.state import FINISHED, PLAYING, WAITING


def take_seat(state, command, now):
    """`occupant` sits at `colour`, or at the first free seat; the last seat taken
    starts the game."""
    if state.status == FINISHED:
        raise Refused(_("This game is over."))
    if state.status != WAITING:
        raise Refused(_("This table is full and already playing. You can watch it."))
    if state.seat_of_occupant(command.occupant) is not None:
        raise Refused(_("You already have a seat at this table."))
    free = [seat for seat in state.seats if seat.is_free]
    if command.colour:
        seat = state.seat_of(command.colour)
        if seat is None:
            raise Refused(_("This table has no such seat."))
        if seat not in free:
            # `colour` is a colour's key: the page names it in its language (games.presentation.colour_name).
            raise Refused(_("The %(colour)s seat is taken. Choose another."), colour=command.colour)
    elif free:
        seat = free[0]
    else:
        raise Refused(_("This table is full."))
    state = state.with_seat(seat.colour, occupant=command.occupant, name=command.name)
    produced = [events.seat(seat.colour, True)]
    if len(free) == 1:
        state, started = start(state, command, now)
        produced += started
    return state, produced


def give_seat_back(state, command, now):
    """Before the start, `occupant`'s seat (or `by`'s) is free again. When nobody is
    seated any more the writer closes the waiting game."""
    if state.status != WAITING:
        raise Refused(_("The game has started meanwhile. Reload the page to leave it."))
    seat = state.seat_of_occupant(command.occupant) if command.occupant else person_seat(state, command.by)
    if seat is None:
        raise Refused(_("You have no seat at this table."), NOT_YOURS)
    state = state.with_seat(seat.colour, occupant="", name="")
    return state, [events.seat(seat.colour, False)]


def start(state, command, now):
    """Every seat is taken: the first colour is to move, every clock full (stale unless
    the game waits and nobody's seat is free)."""
    if state.status != WAITING or any(seat.is_free for seat in state.seats):
        raise Refused.stale()
    remaining = state.clock.starting_remaining()
    if remaining is not None:
        state = replace(state, seats=tuple(replace(seat, remaining=remaining) for seat in state.seats))
    first = state.board.turn
    state = replace(state, status=PLAYING, turn=first, turn_started_at=now)
    state = replace(state, deadline=timing.deadline_for(state, first, now, first_move=True))
    return state, [{"type": "start"}, events.turn(state)]


def show_board(state, command, now):
    """On a clock, `by`'s page shows the running game for the first time: noted once;
    when they are to make their first move and still in time, its time starts now.
    Noting it alone is not shown to anyone: no events."""
    seat = person_seat(state, command.by)
    if state.clock.control != CLOCK or seat is None or seat.board_shown_at is not None:
        return state, []
    state = state.with_seat(seat.colour, board_shown_at=now)
    if state.status != PLAYING or state.turn != seat.colour or timing.is_due(state, now):
        return state, []
    if seat.played_by_computer or last_own_move(state.moves, seat.colour) is not None:
        return state, []
    state = replace(state, turn_started_at=now)
    state = replace(state, deadline=timing.deadline_for(state, seat.colour, now, first_move=True))
    return state, [events.turn(state)]


def record_lag(state, command, now):
    """The round trip just measured on `by`'s game socket: their lag credit on a clock
    from their next turn on. Not shown to anyone: no events."""
    seat = person_seat(state, command.by)
    if seat is None or state.clock.control != CLOCK:
        return state, []
    return state.with_seat(seat.colour, lag=round(max(0.0, command.seconds), 3)), []
