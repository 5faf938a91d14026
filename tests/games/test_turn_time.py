"""The turn engine and time (docs/rules.md §4.1, §11): a flag on a clock, in
correspondence, before the first move and in a game of three; the site's downtime given
back to the player to move."""
from datetime import timedelta

from games.rules import Board, Variant
from games.turn import commands as c
from games.turn.clock import RECONNECT
from games.turn.engine import decide
from games.turn.refusals import LATE, STALE
from games.turn.state import PLAYING

from .turn_stories import BLITZ, POST, T, Outage, at, epoch, played, refused, table


# -- running out of time -----------------------------------------------------------

def test_on_a_clock_a_flag_loses_on_time():
    state = played(table(BLITZ), ("black", "d3", 10), ("white", "c3", 20))
    due = state.deadline
    assert refused(state, c.Flag(), (due - T).total_seconds() - 0.1).kind == STALE
    after, produced = decide(state, c.Flag(), due)
    assert (after.ending, after.winner, after.flagged) == ("time", "white", ("black",))
    assert after.seat_of("black").remaining == 0.0 and produced[-1]["type"] == "end"


def test_in_correspondence_a_flag_loses_on_time_and_no_computer_moves_for_them():
    state = played(table(POST), ("black", "d3", 10), ("white", "c3", 20))
    assert state.deadline == at(20 + 86400)
    assert refused(state, c.TimeOut(square="c4"), 20 + 86400).kind == STALE
    after, _produced = decide(state, c.Flag(), at(20 + 86400))
    assert (after.ending, after.winner) == ("time", "white")


def test_a_flag_before_the_first_move_aborts():
    state = table(BLITZ)
    after, produced = decide(state, c.Flag(), at(60))
    assert (after.ending, after.winner, after.flagged) == ("aborted", "", ())
    assert after.seat_of("black").remaining == 120.0  # the minute ran, no increment


def test_in_a_game_of_three_a_flag_is_a_leave_and_the_others_play_on():
    state = table(BLITZ, players=3)
    state = played(state, *[(colour, Board(Variant(players=3)).legal_moves[0], 1) for colour in ["black"]])
    board = state.board
    for colour in ["white", "red"]:
        state = played(state, (colour, board.legal_moves[0], 2))
        board = state.board
    due = state.deadline
    after, produced = decide(state, c.Flag(), due)
    assert produced[:2] == [{"type": "leave", "colour": "black", "flagged": True},
                            {"type": "turn", "colour": "black", "started": epoch(2), "deadline": None,
                             "clocks": {"black": 0.0, "white": produced[1]["clocks"]["white"],
                                        "red": produced[1]["clocks"]["red"]}}]
    assert (after.status, after.forfeited, after.flagged) == (PLAYING, ("black",), ("black",))
    assert after.seat_of("black").left_at == due and after.seat_of("black").played_by_computer


# -- the site's downtime -----------------------------------------------------------

def test_downtime_is_given_back_to_the_player_to_move():
    state = played(table(BLITZ), ("black", "d3", 10), ("white", "c3", 20), ("black", "c4", 30))
    outage = Outage(at(40), at(100))
    assert refused(state, c.GiveBackDowntime(outages=()), 100).kind == STALE
    after, produced = decide(state, c.GiveBackDowntime(outages=(outage,)), at(101))
    restart = 100 + RECONNECT
    white = state.seat_of("white").remaining
    assert after.turn_started_at == at(restart) and after.seat_of("white").remaining == white - 10
    assert after.deadline == state.deadline + timedelta(seconds=restart - 40)
    assert produced == [{"type": "downtime", "colour": "white", "started": epoch(restart),
                         "deadline": round(after.deadline.timestamp(), 3),
                         "clocks": {"black": after.seat_of("black").remaining, "white": white - 10}}]


def test_a_move_and_a_flag_count_the_outage_out_of_the_turn():
    state = played(table(), ("black", "d3", 0))  # 60 s a move: white is due at 62
    outage = (Outage(at(30), at(100)),)
    decide(state, c.Play(by="white", square="c3", outages=outage), at(120))  # in time, the outage given back
    assert refused(state, c.Play(by="white", square="c3"), 120).kind == LATE
    assert refused(state, c.TimeOut(square="c3", outages=outage), 120).kind == STALE
    clock = played(table(BLITZ), ("black", "d3", 0), ("white", "c3", 0), ("black", "c4", 0))
    due = (clock.deadline - T).total_seconds()
    assert refused(clock, c.Flag(outages=(Outage(at(10), at(20)),)), due).kind == STALE
