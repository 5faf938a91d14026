"""The turn engine on its own (games.turn.engine.decide, docs/rules.md §4.1, §11): stories of
games told command by command, with an injected `now`; no Django, no database."""
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from games.rules import Board, Variant
from games.turn import commands as c
from games.turn.clock import CLOCK, DAYS, MOVE, RECONNECT, Clock
from games.turn.engine import decide
from games.turn.refusals import LATE, NOT_YOURS, REFUSED, STALE, Refused
from games.turn.state import COMPUTER, FINISHED, PLAYING, TABLE, WAITING, GameState, PlayedMove, SeatState

T = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)

MINUTE = Clock(MOVE, move_limit=60, move_grace=2)
BLITZ = Clock(CLOCK, total=180, increment=2, move_limit=60)
POST = Clock(DAYS, total=86400, move_limit=60)


def at(seconds):
    return T + timedelta(seconds=seconds)


def epoch(seconds):
    return round(at(seconds).timestamp(), 3)


class Outage:
    def __init__(self, start, end):
        self.start, self.end = start, end


def table(clock=MINUTE, players=2, computers=(), board="8x8", **fields):
    """A table's game just started at T: every seat a person's (or the computer's)."""
    variant = Variant(board=board, players=players)
    seats = tuple(SeatState(colour, occupant="" if colour in computers else f"user:{index}",
                            is_computer=colour in computers, display_name=f"P{index}")
                  for index, colour in enumerate(variant.colours, 1))
    waiting = GameState(variant=variant, clock=clock, seats=seats, kind=TABLE, status=WAITING, **fields)
    state, _events = decide(waiting, c.Start(), T)
    return state


def against_computer(human="black"):
    variant = Variant()
    seats = tuple(SeatState(colour, occupant="user:1" if colour == human else "", is_computer=colour != human)
                  for colour in variant.colours)
    return GameState(variant=variant, clock=MINUTE, seats=seats, kind=COMPUTER, turn="black", turn_started_at=T)


def played(state, *steps):
    """`state` after each (colour, square, seconds) step played by that person, or by
    the computer for a computer seat."""
    for colour, square, seconds in steps:
        seat = state.seat_of(colour)
        command = c.ComputerMove(square=square) if seat.played_by_computer else c.Play(by=colour, square=square)
        state, _events = decide(state, command, at(seconds))
    return state


def refused(state, command, seconds=0):
    with pytest.raises(Refused) as refusal:
        decide(state, command, at(seconds))
    return refusal.value


def types(produced):
    return [event["type"] for event in produced]


# -- moves -----------------------------------------------------------------------

def test_a_move_flips_and_gives_the_turn_to_the_other_player():
    state = table()
    assert state.turn == "black" and state.deadline == at(60)
    after, produced = decide(state, c.Play(by="black", square=" D3 "), at(5))
    assert produced == [
        {"type": "move", "ply": 1, "colour": "black", "square": "d3", "flips": ["d4"], "made_by": "player"},
        {"type": "turn", "colour": "white", "started": epoch(5), "deadline": epoch(65), "clocks": {}},
    ]
    assert after.moves == (PlayedMove(1, "black", "d3", ("d4",), "player"),)
    assert (after.turn, after.turn_started_at, after.deadline, after.version) == ("white", at(5), at(65), 0)
    assert state.moves == ()  # the state given is never changed


def test_only_the_player_to_move_plays_and_only_legal_squares():
    state = table()
    assert refused(state, c.Play(by="white", square="c4")).kind == NOT_YOURS
    assert str(refused(state, c.Play(by=None, square="d3"))) == "It is not your turn."
    illegal = refused(state, c.Play(by="black", square="a1"))
    assert (illegal.kind, illegal.message, illegal.params) == (REFUSED, "%(square)s is not a legal move.",
                                                               {"square": "a1"})
    left = decide(state, c.Leave(by="black"), at(1))[0]
    assert str(refused(left, c.Play(by="black", square="d3"))) == "The computer plays this seat now."


def test_a_game_not_running_refuses_moves():
    waiting = replace(table(), status=WAITING)
    assert str(refused(waiting, c.Play(by="black", square="d3"))) == "This game has not started yet."
    over = replace(table(), status=FINISHED)
    assert str(refused(over, c.Play(by="black", square="d3"))) == "This game is over."


def test_a_move_after_the_grace_is_late_and_the_computer_moves_for_them():
    state = table()
    decide(state, c.Play(by="black", square="d3"), at(61.9))  # within the grace
    late = refused(state, c.Play(by="black", square="d3"), 62)
    assert (late.kind, late.deadline) == (LATE, at(60))
    assert str(late) == "Your time for this move ran out; the computer moves for you."
    assert refused(state, c.TimeOut(square="d3"), 61).kind == STALE  # not due yet
    after, produced = decide(state, c.TimeOut(square="d3"), at(62))
    assert produced[0]["made_by"] == "timeout" and after.turn == "white"


def test_on_a_clock_the_move_is_charged_with_increment_and_lag_credit():
    state = table(BLITZ)
    assert [seat.remaining for seat in state.seats] == [180.0, 180.0]
    assert state.deadline == at(60)  # a first move has at most a minute
    state = state.with_seat("black", lag=0.4)
    after, produced = decide(state, c.Play(by="black", square="d3"), at(10))
    assert after.seat_of("black").remaining == 180 - 9.6 + 2
    assert produced[-1]["clocks"] == {"black": 172.4, "white": 180.0}
    assert after.deadline == at(70)  # white's first move: a minute too
    after = played(after, ("white", "c3", 20), ("black", "c4", 30))
    assert after.deadline == at(30 + after.seat_of("white").remaining)  # now their whole clock
    late = refused(table(BLITZ), c.Play(by="black", square="d3"), 60)
    assert (late.kind, str(late)) == (LATE, "Your time ran out.")


def test_the_computer_plays_its_seat_and_a_leavers_seat_uncharged():
    state = table(BLITZ, computers=("white",))
    state = played(state, ("black", "d3", 3))
    assert state.deadline is None  # the computer moves at once
    assert refused(state, c.Play(by="white", square="c3")).kind == NOT_YOURS
    after, produced = decide(state, c.ComputerMove(square="c3"), at(4))
    assert produced[0]["made_by"] == "computer" and after.seat_of("white").remaining == 180.0
    assert refused(after, c.ComputerMove(square="c4")).kind == STALE  # a person is to move


def test_a_side_without_a_move_passes_by_itself():
    # 6x6: black fills... a position where white has no answer after black's move
    board = Board(Variant(board="6x6"))
    state = table(board="6x6")
    squares = []
    while True:  # play the first legal move until a move forces a pass
        moves = board.legal_moves
        for square in moves:
            trial = board.copy()
            trial.push(square)
            if trial.legal_moves == ["pass"]:
                squares.append(square)
                board = trial
                break
        else:
            squares.append(moves[0])
            board.push(moves[0])
            continue
        break
    for square in squares[:-1]:
        state = played(state, (state.turn, square, 1))
    mover = state.turn
    after, produced = decide(state, c.Play(by=mover, square=squares[-1]), at(2))
    passes = [event for event in produced if event["type"] == "pass"]
    assert passes and passes[0]["made_by"] == "auto" and passes[0]["colour"] != mover
    assert after.moves[-1].square == "pass" and after.moves[-1].made_by == "auto"
    if after.status == PLAYING:
        assert after.turn == mover and produced[-1]["type"] == "turn"
