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
    over = decide(state, c.Resign(by="black"), at(5))[0]
    assert refused(over, c.ComputerMove(square="c3")).kind == STALE  # ended meanwhile


def test_a_side_without_a_move_passes_by_itself_and_the_mover_plays_again():
    opening = ["c2", "b2", "a2", "a1", "b3", "d2", "b1", "c1", "d1", "e1", "e2", "a3", "e4"]  # 6x6
    state = played(table(BLITZ, board="6x6"), *[(["black", "white"][i % 2], square, i + 1)
                                                for i, square in enumerate(opening)])
    after, produced = decide(state, c.Play(by="white", square="a4"), at(20))  # black has no move left
    assert types(produced) == ["move", "pass", "turn"]
    assert produced[1] == {"type": "pass", "ply": 15, "colour": "black", "square": "pass", "flips": [],
                           "made_by": "auto"}
    assert after.moves[-1] == PlayedMove(15, "black", "pass", (), "auto")
    assert (after.turn, after.turn_started_at) == ("white", at(20))
    white = state.seat_of("white").remaining - 7 + 2  # charged once, before the turn given back
    assert after.seat_of("white").remaining == white and after.deadline == at(20 + white)


# -- the end -----------------------------------------------------------------------

WIPEOUT = ["f5", "d6", "c5", "f4", "e7", "f6", "g5", "e6", "e3"]  # Black takes every stone at move 9


def wiped_out(state, upto=8):
    colours = ["black", "white"] * 5
    return played(state, *[(colours[i], WIPEOUT[i], i + 1) for i in range(upto)])


def test_the_last_move_ends_the_game_with_its_score():
    state = wiped_out(table(BLITZ))
    after, produced = decide(state, c.Play(by="black", square="e3"), at(20))
    assert types(produced) == ["move", "end"]
    assert produced[-1] == {"type": "end", "ending": "normal", "winner": "black",
                            "counts": {"black": 13, "white": 0}, "score": {"black": 64, "white": 0}}
    assert (after.status, after.turn, after.deadline, after.finished_at) == (FINISHED, "", None, at(20))
    assert after.turn_started_at == at(8)  # the last turn's start stays as it was
    assert str(refused(after, c.Play(by="white", square="a1"))) == "This game is over."


def test_a_game_ended_with_a_leaver_is_a_forfeit_they_do_not_win():
    state = wiped_out(table())
    state = decide(state, c.Leave(by="black"), at(9))[0]
    after, produced = decide(state, c.ComputerMove(square="e3"), at(10))
    assert produced[0]["made_by"] == "leaver"
    assert (after.ending, after.winner) == ("forfeit", "white")


# -- draws, takebacks, resigning, aborting ---------------------------------------

def test_a_draw_offered_and_accepted():
    state = played(table(BLITZ), ("black", "d3", 10))
    state, produced = decide(state, c.OfferDraw(by="black"), at(11))
    assert produced == [{"type": "offer", "kind": "draw", "by": "black"}]
    assert str(refused(state, c.OfferDraw(by="black"))) == "You have offered a draw already; wait for the answer."
    assert str(refused(state, c.OfferDraw(by="white"))) == "Your opponent offers you a draw: accept or decline it."
    assert str(refused(state, c.AcceptDraw(by="black"))) == "There is no draw offer of your opponent to answer."
    after, produced = decide(state, c.AcceptDraw(by="white"), at(15))
    assert types(produced) == ["offer_ended", "end"] and produced[0]["how"] == "accepted"
    assert (after.ending, after.winner, after.score) == ("agreed", "", {"black": 32, "white": 32})
    assert after.seat_of("white").remaining == 180 - 5  # the running clock stopped, no increment


def test_a_draw_declined_and_offered_again_only_ten_plies_later():
    state = played(table(), ("black", "d3", 1))
    state = decide(state, c.OfferDraw(by="black"), at(2))[0]
    state, produced = decide(state, c.DeclineDraw(by="white"), at(3))
    assert produced == [{"type": "offer_ended", "kind": "draw", "by": "black", "how": "declined"}]
    too_soon = refused(state, c.OfferDraw(by="black"))
    assert (too_soon.message % too_soon.params) == "You may make at most one draw offer every 10 moves."
    assert state.draw_offers == {"black": 1}


