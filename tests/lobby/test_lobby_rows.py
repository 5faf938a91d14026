"""A lobby row, read in one statement (lobby.listing.lobby_rows), says what the
table's own page says of it: each person by the name their seat shows, with their
rating in the table's category, guests by their name, computers counted apart."""
import pytest
from django.utils import translation

from accounts.models import Category, Rating
from accounts.ratings import shown
from games import Variant
from games.access import Viewer
from games.models import Game
from lobby import actions, listing
from tests.people import make_user

pytestmark = pytest.mark.django_db


def test_a_row_names_everyone_as_their_seats_do_with_ratings_in_the_tables_category(alice):
    carol = make_user("carol_no_name")  # no display name: shown by her username
    Rating.objects.create(user=alice, category=Category.MULTI, mu=30.0, sigma=2.0, games=12)
    Rating.objects.create(user=alice, category=Category.REVERSI, mu=40.0, sigma=1.0, games=50)
    table = actions.open_table(alice, Variant(board="8x8", players=4), computer_colours=["red"], listed=True,
                               level="hard")
    actions.join(table, Viewer(guest_token="a-guest-token"), guest_name="Gus <b>")
    row = listing.row_of(table.pk)

    assert (row["id"], row["code"], row["section"], row["category"], row["rated"]) == (
        table.pk, table.code, listing.OPEN, Category.MULTI, False)
    assert (row["taken"], row["computers"], row["total"]) == (3, 1, 4)
    assert row["host"] == "Alice"
    seats = list(Game.objects.get(pk=table.game_id).seats.all())
    assert row["players"] == [seat.display_name for seat in seats if seat.user_id or seat.guest_token
                              or seat.is_computer]
    assert [(person["name"], person["username"]) for person in row["people"]] == [("Alice", "alice"),
                                                                                  ("Gus <b>", "")]
    alice_rating, guest_rating = (person["rating"] for person in row["people"])
    assert (alice_rating.value, alice_rating.provisional) == (shown(30.0, 2.0), False)
    assert guest_rating is None
    assert row["players"][2] == "Computer"
    with translation.override("de"):
        assert str(row["level"]) == "Schwer"  # drawn in each page's language

    actions.join(table, Viewer(user=carol))
    row = listing.row_of(table.pk)
    assert row["section"] == listing.PLAYING
    carol_rating = row["people"][2]["rating"]
    assert (row["people"][2]["name"], carol_rating.games, carol_rating.provisional) == ("carol_no_name", 0, True)


def test_a_table_the_lobby_does_not_list_has_no_row(alice):
    unlisted = actions.open_table(alice, Variant(board="8x8"))
    listed = actions.open_table(alice, Variant(board="8x8"), listed=True)
    Game.objects.filter(pk=listed.game_id).update(status=Game.Status.FINISHED)
    assert listing.lobby_rows([unlisted.pk, listed.pk, 10 ** 9]) == {}
    assert listing.row_of(unlisted.pk) is None
