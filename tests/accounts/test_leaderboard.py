"""The leaderboards: per rating category the best settled players (ten rated games or
more), places shared on equal ratings, moved at once by a finished rated game, and a
player's place on their page."""
import re

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.leaderboard import SIZE, rank_of, top_of
from accounts.models import Category, Rating
from accounts.ratings import PROVISIONAL_GAMES, SCALE, START, new_rating_values
from tests.accounts.rated_play import play, rated_table
from tests.people import make_user, signed_in

pytestmark = pytest.mark.django_db


def settled(user, shown, category=Category.REVERSI, games=PROVISIONAL_GAMES):
    """A rating that pages show as `shown` after `games` rated games (test data: in the
    site only accounts.ratings.rate_game writes ratings)."""
    sigma = 2.0
    return Rating.objects.create(user=user, category=category, mu=(shown - START) / SCALE + 3 * sigma,
                                 sigma=sigma, games=games, wins=games)


def names(rows):
    return [(row["rank"], row["user"].username, row["shown"].value) for row in rows]


def test_settled_players_are_listed_best_first_and_equal_ratings_share_a_place():
    settled(make_user("ann"), 1700)
    settled(make_user("ben"), 1650)
    settled(make_user("cid"), 1650, games=30)
    settled(make_user("dot"), 1600)
    settled(make_user("new"), 1900, games=PROVISIONAL_GAMES - 1)  # provisional: not listed
    settled(make_user("anti"), 1800, category=Category.ANTI)
    gone = make_user("gone")
    settled(gone, 2000)
    gone.is_active = False
    gone.save()

    # More games first among equals, then by name: a stable order.
    assert names(top_of(Category.REVERSI)) == [
        (1, "ann", 1700), (2, "cid", 1650), (2, "ben", 1650), (4, "dot", 1600)]
    assert names(top_of(Category.ANTI)) == [(1, "anti", 1800)]
    assert rank_of(Rating.objects.get(user__username="ben").user, Category.REVERSI) == (2, 4)
    assert rank_of(Rating.objects.get(user__username="dot").user, Category.REVERSI) == (4, 4)
    assert rank_of(Rating.objects.get(user__username="new").user, Category.REVERSI) is None


def test_only_the_best_hundred_are_listed_but_everyone_settled_has_a_place():
    users = [make_user(f"p{n:03}") for n in range(SIZE + 5)]
    for n, user in enumerate(users):
        settled(user, 2000 - n)
    rows = top_of(Category.REVERSI)
    assert len(rows) == SIZE
    assert rows[-1]["user"].username == f"p{SIZE - 1:03}"
    assert rank_of(users[-1], Category.REVERSI) == (SIZE + 5, SIZE + 5)


def test_a_finished_rated_game_moves_the_leaderboard_at_once():
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    # Both one game short of settled on the 6x6 board ("Other boards and options").
    mu, sigma = new_rating_values()
    for user in (alice, bob):
        Rating.objects.create(user=user, category=Category.OTHER, mu=mu, sigma=sigma, games=PROVISIONAL_GAMES - 1)
    assert top_of(Category.OTHER) == []

    play(rated_table(alice, bob).game)  # White (Bob) wins on the 6x6 board

    assert [row["user"] for row in top_of(Category.OTHER)] == [bob, alice]
    assert rank_of(bob, Category.OTHER) == (1, 2)
    page = signed_in(alice).get(reverse("leaderboard_category", args=[Category.OTHER])).content.decode()
    assert "You are number 2 of 2." in page


def test_the_page_lists_links_to_players_and_shows_their_place_on_their_page():
    ann = make_user("ann", "Ann <b>")
    settled(ann, 1700)
    settled(make_user("ben", "Ben"), 1650)
    with translation.override("en"):
        page = signed_in(make_user("visitor")).get(reverse("leaderboard")).content.decode()
    assert "Ann &lt;b&gt;" in page and "<b>" not in page
    assert f'href="{reverse("player", args=["ann"])}"' in page
    assert "You are listed here after 10 rated games in this category." in page

    player_page = signed_in(make_user("carl")).get(reverse("player", args=["ben"]), HTTP_ACCEPT_LANGUAGE="de")
    card = re.search(r'data-category="reversi">(.*?)</article>', player_page.content.decode(), re.S).group(1)
    assert "Nummer 2 von 2 in der Bestenliste" in card


def test_an_unknown_category_is_not_found_and_a_visitor_may_look(client):
    assert client.get("/accounts/leaderboard/chess/").status_code == 404
    page = client.get(reverse("leaderboard"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Bestenliste" in page
    assert "Noch niemand hat in dieser Kategorie genug gewertete Partien gespielt." in page
