"""Against the computer the visitor may choose their colour, and a corner handicap goes
to the side they name (themselves or the computer), whichever colour that side plays."""
import pytest
from django.urls import reverse

from games import Board
from games.models import Game
from tests.play.test_possible_choices import Choices

pytestmark = pytest.mark.django_db
START = {"board": "8x8", "players": 2, "blocked": 0, "handicap": 0, "level": "easy"}


@pytest.fixture(autouse=True)
def many_games_at_once(settings):
    """These tests open a dozen games in a row, and no worker answers the computer's
    openings: the limit on games thinking at once (games.thinking) is not what they test."""
    settings.COMPUTER_THINKING_PER_VISITOR = settings.COMPUTER_THINKING_PER_ADDRESS = 100


def start(client, **data):
    response = client.post(reverse("play"), {**START, **data})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.order_by("-pk").first()


def human_colour(game):
    return game.seats.get(is_computer=False).colour


def corner_stones(game):
    stones = Board(game.variant_obj).stones()
    return {stones.get(square) for square in ("a1", "h8")}


@pytest.mark.parametrize("side", ["me", "the computer"])
def test_the_handicap_goes_to_the_side_chosen_whatever_colour_it_plays(client, side):
    for _ in range(12):  # colours drawn at random: both come up
        game = start(client, handicap=2, handicap_side="me" if side == "me" else "computer", colour="random")
        mine = human_colour(game)
        receiver = mine if side == "me" else next(c for c in ("black", "white") if c != mine)
        assert game.variant_obj.handicap_colour == receiver
        assert corner_stones(game) == {receiver}


@pytest.mark.parametrize("colour", ["black", "white"])
def test_the_visitor_chooses_their_colour(client, colour):
    for _ in range(4):
        game = start(client, colour=colour, handicap=1, handicap_side="me")
        assert human_colour(game) == colour
        assert game.variant_obj.handicap_colour == colour


def test_new_game_keeps_the_handicap_with_the_same_side(client):
    old = start(client, handicap=3, handicap_side="computer", colour="random")
    for _ in range(6):
        client.post(reverse("play_again", args=[old.public_id]), {"confirm": "1"})
        new = Game.objects.order_by("-pk").first()
        assert new.variant_obj.handicap_colour != human_colour(new)
        old = new


def test_a_colour_the_game_has_not_is_refused(client):
    response = client.post(reverse("play"), {**START, "colour": "red"})
    assert response.status_code == 400
    assert "Choose a colour this game has." in response.content.decode()
    assert not Game.objects.exists()


def test_the_handicap_side_is_asked_only_with_a_handicap(client):
    without = client.get(reverse("play")).content.decode()
    with_handicap = client.get(reverse("play") + "?handicap=2").content.decode()
    # Only for a page without scripts (which cannot redraw the form) is it there without a handicap.
    shown_without = _outside_noscript(without)
    assert "Handicap stones go to" not in shown_without
    assert "Handicap stones go to" in _outside_noscript(with_handicap)
    assert Choices(with_handicap).fields["handicap_side"] == {"me": "selected", "computer": "offered"}


def test_no_handicap_needs_no_handicap_side(client):
    game = start(client)  # no handicap_side, no colour sent: a plain game
    assert game.variant_obj.handicap == 0


def _outside_noscript(html):
    kept, rest = [], html
    while "<noscript>" in rest:
        before, rest = rest.split("<noscript>", 1)
        kept.append(before)
        rest = rest.split("</noscript>", 1)[1]
    return "".join(kept + [rest])


def test_a_form_that_does_not_redraw_itself_keeps_the_handicap_colour_in_view(client):
    """The import form has no redraw: its handicap colour stays, and stays optional."""
    page = client.get(reverse("review_import")).content.decode()
    assert "Handicap stones go to" in _outside_noscript(page)
    response = client.post(reverse("review_import"), {"transcript": "d3c5", "board": "8x8", "players": 2,
                                                      "handicap": 0, "blocked": ""})
    assert response.status_code in (200, 302) and "is not a legal" not in response.content.decode()
    assert "The handicap stones go to Black or White." not in response.content.decode()
