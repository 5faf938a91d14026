"""Rematch: after a table's game ends, everyone still at the table accepts and a new
game starts at the same table with the colours rotated; declining or leaving ends the
offer; double presses and simultaneous presses start one game."""
import re
import threading

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import translation

from games import Variant
from games import seating
from games import services as game_services
from games.models import Game
from games.access import Viewer
from games.errors import GameError, NotYourTurn
from lobby import actions, rematch
from lobby.models import Rematch, Table
from tests.accounts.rated_play import play, rated_table
from tests.people import signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def sitter(seat):
    if seat.is_computer:
        return "computer"
    return seat.user.username if seat.user_id else seat.guest_name


def seats_of(game):
    return {seat.colour: sitter(seat) for seat in Game.objects.get(pk=game.pk).seats.select_related("user")}


def test_both_accept_and_a_new_game_starts_with_the_colours_swapped(alice, bob):
    table = rated_table(alice, bob)
    old = play(table.game)
    assert rematch.accept(table, Viewer(user=alice), old.public_id) is None  # waits for Bob
    page = signed_in(bob).get(reverse("table", args=[table.code])).content.decode()
    assert "Accepted a rematch: Alice" in page and "Waiting for: Bob" in page
    assert 'id="rematch-accept"' in page
    new = rematch.accept(table, Viewer(user=bob), old.public_id)
    table.refresh_from_db()
    assert table.game == new and new != old
    assert (new.status, new.rated, new.variant) == ("playing", True, old.variant)
    assert seats_of(new) == {"black": "bob", "white": "alice"}
    assert list(new.seats.values_list("colour", flat=True)) == ["black", "white"]  # listed in turn order
    assert seats_of(old) == {"black": "alice", "white": "bob"}  # the finished game stays as it was
    assert Game.objects.get(pk=old.pk).status == "finished"
    # A repeated press after the start changes nothing and names the same game.
    assert rematch.accept(table, Viewer(user=bob), old.public_id) == new
    assert Game.objects.filter(kind="table").count() == 2


def test_three_players_rotate_so_the_first_moves_last_and_blocked_squares_are_drawn_again(alice, bob, carol):
    table = actions.open_table(alice, Variant(board="8x8", players=3), listed=False)
    actions.join(table, Viewer(user=bob))
    actions.join(table, Viewer(user=carol))
    table.refresh_from_db()
    old = play(table.game)
    for user in (alice, bob, carol):
        new = rematch.accept(table, Viewer(user=user), old.public_id)
    assert seats_of(new) == {"black": "bob", "white": "carol", "red": "alice"}
    assert seating.rotated(["black", "white"], 0) == "white"

    blocked = actions.open_table(alice, Variant(board="6x6", blocked=("a1", "f6")), computer_colours=["white"])
    old = play(blocked.game)
    new = rematch.accept(blocked, Viewer(user=alice), old.public_id)  # the computer accepts by itself
    assert seats_of(new) == {"black": "computer", "white": "alice"}
    assert len(Variant.from_dict(new.variant).blocked) == 2 and new.status == "playing"


