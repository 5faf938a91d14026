"""Stories of games for the turn engine's tests (test_turn_*.py): a table's game just
started at T, a game against the computer, steps played at injected times, a refusal;
no Django, no database."""
from datetime import datetime, timedelta, timezone

import pytest

from games.rules import Variant
from games.turn import commands as c
from games.turn.clock import CLOCK, DAYS, MOVE, Clock
from games.turn.engine import decide
from games.turn.refusals import Refused
from games.turn.state import COMPUTER, TABLE, WAITING, GameState, SeatState

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


WIPEOUT = ["f5", "d6", "c5", "f4", "e7", "f6", "g5", "e6", "e3"]  # Black takes every stone at move 9


def wiped_out(state, upto=8):
    colours = ["black", "white"] * 5
    return played(state, *[(colours[i], WIPEOUT[i], i + 1) for i in range(upto)])
