"""The Clock on its own (games.turn.clock, docs/rules.md §11.3): plain values and an injected
`now`, no Django, no database."""
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.turn.clock import CLOCK, DAYS, MAX_LAG_CREDIT, MOVE, RECONNECT, Clock, Turn

T = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)


def at(seconds):
    return T + timedelta(seconds=seconds)


class Outage:
    def __init__(self, start, end):
        self.start, self.end = start, end


MINUTE = Clock(MOVE, move_limit=60, move_grace=2)
BLITZ = Clock(CLOCK, total=180, increment=2, move_limit=60)
BULLET = Clock(CLOCK, total=60, increment=0, move_limit=60)
POST = Clock(DAYS, total=2 * 86400, move_limit=60)


# Every time control, each sum by hand.

def test_sixty_seconds_a_move():
    turn = MINUTE.start_turn(at(0), remaining=None, lag=0.8)
    assert turn == Turn(at(0), at(60), None)  # no lag credit: the grace serves
    assert MINUTE.grace == timedelta(seconds=2)
    assert MINUTE.due_at(turn.deadline) == at(62)
    assert not MINUTE.is_due(turn.deadline, at(61.9)) and MINUTE.is_due(turn.deadline, at(62))
    assert MINUTE.starting_remaining() is None
    assert MINUTE.allowance(None, first_move=True) == 60


def test_a_clock():
    assert BLITZ.starting_remaining() == 180.0
    first = BLITZ.start_turn(at(0), remaining=180, lag=0.4, first_move=True)
    assert first.deadline == at(60.4)  # a first move: at most a minute, plus the lag credit
    later = BLITZ.start_turn(at(0), remaining=100, lag=3)
    assert later.deadline == at(101)  # the credit is at most MAX_LAG_CREDIT
    assert BLITZ.grace == timedelta(0) and BLITZ.due_at(later.deadline) == at(101)
    assert BLITZ.charge(100, 0.5, at(0), at(10.5)) == 100 - 10 + 2
    assert BLITZ.charge(100, 0.5, at(0), at(0.2)) == 102  # within the credit: nothing spent
    assert BLITZ.stop(100, 0.5, at(0), at(10.5)) == 90  # stopped: no increment
    assert BLITZ.charge(5, 0, at(0), at(50)) == 2  # never below 0, then the increment
    assert BLITZ.charge(100, 0, None, at(50)) == 102  # no turn start: nothing spent


def test_a_first_move_with_less_than_a_minute_left_has_its_clock():
    assert BULLET.allowance(30, first_move=True) == 30
    assert BULLET.first_move_due(30, at(0)) == at(30)
    assert BULLET.first_move_due(300, at(0)) == at(60)


def test_correspondence():
    turn = POST.start_turn(at(0), remaining=None, lag=1)
    assert turn.deadline == at(2 * 86400) and POST.grace == timedelta(0)
    assert POST.at_turn_start(None, turn.started, turn.deadline) == 2 * 86400
    assert POST.shown(None, turn.started, turn.deadline, turn.deadline, running=True) == 0
    assert POST.shown(None, turn.started, turn.deadline, at(86400), running=True) == 86400
    assert POST.at_turn_start(None, None, None) is None  # not their turn: nothing to show


def test_time_shown():
    assert BLITZ.shown(100, at(0), at(101), at(30), running=True) == 70
    assert BLITZ.shown(100, at(0), at(101), at(30), running=False) == 100
    assert BLITZ.shown(100, at(0), at(101), at(500), running=True) == 0
    assert BLITZ.shown(100, at(0), at(101), at(100), running=True) == 0  # the lag credit is not shown
    assert BLITZ.shown(100, at(0), at(101), at(-5), running=True) == 100  # not started yet: not running down


def test_downtime_is_given_back_once_for_every_time_control():
    outage = [Outage(at(-60), at(0))]
    for clock, remaining, total in ((MINUTE, None, 60), (POST, None, 2 * 86400), (BLITZ, 100, 100)):
        turn = clock.start_turn(at(-80), remaining=remaining)
        back = clock.give_back(turn, outage)
        assert back.started == at(RECONNECT)
        assert back.deadline == at(RECONNECT) + timedelta(seconds=total - 20)
        assert back.remaining == (80 if clock is BLITZ else None)
        assert clock.give_back(back, outage) is None


def test_one_already_due_when_the_site_went_down_gets_nothing():
    turn = BULLET.start_turn(at(-125), remaining=60)  # out of time 5 s before the outage
    assert BULLET.give_back(turn, [Outage(at(-60), at(0))]) is None


def test_outages_before_the_turn_are_not_given_back():
    turn = BULLET.start_turn(at(10), remaining=60)
    assert BULLET.give_back(turn, [Outage(at(-60), at(0))]) is None


# Properties, over every time control and any values.

seconds = st.floats(min_value=0, max_value=4000, allow_nan=False, allow_infinity=False)
lags = st.one_of(st.none(), st.floats(min_value=-5, max_value=10, allow_nan=False))
clocks = st.one_of(
    st.builds(Clock, st.just(MOVE), move_limit=st.sampled_from([60.0, 30.0]), move_grace=st.sampled_from([0.0, 2.0])),
    st.builds(Clock, st.just(CLOCK), total=st.integers(60, 3600), increment=st.integers(0, 60),
              move_limit=st.just(60.0)),
    st.builds(Clock, st.just(DAYS), total=st.sampled_from([86400, 2 * 86400, 3 * 86400, 7 * 86400])),
)
on_a_clock = st.builds(Clock, st.just(CLOCK), total=st.integers(60, 3600), increment=st.integers(0, 60),
                       move_limit=st.just(60.0))


