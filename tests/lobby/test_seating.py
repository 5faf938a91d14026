"""games.seating on its own: the seat operations the lobby calls, each in its
transaction under the game row's lock."""
import pytest
from django.db import transaction

from games import Variant, seating
from games import creation
from games.access import Viewer
from games.models import Game, Seat
from games.errors import GameError, NotYourTurn

pytestmark = pytest.mark.django_db


def waiting_game(host, players=2):
    variant = Variant(board="8x8" if players > 2 else "6x6", players=players)
    return creation.create_table_game(variant, level="easy", is_public=False, host=host,
                                           host_colour="black", computer_colours=())


def test_taking_the_last_seat_starts_the_game_and_a_taken_seat_is_refused(alice, bob, carol):
    game = waiting_game(alice)
    with pytest.raises(GameError):
        seating.take_seat(game.pk, Viewer(user=bob), "black")
    with transaction.atomic():
        assert seating.take_seat(game.pk, Viewer(user=bob)) == "white"
    game.refresh_from_db()
    assert (game.status, game.turn) == ("playing", "black")
    with pytest.raises(GameError):
        seating.take_seat(game.pk, Viewer(user=carol))


def test_a_seat_given_back_is_free_and_the_last_one_closes_the_game(alice, bob):
    game = waiting_game(alice, players=3)
    seating.take_seat(game.pk, Viewer(user=bob), "white")
    with pytest.raises(NotYourTurn):
        seating.give_seat_back(game.pk, Viewer(user=None, guest_token="nobody"))
    seat, others = seating.give_seat_back(game.pk, Viewer(user=bob))
    assert (seat.colour, [s.user for s in others]) == ("white", [alice])
    assert seating.free_colours(Game.objects.get(pk=game.pk)) == ["white", "red"]
    seat, others = seating.give_seat_back(game.pk, Viewer(user=alice))
    assert others == [] and not Game.objects.filter(pk=game.pk).exists()
    assert not Seat.objects.filter(game_id=game.pk).exists()


def test_only_a_waiting_game_is_closed(alice, bob):
    game = waiting_game(alice)
    seating.take_seat(game.pk, Viewer(user=bob))  # the game starts
    seating.close_waiting_game(game)
    assert Game.objects.get(pk=game.pk).status == "playing"
    with pytest.raises(GameError):
        seating.give_seat_back(game.pk, Viewer(user=bob))