def test_a_draw_offer_lapses_when_the_offerers_opponent_moves():
    state = played(table(), ("black", "d3", 1))
    state = decide(state, c.OfferDraw(by="black"), at(2))[0]
    after, produced = decide(state, c.Play(by="white", square="c3"), at(3))
    assert {"type": "offer_ended", "kind": "draw", "by": "black", "how": "lapsed"} in produced
    assert after.draw_offer == ""
    own = decide(played(table(), ("black", "d3", 1)), c.OfferDraw(by="white"), at(2))[0]
    moved = decide(own, c.Play(by="white", square="c3"), at(3))[0]
    assert moved.draw_offer == "white"  # the offerer's own move lets it stand


def test_draws_are_for_two_players():
    state = table(players=3)
    assert str(refused(state, c.OfferDraw(by="black"))) == "Draws are offered in two-player games only."


def first_moves(state, count, start=10, every=10):
    """`state` after `count` more plies, each the first legal square, `every` seconds apart."""
    for n in range(count):
        state = played(state, (state.turn, state.board.legal_moves[0], start + n * every))
    return state


def test_a_takeback_granted_undoes_the_move_and_the_reply_and_restarts_the_clock():
    state = first_moves(table(BLITZ), 5)  # white played at 20 and 40, black's answer at 50
    assert str(refused(state, c.AcceptTakeback(by="black"))) == (
        "There is no takeback request of your opponent to answer.")
    state, produced = decide(state, c.RequestTakeback(by="white"), at(51))
    assert produced == [{"type": "offer", "kind": "takeback", "by": "white"}]
    assert str(refused(state, c.RequestTakeback(by="white"))) == "You have asked already; wait for the answer."
    white_clock = state.seat_of("white").remaining
    after, produced = decide(state, c.AcceptTakeback(by="black"), at(55))
    assert types(produced) == ["offer_ended", "takeback", "turn"] and produced[1]["ply"] == 3
    assert after.moves == state.moves[:3] and after.turn == "white" and after.takeback_request == ""
    assert after.seat_of("white").remaining == white_clock - 5  # the turn it interrupted: stopped
    assert after.seat_of("black").remaining == state.seat_of("black").remaining
    assert (after.turn_started_at, after.deadline) == (at(55), at(55 + white_clock - 5))


def test_a_takeback_to_before_the_first_move_has_the_first_moves_limit_again():
    state = played(table(BLITZ), ("black", "d3", 10), ("white", "c3", 20))
    state = decide(state, c.RequestTakeback(by="white"), at(21))[0]
    after = decide(state, c.AcceptTakeback(by="black"), at(25))[0]
    assert after.deadline == at(25 + 60)


def test_a_takeback_declined_or_lapsed():
    state = played(table(), ("black", "d3", 1))
    assert str(refused(state, c.RequestTakeback(by="white"))) == "There is no move of yours to take back."
    state = decide(state, c.RequestTakeback(by="black"), at(2))[0]
    declined = decide(state, c.DeclineTakeback(by="white"), at(3))
    assert declined[1] == [{"type": "offer_ended", "kind": "takeback", "by": "black", "how": "declined"}]
    lapsed = decide(state, c.Play(by="white", square="c3"), at(3))
    assert {"type": "offer_ended", "kind": "takeback", "by": "black", "how": "lapsed"} in lapsed[1]
    rated = replace(state, takeback_request="", rated=True)
    assert str(refused(rated, c.RequestTakeback(by="black"))) == "Moves cannot be taken back at a rated table."


def test_resigning_loses_at_once_scored_as_decided():
    state = played(table(), ("black", "d3", 1))
    after, produced = decide(state, c.Resign(by="white"), at(2))
    assert (after.ending, after.winner, after.score) == ("resigned", "black", {"black": 63, "white": 1})
    assert produced[-1]["type"] == "end"
    assert refused(state, c.Resign(by=None)).kind == NOT_YOURS


def test_aborting_before_everyone_moved_and_not_after():
    state = played(table(), ("black", "d3", 1))
    after, produced = decide(state, c.Abort(by="black"), at(2))
    assert (after.ending, after.winner, after.score, after.counts) == ("aborted", "", {}, {"black": 4, "white": 1})
    state = played(state, ("white", "c3", 2))
    assert str(refused(state, c.Abort(by="black"))) == (
        "Too late to abort: every player has moved. You can resign instead.")


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


# -- leaving and gone players ------------------------------------------------------

def test_in_a_game_of_four_leavers_rank_last_and_the_computer_plays_for_them():
    state = table(players=4)
    state, produced = decide(state, c.Leave(by="green"), at(1))
    assert produced == [{"type": "leave", "colour": "green", "flagged": False}]  # not their turn
    assert str(refused(state, c.Leave(by="green"))) == "You have already left this game."
    state, produced = decide(state, c.Resign(by="black"), at(2))  # of four a resign is a leave
    assert types(produced) == ["leave", "turn"] and state.deadline is None
    assert state.forfeited == ("green", "black") and state.status == PLAYING
    after, produced = decide(state, c.ComputerMove(square=state.board.legal_moves[0]), at(3))
    assert produced[0]["made_by"] == "leaver" and after.turn == "white"


