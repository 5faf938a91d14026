"""What two players agree: a draw, or taking back a move at a casual table.

A draw offer stands until it is answered or the offerer's opponent moves; a player
offers at most once every DRAW_OFFER_EVERY plies. A takeback request stands until it
is answered or anyone moves (games.turn.moves lets both lapse); granted, the
requester's last move and every move after it are undone and their turn begins now."""
from dataclasses import replace

from games.turn import events, timing
from games.turn.checks import opponent_gone, two_player_seat
from games.turn.endings import end_now
from games.turn.record import last_own_move
from games.turn.refusals import Refused, _
from games.turn.state import AGREED

# A player offers a draw at most once in this many plies.
DRAW_OFFER_EVERY = 10


def offer_draw(state, command, now):
    seat = two_player_seat(state, command.by)
    opponent_gone(state, seat)
    if state.draw_offer == seat.colour:
        raise Refused(_("You have offered a draw already; wait for the answer."))
    if state.draw_offer:
        raise Refused(_("Your opponent offers you a draw: accept or decline it."))
    last = state.draw_offers.get(seat.colour)
    if last is not None and state.ply - last < DRAW_OFFER_EVERY:
        raise Refused(_("You may make at most one draw offer every %(n)d moves."), n=DRAW_OFFER_EVERY)
    state = replace(state, draw_offer=seat.colour, draw_offers={**state.draw_offers, seat.colour: state.ply})
    return state, [events.offer("draw", seat.colour)]


def _draw_offer_to(state, by):
    seat = two_player_seat(state, by)
    if not state.draw_offer or state.draw_offer == seat.colour:
        raise Refused(_("There is no draw offer of your opponent to answer."))
    return state.draw_offer


def accept_draw(state, command, now):
    """The game ends drawn by agreement (Board.decided(None))."""
    offerer = _draw_offer_to(state, command.by)
    state, produced = end_now(replace(state, draw_offer=""), now, AGREED, state.board.decided(None))
    return state, [events.offer_ended("draw", offerer, "accepted")] + produced


def decline_draw(state, command, now):
    offerer = _draw_offer_to(state, command.by)
    return replace(state, draw_offer=""), [events.offer_ended("draw", offerer, "declined")]


def request_takeback(state, command, now):
    seat = two_player_seat(state, command.by, takeback=True)
    if state.rated:
        raise Refused(_("Moves cannot be taken back at a rated table."))
    opponent_gone(state, seat)
    if state.takeback_request == seat.colour:
        raise Refused(_("You have asked already; wait for the answer."))
    if state.takeback_request:
        raise Refused(_("Your opponent asks to take back a move: accept or decline it."))
    if last_own_move(state.moves, seat.colour) is None:
        raise Refused(_("There is no move of yours to take back."))
    return replace(state, takeback_request=seat.colour), [events.offer("takeback", seat.colour)]


def _takeback_asked_of(state, by):
    seat = two_player_seat(state, by, takeback=True)
    if not state.takeback_request or state.takeback_request == seat.colour:
        raise Refused(_("There is no takeback request of your opponent to answer."))
    return state.takeback_request


def accept_takeback(state, command, now):
    """The turn it interrupts ends (its clock stopped) and the requester's begins now;
    taken back to before their first move, that move's own limit holds again."""
    colour = _takeback_asked_of(state, command.by)
    keep = last_own_move(state.moves, colour).ply - 1
    state = timing.stop_clock(state, now)
    moves = state.moves[:keep]
    state = replace(state, moves=moves, turn=colour, turn_started_at=now, takeback_request="")
    first_move = last_own_move(moves, colour) is None
    state = replace(state, deadline=timing.deadline_for(state, colour, now, first_move=first_move))
    return state, [events.offer_ended("takeback", colour, "accepted"), {"type": "takeback", "ply": keep},
                   events.turn(state)]


def decline_takeback(state, command, now):
    colour = _takeback_asked_of(state, command.by)
    return replace(state, takeback_request=""), [events.offer_ended("takeback", colour, "declined")]
