"""A stored game as the turn engine sees it (games.stored): the rows read as a
GameState, and a GameState written back as exactly the rows' changes."""
from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone

from games import Variant, stored
from games.access import Viewer
from games.models import Game, Seat
from games.record import GameRecord
from games.turn.state import PlayedMove
from games.creation import create_computer_game, create_waiting_game
from tests.play.helpers import FirstChoice

pytestmark = pytest.mark.django_db

visitor = Viewer(guest_token="visitor-token")


def read(game):
    game = Game.objects.prefetch_related("seats").get(pk=game.pk)
    record = GameRecord(game)
    return game, record, stored.state_of(game, record)


def test_a_game_read_as_a_state_and_written_back_unchanged_is_no_change():
    game, record, state = read(create_computer_game(visitor, Variant(), "easy", rng=FirstChoice()))
    assert (state.kind, state.status, state.turn, state.ply, state.version) == ("computer", "playing", "black", 0,
                                                                               game.version)
    assert [(s.colour, s.occupant, s.is_computer) for s in state.seats] == [
        ("black", "guest:visitor-token", False), ("white", "", True)]
    assert state.board == record.board and state.board is not record.board
    assert not stored.difference(state, state, game)


def test_a_table_game_s_seats_and_clock_read_and_written_back(alice):
    now = timezone.now()
    game = create_waiting_game(Variant(), level="normal", is_public=True, rated=True,
                               time_control=("clock", 300, 2),
                               seats=[{"colour": "black", "user": alice}, {"colour": "white"}])
    game, record, state = read(game)
    assert state.seat_of("black").occupant == f"user:{alice.pk}" and state.seat_of("white").is_free
    assert (state.clock.control, state.clock.total, state.clock.increment, state.rated) == ("clock", 300, 2, True)
    new = replace(state, status="playing", turn="black", turn_started_at=now, deadline=now + timedelta(minutes=5),
                  draw_offers={"black": 3}, forfeited=("white",))
    new = new.with_seat("white", occupant="guest:g-1", name="Gus", remaining=300.0)
    difference = stored.difference(state, new, game)
    assert difference.game == {"status": "playing", "turn": "black", "turn_started_at": now,
                               "deadline": now + timedelta(minutes=5), "draw_offers": {"black": 3},
                               "forfeited": ["white"]}
    assert difference.seat_fields == {"white": {"remaining": 300.0, "user_id": None, "guest_token": "g-1",
                                          "guest_name": "Gus"}}
    assert (difference.kept, difference.removed, difference.added) == (0, False, [])
    stored.apply_in_memory(game, record, difference, new)
    assert game.seat_of("white").guest_token == "g-1" and game.forfeited == ["white"]
    assert stored.state_of(game, record) == new


def test_moves_added_and_taken_back_are_the_moves_after_the_common_ones():
    game, record, state = read(create_computer_game(visitor, Variant(), "easy", rng=FirstChoice()))
    board = state.board.copy()
    moves = []
    for square in ("d3", "c3", "c4"):
        colour = board.turn
        board.push(square)
        moves.append(PlayedMove(len(moves) + 1, colour, square, tuple(board.last_flips)))
    three = replace(state, moves=tuple(moves), turn=board.turn)
    difference = stored.difference(state, three, game)
    assert [(m.ply, m.colour, m.square, m.flips, m.made_by) for m in difference.added] == [
        (1, "black", "d3", ["d4"], "player"), (2, "white", "c3", ["d4"], "player"),
        (3, "black", "c4", ["d4"], "player")]
    assert (difference.kept, difference.removed, difference.game) == (0, False, {"turn": "white"})
    one = replace(state, moves=tuple(moves[:1]))
    back = stored.difference(three, one, game)
    assert (back.kept, back.removed, back.added) == (1, True, [])


def test_an_occupant_names_its_seat_s_account_or_guest(alice):
    assert stored.occupant_fields(f"user:{alice.pk}") == {"user_id": alice.pk, "guest_token": ""}
    assert stored.occupant_fields("guest:abc") == {"user_id": None, "guest_token": "abc"}
    assert stored.occupant_fields("") == {"user_id": None, "guest_token": ""}
    assert stored.occupant_of_viewer(Viewer(user=alice, guest_token="t")) == f"user:{alice.pk}"
    assert stored.occupant_of(Seat(colour="black", is_computer=True, guest_token="x")) == ""