def test_a_win_claimed_against_a_gone_opponent():
    state = played(table(), ("black", "d3", 1))
    here = refused(state, c.ClaimWin(by="black", gone_for=0, needed=30))
    assert here.message % here.params == "P2 is here."
    waiting = refused(state, c.ClaimWin(by="black", gone_for=20.5, needed=30))
    assert waiting.message % waiting.params == "P2 has not been gone long enough yet: 10 s to wait."
    assert str(refused(state, c.ClaimWin(by="white", gone_for=40, needed=30))) == (
        "Only the absence of the player to move can be claimed.")
    after, _produced = decide(state, c.ClaimWin(by="black", gone_for=30, needed=30), at(40))
    assert (after.ending, after.winner) == ("claimed", "black")
    assert str(refused(table(players=3), c.ClaimWin(by="white", gone_for=40, needed=30))) == (
        "The win is claimed in two-player games only: let the computer play for them.")


def test_the_computer_takes_over_for_a_gone_player():
    state = table(players=3)
    after, produced = decide(state, c.ComputerForGone(by="white", gone_for=40, needed=30), at(40))
    assert types(produced) == ["leave", "turn"] and after.forfeited == ("black",)
    assert str(refused(after, c.OfferDraw(by="white"))) == "Draws are offered in two-player games only."
    two = decide(table(), c.Leave(by="white"), at(1))[0]
    assert str(refused(two, c.Resign(by="black"))) == (
        "Your opponent left the table: this game is yours whatever happens.")


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


# -- seats and the start -----------------------------------------------------------

def empty_table(clock=BLITZ, players=2, computers=()):
    variant = Variant(players=players)
    seats = tuple(SeatState(colour, is_computer=colour in computers) for colour in variant.colours)
    return GameState(variant=variant, clock=clock, seats=seats, kind=TABLE, status=WAITING)


def test_the_last_seat_taken_starts_the_game():
    state = empty_table(players=3, computers=("red",))
    state, produced = decide(state, c.TakeSeat(occupant="user:1", colour="white"), at(0))
    assert produced == [{"type": "seat", "colour": "white", "taken": True}] and state.status == WAITING
    taken = refused(state, c.TakeSeat(occupant="user:2", colour="white"))
    assert taken.message % {"colour": "White"} == "The White seat is taken. Choose another."
    assert str(refused(state, c.TakeSeat(occupant="user:1"))) == "You already have a seat at this table."
    assert str(refused(state, c.TakeSeat(occupant="user:2", colour="green"))) == "This table has no such seat."
    state, produced = decide(state, c.TakeSeat(occupant="guest:abc", name="Ann"), at(5))
    assert types(produced) == ["seat", "start", "turn"]
    assert state.seat_of("black").name == "Ann" and state.status == PLAYING and state.turn == "black"
    assert [seat.remaining for seat in state.seats] == [180.0] * 3 and state.deadline == at(65)
    assert str(refused(state, c.TakeSeat(occupant="user:3"))) == (
        "This table is full and already playing. You can watch it.")
    assert refused(state, c.Start()).kind == STALE


def test_a_seat_given_back_before_the_start():
    state = decide(empty_table(), c.TakeSeat(occupant="user:1"), at(0))[0]
    assert refused(state, c.GiveSeatBack(occupant="user:2")).kind == NOT_YOURS
    state, produced = decide(state, c.GiveSeatBack(occupant="user:1"), at(1))
    assert produced == [{"type": "seat", "colour": "black", "taken": False}] and state.seat_of("black").is_free
    assert str(refused(table(), c.GiveSeatBack(by="black"))) == (
        "The game has started meanwhile. Reload the page to leave it.")


def test_a_first_move_on_a_clock_counts_from_the_board_shown():
    state = table(BLITZ)
    state, produced = decide(state, c.ShowBoard(by="black"), at(20))
    assert types(produced) == ["turn"] and (state.turn_started_at, state.deadline) == (at(20), at(80))
    again, produced = decide(state, c.ShowBoard(by="black"), at(30))
    assert produced == [] and again == state  # once
    white, produced = decide(state, c.ShowBoard(by="white"), at(30))  # not their turn: only noted
    assert produced == [] and white.seat_of("white").board_shown_at == at(30) and white.deadline == at(80)
    assert decide(table(MINUTE), c.ShowBoard(by="black"), at(20)) == (table(MINUTE), [])


