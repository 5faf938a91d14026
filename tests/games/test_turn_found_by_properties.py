"""Small examples the random tests (test_turn_properties.py, test_turn_exhaustive.py)
first found against the turn engine: a start with a free seat, a flag at 60 s a move,
and a flag's turn start after an outage given back."""
from datetime import timedelta

import pytest

from games.rules import Variant
from games.turn import commands as c
from games.turn import state as s
from games.turn.clock import CLOCK, MOVE, Clock
from games.turn.engine import decide
from games.turn.refusals import Refused

from .turn_states import T0, Outage, person, started_at_position, table_game

SIX = Variant(board="6x6")
MINUTE = Clock(MOVE, move_limit=60, move_grace=2)
BLITZ = Clock(CLOCK, total=180, increment=2, move_limit=60)


def test_start_is_refused_while_a_seat_is_free():
    """commands.Start: "Every seat is taken"; games.seating starts a game only when the
    last seat is taken, so a game never plays with a free seat."""
    waiting = table_game(SIX, BLITZ, (person(1), ""))
    with pytest.raises(Refused):
        decide(waiting, c.Start(), T0)


def test_at_sixty_seconds_a_move_a_flag_is_refused():
    """docs/rules.md §11.3: at 60 seconds a move the computer makes the move of one whose
    time ran out (TimeOut), first move or not; only a clock or correspondence days flag
    (commands.Flag), and games.services.timeout_move never flags at 60 s a move."""
    game = started_at_position(table_game(SIX, MINUTE, (person(1), person(2))), (), T0)
    due = MINUTE.due_at(game.deadline) + timedelta(seconds=1)
    with pytest.raises(Refused):
        decide(game, c.Flag(), due)
    assert decide(game, c.TimeOut(square="c2"), due)[0].moves[0].made_by == s.BY_TIMEOUT


def test_a_flag_after_an_outage_tells_the_turn_start_the_state_keeps():
    """The events tell what the new state holds (games.turn.engine): of three, a player
    out of time once an outage is given back is out like a leaver, and the "turn" event
    of the computer's taking over says the turn began at 12:00:16 (10 s after the site is back) (the outage given
    back) while the state keeps 12:00:00 -- one of the two is wrong."""
    game = table_game(Variant(board="8x8", players=3), Clock(CLOCK, total=20, increment=5, move_limit=60),
                      (person(1), person(2), person(3)))
    game = started_at_position(game, ("e6", "c3", "d3"), T0)  # each has moved: black is to move
    outage = Outage(T0 + timedelta(seconds=5), T0 + timedelta(seconds=6))
    new, events = decide(game, c.Flag(outages=(outage,)), T0 + timedelta(seconds=45))
    assert new.forfeited == ("black",)
    turn = [event for event in events if event["type"] == "turn"][-1]
    assert turn["started"] == round(new.turn_started_at.timestamp(), 3)