@given(clocks, seconds, seconds, seconds, st.booleans())
def test_the_time_shown_is_never_negative(clock, remaining, elapsed, later, running):
    turn = clock.start_turn(at(0), remaining=remaining)
    assert clock.shown(remaining, turn.started, turn.deadline, at(elapsed + later), running) >= 0
    assert clock.shown(remaining, turn.started, turn.deadline, at(-later), running) >= 0


@given(on_a_clock, seconds, lags, st.booleans())
def test_a_move_at_the_deadline_leaves_nothing_but_the_increment(clock, remaining, lag, first_move):
    turn = clock.start_turn(at(0), remaining=remaining, lag=lag, first_move=first_move)
    left = clock.charge(remaining, lag, turn.started, turn.deadline)
    expected = (remaining - clock.allowance(remaining, first_move)) + clock.increment
    assert left == pytest.approx(expected, abs=1e-5)
    if not first_move:
        assert left == pytest.approx(clock.increment, abs=1e-5)


@given(on_a_clock, seconds, lags, seconds)
def test_stopping_never_adds_the_increment(clock, remaining, lag, elapsed):
    stopped = clock.stop(remaining, lag, at(0), at(elapsed))
    assert 0 <= stopped <= remaining
    assert clock.charge(remaining, lag, at(0), at(elapsed)) == pytest.approx(stopped + clock.increment)


@given(on_a_clock, seconds, lags, seconds, seconds)
def test_charging_takes_off_the_time_spent_less_the_lag_credit(clock, remaining, lag, spent, more):
    assert clock.charge(remaining, lag, at(0), at(spent)) >= clock.charge(remaining, lag, at(0), at(spent + more))
    credit = Clock.lag_credit(lag)
    assert 0 <= credit <= MAX_LAG_CREDIT
    if spent > credit and remaining > spent:  # (instants are whole microseconds)
        assert clock.stop(remaining, lag, at(0), at(spent)) == pytest.approx(remaining - (spent - credit), abs=1e-5)


@given(clocks, seconds, lags, st.booleans(), seconds)
def test_the_flag_falls_at_the_turn_start_plus_the_time_plus_the_credit_plus_the_grace(
        clock, remaining, lag, first_move, start):
    turn = clock.start_turn(at(start), remaining=remaining, lag=lag, first_move=first_move)
    credit = Clock.lag_credit(lag) if clock.control == CLOCK else 0.0
    expected = at(start) + timedelta(seconds=clock.allowance(remaining, first_move) + credit) + clock.grace
    assert clock.due_at(turn.deadline) == expected
    assert not clock.is_due(turn.deadline, expected - timedelta(milliseconds=1))
    assert clock.is_due(turn.deadline, expected)
    if clock.control == CLOCK and not first_move:  # the clock shows 0 the credit before the flag
        zero = turn.deadline - timedelta(seconds=credit)
        assert clock.shown(remaining, turn.started, turn.deadline, zero, running=True) == pytest.approx(0, abs=1e-5)


@given(on_a_clock, seconds, lags, seconds, seconds, st.booleans())
def test_a_takeback_restarts_the_turn_consistently(clock, remaining, lag, ran, agreed, first_move):
    """The interrupted turn is stopped at the agreement and the requester's starts
    there: the clock shown and the flag both count from that instant."""
    before = clock.start_turn(at(0), remaining=remaining, lag=lag)
    interrupted = clock.stop(remaining, lag, before.started, at(ran))
    assert interrupted <= remaining
    restart = at(ran + agreed)
    turn = clock.start_turn(restart, remaining=remaining, lag=lag, first_move=first_move)
    assert turn.started == restart
    assert turn.deadline - turn.started == timedelta(
        seconds=clock.allowance(remaining, first_move) + Clock.lag_credit(lag))
    assert clock.shown(remaining, turn.started, turn.deadline, restart, running=True) == pytest.approx(
        max(0.0, remaining))
    assert clock.charge(remaining, lag, turn.started, restart) == pytest.approx(remaining + clock.increment)


outages = st.lists(st.tuples(st.floats(-500, 500, allow_nan=False), st.floats(0.5, 300, allow_nan=False)),
                   max_size=4).map(lambda spans: [Outage(at(s), at(s + length))
                                                  for s, length in sorted(spans)])


@given(clocks, seconds, lags, st.floats(-600, 0, allow_nan=False), outages)
def test_the_downtime_credit_is_given_once_and_never_takes_time(clock, remaining, lag, start, down):
    turn = clock.start_turn(at(start), remaining=remaining, lag=lag)
    back = clock.give_back(turn, down)
    if back is None:
        return
    assert clock.give_back(back, down) is None  # once
    assert back.started >= turn.started and back.deadline >= turn.deadline
    assert back.started - timedelta(seconds=RECONNECT) in [outage.end for outage in down]
    # From the outage's end until the turn starts again the clock shows what it had
    # left when the site went, no more, and it runs from the restart on.
    held = clock.at_turn_start(back.remaining, back.started, back.deadline)
    for instant in (back.started - timedelta(seconds=RECONNECT), back.started):
        assert clock.shown(back.remaining, back.started, back.deadline, instant, running=True) == held
    assert clock.shown(back.remaining, back.started, back.deadline, back.started + timedelta(seconds=1),
                       running=True) == pytest.approx(max(0.0, held - 1))
    if clock.control == CLOCK:
        assert 0 <= back.remaining <= remaining
        # The time the turn had left when it restarts is what it had when the site went:
        # its clock and its lag credit, or, a clock already run down, what was left of
        # the credit alone.
        left = (back.deadline - back.started).total_seconds()
        if back.remaining > 0:
            assert left == pytest.approx(back.remaining + Clock.lag_credit(lag), abs=1e-6)
        else:
            assert left <= Clock.lag_credit(lag) + 1e-6
    else:
        assert back.remaining is None

