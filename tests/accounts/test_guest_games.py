"""A guest who signs up or signs in keeps every game they played as a guest:
computer games and table seats stay theirs after signing out and in again."""
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Game, Seat
from lobby.models import Table
from tests.people import make_user, signed_in

pytestmark = pytest.mark.django_db
PASSWORD = "a long enough passphrase"


def start_computer_game(client):
    response = client.post(reverse("play"), {"board": "6x6", "players": 2, "blocked": 0, "handicap": 0,
                                             "handicap_colour": "white", "level": "easy"})
    return Game.objects.get(public_id=response["Location"].rstrip("/").split("/")[-1])


def open_table(host_client):
    host_client.post(reverse("table_new"), {"board": "8x8", "players": 3, "blocked": 0, "handicap": 0,
                                            "handicap_colour": "white", "seat": "black", "level": "easy"})
    return Table.objects.latest("pk")


def sit_as_guest(client, table, name="Guest Gil"):
    response = client.post(reverse("table_guest", args=[table.code]), {"name": name, "seat": ""})
    assert response.status_code == 302


def my_game_ids(client):
    return [row["game"].public_id for row in client.get(reverse("my_games")).context["rows"]]


def test_guest_games_stay_with_the_account_after_sign_up_sign_out_and_sign_in(client):
    alice = make_user("alice", "Alice")
    computer = start_computer_game(client)
    table = open_table(signed_in(alice))
    sit_as_guest(client, table)

    client.post(reverse("signup"), {"username": "gil", "password1": PASSWORD, "password2": PASSWORD})
    gil = get_user_model().objects.get(username="gil")
    assert set(Seat.objects.filter(user=gil).values_list("game_id", flat=True)) == {computer.pk, table.game_id}
    assert not Seat.objects.exclude(guest_token="").filter(game__in=[computer.pk, table.game_id]).exists()

    client.post(reverse("logout"))
    client.post(reverse("login"), {"username": "gil", "password": PASSWORD})
    assert sorted(my_game_ids(client)) == sorted([computer.public_id, table.game.public_id])
    assert client.get(reverse("play_game", args=[computer.public_id])).status_code == 200
    assert client.get(reverse("table", args=[table.code])).context["seat"].user == gil
    rows = {row["game"].pk: row for row in client.get(reverse("my_games")).context["rows"]}
    assert rows[table.game_id]["play_url"] == reverse("table", args=[table.code])  # Continue: the table page
    assert rows[computer.pk]["play_url"] == reverse("play_game", args=[computer.public_id])


def test_a_guest_who_signs_in_to_an_existing_account_keeps_the_guest_games(client):
    make_user("gil")
    computer = start_computer_game(client)
    client.post(reverse("login"), {"username": "gil", "password": PASSWORD})
    client.post(reverse("logout"))
    client.post(reverse("login"), {"username": "gil", "password": PASSWORD})
    assert client.get(reverse("play_game", args=[computer.public_id])).status_code == 200
    assert my_game_ids(client) == [computer.public_id]


def test_a_guest_seat_at_a_table_where_the_account_already_sits_stays_a_guest_seat(client):
    """One person at two seats of one table (signed in elsewhere, a guest here): the
    account keeps its own seat, the guest seat is not merged into it (one seat per
    person and game), and the game stays in the account's games."""
    alice, gil = make_user("alice", "Alice"), make_user("gil", "Gil")
    table = open_table(signed_in(alice))
    gil_elsewhere = signed_in(gil)
    gil_elsewhere.post(reverse("table_sit", args=[table.code]), {"seat": "white"})
    sit_as_guest(client, table, name="Gil again")

    client.post(reverse("login"), {"username": "gil", "password": PASSWORD})
    seats = {s.colour: s for s in table.game.seats.all()}
    assert seats["white"].user == gil
    assert seats["red"].user is None and seats["red"].guest_name == "Gil again" and seats["red"].guest_token
    assert list(Seat.objects.filter(user=gil).values_list("colour", flat=True)) == ["white"]
    client.post(reverse("logout"))
    client.post(reverse("login"), {"username": "gil", "password": PASSWORD})
    assert my_game_ids(client) == [table.game.public_id]


def test_signing_in_claims_nothing_of_other_guests(client):
    other = signed_in(make_user("zed"))
    other.post(reverse("logout"))
    stranger_game = start_computer_game(other)
    make_user("gil")
    client.post(reverse("login"), {"username": "gil", "password": PASSWORD})
    assert stranger_game.seats.filter(user__isnull=False).count() == 0


def test_a_guest_who_signs_in_keeps_the_games_they_imported_to_analyse(client):
    from tests.review.conftest import WIPEOUT

    make_user("gil")
    client.post(reverse("review_import_analyse"), {"board": "8x8", "moves": WIPEOUT})
    imported = Game.objects.get(kind=Game.Kind.IMPORTED)
    assert imported.owner_token and client.get(reverse("review", args=[imported.public_id])).status_code == 200
    client.post(reverse("login"), {"username": "gil", "password": PASSWORD})
    client.post(reverse("logout"))  # the guest's session, and its token, end here
    client.post(reverse("login"), {"username": "gil", "password": PASSWORD})
    assert client.get(reverse("review", args=[imported.public_id])).status_code == 200
    imported.refresh_from_db()
    assert imported.owner.username == "gil" and imported.owner_token == ""
