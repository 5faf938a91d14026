"""The turn engine's seats (docs/rules.md §4.1, §11): the last seat taken starts the game,
a seat given back before the start, the first move and lag on a clock; players who leave
or are gone, and the computer playing for them."""
from games.rules import Variant
from games.turn import commands as c
from games.turn.engine import decide
from games.turn.refusals import NOT_YOURS, STALE
from games.turn.state import PLAYING, TABLE, WAITING, GameState, SeatState

from .turn_stories import BLITZ, MINUTE, at, played, refused, table, types


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
