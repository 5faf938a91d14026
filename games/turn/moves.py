"""Moves: a person's, the computer's for its seat or a leaver's, the computer's for a
player whose 60 seconds ran out, and Undo against the computer."""
from dataclasses import replace

from games.rules import IllegalMoveError
from games.turn import events, timing
from games.turn.checks import running
from games.turn.clock import MOVE
from games.turn.endings import flag
from games.turn.ranking import winner_with_forfeits
from games.turn.record import last_own_move, undo_refusal
from games.turn.refusals import LATE, NOT_YOURS, REFUSED, Refused, _
from games.turn.state import (
    BY_AUTO, BY_COMPUTER, BY_LEAVER, BY_PLAYER, BY_TIMEOUT, COMPUTER, FINISHED, FORFEIT, NORMAL, PLAYING,
    PlayedMove,
)


def play(state, command, now):
    """A person plays `square` for their seat, the seat to move: not the computer's,
    and not after their time (LATE: a worker makes their time-out). The site's outages
    in their turn are given back first (command.outages)."""
    running(state)
    seat = state.seat_of(state.turn)
    if seat is None or command.by is None or seat.colour != command.by:
        raise Refused(_("It is not your turn."), NOT_YOURS)
    if seat.played_by_computer:
        raise Refused(_("The computer plays this seat now."), NOT_YOURS)
    given = timing.give_back(state, command.outages) or state
    if timing.is_due(given, now):
        if state.clock.control == MOVE:
            raise Refused(_("Your time for this move ran out; the computer moves for you."), LATE,
                          deadline=given.deadline)
        raise Refused(_("Your time ran out."), LATE, deadline=given.deadline)
    new, produced = apply_move(given, command.square, now, BY_PLAYER)
    if new.status == FINISHED:  # the turn given back is not stored when the game ends
        new = replace(new, turn_started_at=state.turn_started_at)
    return new, produced


def computer_move(state, command, now):
    """The computer's chosen square for the seat to move, if the computer plays it (a
    computer seat, or a player who left); stale otherwise (the game moved on or ended)."""
    seat = state.seat_of(state.turn) if state.status == PLAYING else None
    if seat is None or not seat.played_by_computer:
        raise Refused.stale()
    return apply_move(state, command.square, now, BY_LEAVER if seat.left_at else BY_COMPUTER)


def time_out(state, command, now):
    """At 60 s a move, the player to move is due (stale unless they are, the site's
    outages given back): the computer plays `square` for them. On a clock or in
    correspondence a time-out is a Flag."""
    if state.clock.control != MOVE:
        return flag(state, command, now)
    if state.status != PLAYING or not timing.is_due(timing.give_back(state, command.outages) or state, now):
        raise Refused.stale()
    return apply_move(state, command.square, now, BY_TIMEOUT)


def apply_move(state, square, now, made_by):
    """`square` played for the side to move, the passes that follow by themselves, the
    mover's clock charged, the offers that lapse, and the next turn or the end."""
    square = str(square).strip().lower()
    board = state.board.copy()
    colour = board.turn
    try:
        board.push(square)
    except IllegalMoveError:
        raise Refused(_("%(square)s is not a legal move."), square=square) from None
    ply = state.ply
    played = [PlayedMove(ply + 1, colour, square, tuple(board.last_flips), made_by)]
    while board.legal_moves == ["pass"]:  # a two-player side with no move passes by itself
        played.append(PlayedMove(ply + len(played) + 1, board.turn, "pass", (), BY_AUTO))
        board.push("pass")
    # Charged before the next turn: a pass may give the mover the turn again.
    state = timing.charge(state, colour, now)  # a person's move on a clock only
    state = replace(state, moves=state.moves + tuple(played))
    produced = [events.move(move) for move in played]
    if state.draw_offer and state.draw_offer != colour:  # the offerer's opponent moved: it lapses
        produced.append(events.offer_ended("draw", state.draw_offer, "lapsed"))
        state = replace(state, draw_offer="")
    if state.takeback_request:  # asked of the position before this move: it lapses
        produced.append(events.offer_ended("takeback", state.takeback_request, "lapsed"))
        state = replace(state, takeback_request="")
    outcome = board.outcome()
    if outcome is None:
        first_move = last_own_move(state.moves, board.turn) is None
        state = replace(state, turn=board.turn, turn_started_at=now)
        state = replace(state, deadline=timing.deadline_for(state, board.turn, now, first_move=first_move))
        return state, produced + [events.turn(state)]
    state = replace(state, turn="", deadline=None, status=FINISHED, ending=FORFEIT if state.forfeited else NORMAL,
                    winner=winner_with_forfeits(state.forfeited, outcome) or "", counts=outcome.counts,
                    score=outcome.score, finished_at=now)
    return state, produced + [events.end(state)]


def undo(state, command, now):
    """Against the computer: `by`'s last move and every computer answer after it are
    taken back; a finished game plays on (and is private again)."""
    seat = state.seat_of(command.by) if command.by else None
    refusal = undo_refusal(state, seat)
    if refusal:
        raise Refused(refusal, NOT_YOURS if state.kind == COMPUTER and seat is None else REFUSED)
    keep = last_own_move(state.moves, seat.colour).ply - 1
    state = replace(state, moves=state.moves[:keep], turn=seat.colour, status=PLAYING, deadline=None, ending="",
                    winner="", counts={}, score={}, finished_at=None, is_public=False)
    return state, [{"type": "undo", "ply": keep}, events.turn(state)]
