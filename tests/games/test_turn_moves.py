"""The turn engine on its own (games.turn.engine.decide, docs/rules.md §4.1, §11): a move
and what it charges, passes, and the last move ending the game; told command by command
with an injected `now` (turn_stories.py), no Django, no database."""
from dataclasses import replace

from games.turn import commands as c
from games.turn.engine import decide
from games.turn.refusals import LATE, NOT_YOURS, REFUSED, STALE
from games.turn.state import FINISHED, WAITING, PlayedMove

from .turn_stories import BLITZ, at, epoch, played, refused, table, types, wiped_out


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