def test_declining_ends_the_offer_for_everyone(alice, bob):
    table = rated_table(alice, bob)
    old = play(table.game)
    rematch.accept(table, Viewer(user=alice), old.public_id)
    response = signed_in(bob).post(reverse("table_rematch_decline", args=[table.code]), {"game": old.public_id},
                                   HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    page = signed_in(alice).get(reverse("table", args=[table.code])).content.decode()
    assert "Bob declined the rematch." in page and 'id="rematch-accept"' not in page
    with pytest.raises(GameError, match="declined"):
        rematch.accept(table, Viewer(user=alice), old.public_id)
    assert Table.objects.get(pk=table.pk).game_id == old.pk


def test_leaving_after_the_end_declines_and_a_leaver_seat_is_free_in_the_rematch(alice, bob, carol):
    table = rated_table(alice, bob)
    old = play(table.game)
    response = signed_in(bob).post(reverse("table_leave", args=[table.code]))
    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    assert Rematch.objects.get(game=old).status == "declined"

    table, old = three_played_and_carol_left(alice, bob, carol)
    with pytest.raises(NotYourTurn):
        rematch.accept(table, Viewer(user=carol), old.public_id)
    rematch.accept(table, Viewer(user=alice), old.public_id)
    new = rematch.accept(table, Viewer(user=bob), old.public_id)
    assert new.status == "waiting" and seats_of(new) == {"black": "bob", "white": "", "red": "alice"}


def seats_panel_text(client, table):
    html = client.get(reverse("table", args=[table.code])).content.decode()
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def three_played_and_carol_left(alice, bob, carol):
    """A three-player table whose game Alice and Bob played out after Carol left it."""
    table = actions.open_table(alice, Variant(board="8x8", players=3))
    actions.join(table, Viewer(user=bob))
    actions.join(table, Viewer(user=carol))
    table.refresh_from_db()
    actions.leave(table, Viewer(user=carol))  # during the game: Carol left and lost
    return table, play(table.game)


def test_the_offer_says_who_plays_in_the_rematch_and_whose_seat_is_open(alice, bob, carol):
    table, _old = three_played_and_carol_left(alice, bob, carol)
    text = seats_panel_text(signed_in(alice), table)
    assert "In the rematch: Black Bob, White open seat, Red Alice" in text
    assert "The rematch waits for someone to take the open seat." in text


def test_no_rematch_is_offered_when_everybody_else_left(alice, bob):
    table = rated_table(alice, bob, rated=False)
    actions.leave(table, Viewer(user=bob))  # during the game: Bob left and lost
    old = play(table.game)
    client = signed_in(alice)
    text = seats_panel_text(client, table)
    assert "Nobody else is left at this table for a rematch." in text
    assert "rematch-accept" not in client.get(reverse("table", args=[table.code])).content.decode()
    response = client.post(reverse("table_rematch", args=[table.code]), {"game": old.public_id}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and "Nobody else is left" in response.content.decode()
    with pytest.raises(GameError):
        rematch.accept(table, Viewer(user=alice), old.public_id)
    assert Table.objects.get(pk=table.pk).game_id == old.pk and not Rematch.objects.filter(status="started").exists()


def test_a_guest_takes_part_and_strangers_cannot(alice, carol):
    table = actions.open_table(alice, Variant(board="6x6"))
    guest = Viewer(guest_token="guest-token-1")
    actions.join(table, guest, guest_name="Gus")
    table.refresh_from_db()
    old = play_with_guest(table.game, alice, guest)
    with pytest.raises(NotYourTurn):
        rematch.accept(table, Viewer(user=carol), old.public_id)
    with pytest.raises(GameError):
        rematch.accept(table, guest, "not-a-game")
    rematch.accept(table, guest, old.public_id)
    new = rematch.accept(table, Viewer(user=alice), old.public_id)
    assert seats_of(new) == {"black": "Gus", "white": "alice"}


def play_with_guest(game, user, guest):
    from games.services import play_move

    for _ in range(200):
        game = Game.objects.prefetch_related("seats").get(pk=game.pk)
        if game.is_over:
            return game
        seat = game.seat_of(game.turn)
        viewer = Viewer(user=user) if seat.user_id else guest
        play_move(game, game.board().legal_moves[0], expected_ply=game.ply, viewer=viewer)
    raise AssertionError("the game did not end")


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_acceptances_start_one_game(alice, bob):
    table = rated_table(alice, bob)
    old = play(table.game)
    barrier = threading.Barrier(2)
    results, errors = [], []

    def press(user):
        try:
            barrier.wait()
            results.append(rematch.accept(table, Viewer(user=user), old.public_id))
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=press, args=(user,)) for user in (alice, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    started = [game for game in results if game is not None]
    assert len(started) == 1
    assert Game.objects.filter(kind="table").count() == 2
    assert Table.objects.get(pk=table.pk).game_id == started[0].pk


def test_a_rematch_of_a_private_table_stays_private_when_a_player_shared_the_finished_game(alice, bob):
    table = rated_table(alice, bob, rated=False, listed=False)
    old = play(table.game)
    game_services.set_public(old, Viewer(user=alice), True)  # Alice shares the finished game
    assert Game.objects.get(pk=old.pk).is_public
    rematch.accept(table, Viewer(user=alice), old.public_id)
    new = rematch.accept(table, Viewer(user=bob), old.public_id)
    assert new is not None and not Game.objects.get(pk=new.pk).is_public
    assert not Table.objects.get(pk=table.pk).listed
