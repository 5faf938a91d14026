"""The turn engine against the computer (docs/rules.md §11): undo, the level, sharing a
finished game, the correspondence mail mark, leavers' ranking and the computer's seat
that nobody acts for."""
from games.turn import commands as c
from games.turn.engine import decide
from games.turn.refusals import NOT_YOURS, STALE
from games.turn.state import FINISHED, PLAYING

from .turn_stories import BLITZ, POST, against_computer, at, played, refused, table, wiped_out


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
