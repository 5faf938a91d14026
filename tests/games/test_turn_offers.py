"""The turn engine's offers and early endings (docs/rules.md §4.1, §11): draws offered,
accepted, declined and lapsing, takebacks, resigning and aborting."""
from dataclasses import replace

from games.turn import commands as c
from games.turn.engine import decide
from games.turn.refusals import NOT_YOURS

from .turn_stories import BLITZ, at, played, refused, table, types


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