def test_the_lag_is_noted_on_a_clock_only():
    state, produced = decide(table(BLITZ), c.RecordLag(by="black", seconds=0.1234), at(1))
    assert produced == [] and state.seat_of("black").lag == 0.123
    assert decide(table(MINUTE), c.RecordLag(by="black", seconds=0.5), at(1))[0].seat_of("black").lag == 0.0


# -- against the computer ----------------------------------------------------------

def test_undo_takes_back_the_players_move_and_the_computers_answer():
    state = played(against_computer(), ("black", "d3", 1), ("white", "c3", 2))
    after, produced = decide(state, c.Undo(by="black"), at(3))
    assert produced[0] == {"type": "undo", "ply": 0} and after.moves == () and after.turn == "black"
    computer_to_move = played(against_computer(), ("black", "d3", 1))
    assert str(refused(computer_to_move, c.Undo(by="black"))) == "Wait for the computer's move before taking back."
    assert refused(state, c.Undo(by=None)).kind == NOT_YOURS
    assert str(refused(table(), c.Undo(by="black"))) == "Moves cannot be taken back at an online table."


def test_undo_reopens_a_finished_game_privately_but_not_an_abandoned_one():
    state = wiped_out(against_computer())
    state = decide(state, c.ComputerMove(square="e3"), at(10))[0] if state.turn == "white" else played(
        state, ("black", "e3", 10))
    assert state.status == FINISHED
    shared = decide(state, c.Share(by="black", public=True), at(11))
    assert shared[1] == [{"type": "shared", "public": True}]
    reopened = decide(shared[0], c.Undo(by="black"), at(12))[0]
    assert (reopened.status, reopened.ending, reopened.is_public, reopened.ply) == (PLAYING, "", False, 8)
    abandoned, produced = decide(reopened, c.Abandon(by="black"), at(13))
    assert (abandoned.ending, abandoned.winner, abandoned.score) == ("abandoned", "", {})
    assert str(refused(abandoned, c.Undo(by="black"))) == "You left this game for a new one; it stays as it was."
    assert decide(abandoned, c.Abandon(by="black"), at(14)) == (abandoned, [])


def test_the_level_and_sharing():
    state, produced = decide(against_computer(), c.SetLevel(by="black", level="hard"), at(1))
    assert produced == [{"type": "level", "level": "hard"}] and state.level == "hard"
    assert str(refused(state, c.SetLevel(by="black", level="godlike"))) == "Choose Easy, Normal or Hard."
    assert refused(table(), c.SetLevel(by="black", level="easy")).kind == NOT_YOURS
    assert str(refused(state, c.Share(by="black"))) == "A game can be shared once it is over."
    assert refused(state, c.Share(by=None)).kind == NOT_YOURS


def test_a_correspondence_turn_is_mailed_once():
    state = played(table(POST), ("black", "d3", 1))
    assert refused(state, c.MarkMailed(ply=0)).kind == STALE
    state, produced = decide(state, c.MarkMailed(ply=1), at(2))
    assert produced == [{"type": "mailed", "ply": 1}] and state.mailed_ply == 1
    assert refused(state, c.MarkMailed(ply=1)).kind == STALE
    assert refused(table(BLITZ), c.MarkMailed(ply=0)).kind == STALE


def test_leavers_rank_last_the_last_to_leave_above_the_earlier():
    from games.rules import Outcome
    from games.turn.ranking import ranking_with_forfeits, winner_with_forfeits
    outcome = Outcome(winner="red", counts={}, score={}, ranking=(("red",), ("black", "white"), ("green",)))
    assert ranking_with_forfeits(("red", "green"), outcome) == (("black", "white"), ("green",), ("red",))
    assert winner_with_forfeits(("red",), outcome) is None  # a shared top of those who stayed
    assert winner_with_forfeits(("red", "white"), outcome) == "black"
    assert winner_with_forfeits((), outcome) == "red"


def test_nobody_acts_for_the_computers_seat():
    state = table(computers=("white",))
    assert str(refused(state, c.Resign(by="white"))) == "You have no seat in this game."
    assert str(refused(state, c.Play(by="white", square="d3"))) == "It is not your turn."
    assert refused(against_computer(), c.Undo(by="white")).kind == NOT_YOURS
    assert refused(against_computer(), c.SetLevel(by="white", level="easy")).kind == NOT_YOURS
    assert decide(against_computer(), c.Abandon(by="white"), at(1)) == (against_computer(), [])
