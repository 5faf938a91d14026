"""A game ended before its board is, and the players who leave it (docs/rules.md
§4.1, §11.3, §11.4): resigned, aborted, a win claimed against a gone player, lost on
time, abandoned for a new game; a leaver, a flagged player of three or four, a gone
player the computer takes over from. Every ending stops the running clock (Clock.stop)."""
from dataclasses import replace

from games.turn import events, timing
from games.turn.clock import MOVE
from games.turn.checks import opponent_gone, person_seat, running_seat
from games.turn.record import abortable, last_own_move
from games.turn.refusals import Refused, _
from games.turn.state import (
    ABANDONED, ABORTED, CLAIMED, COMPUTER, FINISHED, PLAYING, RESIGNED, TIME,
)


def end_now(state, now, ending, outcome=None, counts=None, **also):
    """The game finished at `now` with `ending` and `outcome` (Board.decided; None: won
    by nobody, the stones as they stand or `counts`): the clock of the player to move
    stops as it stands, a standing draw offer lapses. `also`: more fields."""
    state = timing.stop_clock(state, now)
    produced = []
    if state.draw_offer:
        produced.append(events.offer_ended("draw", state.draw_offer, "lapsed"))
    if outcome is None:
        result = {"winner": "", "counts": counts if counts is not None else state.board.counts(), "score": {}}
    else:
        result = {"winner": outcome.winner or "", "counts": outcome.counts, "score": outcome.score}
    state = replace(state, status=FINISHED, turn="", deadline=None, draw_offer="", finished_at=now,
                    ending=ending, **result, **also)
    return state, produced + [events.end(state)]


def forfeit(state, colour, now, flagged=False):
    """The player at `colour` is out for good (they left, ran out of time in a game of
    three or four, or were gone and the computer took over): they lose, ranked last,
    and the computer plays their seat to the end. The clocks are not touched."""
    seat = state.seat_of(colour)
    state = state.with_seat(colour, left_at=seat.left_at or now)
    changes = {"forfeited": (*state.forfeited, colour)}
    if flagged:
        changes["flagged"] = (*state.flagged, colour)
    their_turn = state.turn == colour
    if their_turn:
        changes["deadline"] = None  # no time-out: the computer moves for them now
    state = replace(state, **changes)
    produced = [events.leave(colour, flagged)]
    if their_turn:
        produced.append(events.turn(state))
    return state, produced


def resign(state, command, now):
    """Two players: `by` loses now (Board.decided). Three or four: a leave."""
    if state.variant.players > 2:
        return leave(state, command, now)
    seat = running_seat(state, command.by)
    opponent_gone(state, seat)
    return end_now(state, now, RESIGNED, state.board.decided(seat.colour))


def leave(state, command, now):
    """`by` leaves the running game: they lose, the computer plays on for them."""
    seat = running_seat(state, command.by)
    return forfeit(state, seat.colour, now)


def abort(state, command, now):
    """Before every player has moved: ended aborted, won by nobody, not rated."""
    running_seat(state, command.by)
    if not abortable(state.variant.colours, state.moves):
        raise Refused(_("Too late to abort: every player has moved. You can resign instead."))
    return end_now(state, now, ABORTED)


def flag(state, command, now):
    """The player to move is out of their clock or days, once the site's outages in
    their turn are given back (stale otherwise): before their first move the game is
    aborted; of two they lose on time; of three or four they are out like a leaver.
    At 60 s a move nobody flags: the computer moves for them (TimeOut)."""
    if state.status != PLAYING or state.clock.control == MOVE:
        raise Refused.stale()
    started = state.turn_started_at
    given = timing.give_back(state, getattr(command, "outages", ()))
    current = given or state
    if not timing.is_due(current, now):
        raise Refused.stale()
    colour = current.turn
    if last_own_move(current.moves, colour) is None:
        state, produced = end_now(current, now, ABORTED)
    else:
        if current.seat_of(colour).remaining is not None:  # their clock shows nothing left
            current = current.with_seat(colour, remaining=0.0)
        if state.variant.players > 2:
            state, produced = forfeit(current, colour, now, flagged=True)
        else:
            state, produced = end_now(current, now, TIME, current.board.decided(colour), flagged=(colour,))
    if state.status == FINISHED:  # the turn given back counted for the flag; an ended game keeps its stored start
        state = replace(state, turn_started_at=started)
    return state, produced


def _gone_to_move(state, by, gone_for, needed):
    """The seat of the player to move, gone long enough for `by` (another player of the
    game) to act for the game, or the refusal."""
    seat = running_seat(state, by)
    to_move = state.seat_of(state.turn)
    if to_move is None or to_move.colour == seat.colour or to_move.played_by_computer:
        raise Refused(_("Only the absence of the player to move can be claimed."))
    who = to_move.display_name or to_move.name or to_move.colour
    if gone_for <= 0:
        raise Refused(_("%(who)s is here."), who=who)
    wait = needed - gone_for
    if wait > 0:
        raise Refused(_("%(who)s has not been gone long enough yet: %(n)d s to wait."), who=who, n=int(wait) + 1)
    return to_move


def claim_win(state, command, now):
    """Two players: the opponent to move is gone; `by` wins (Board.decided)."""
    if state.variant.players != 2:
        raise Refused(_("The win is claimed in two-player games only: let the computer play for them."))
    gone = _gone_to_move(state, command.by, command.gone_for, command.needed)
    return end_now(state, now, CLAIMED, state.board.decided(gone.colour))


def computer_for_gone(state, command, now):
    """The player to move is gone: the computer plays their seat from now on, and they
    rank last (a leave of theirs)."""
    gone = _gone_to_move(state, command.by, command.gone_for, command.needed)
    return forfeit(state, gone.colour, now)


def abandon(state, command, now):
    """Against the computer, New Game: the running game ends abandoned, won by nobody.
    Nothing happens (no events) to a game that is over or not the person's."""
    if state.kind != COMPUTER or person_seat(state, command.by) is None or state.status != PLAYING:
        return state, []
    return end_now(state, now, ABANDONED)

