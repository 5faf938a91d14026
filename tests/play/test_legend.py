"""The board's legend names what the counts do not: the neutral stone of three players
and blocked squares, in the page's language."""
import pytest

from games import Variant
from games.access import GUEST_TOKEN_KEY, Viewer
from games.creation import build_variant, create_computer_game
from tests.rulebook.dom import parse

pytestmark = pytest.mark.django_db


def legend(client, variant, language="en"):
    session = client.session
    session[GUEST_TOKEN_KEY] = "token"
    session.save()
    game = create_computer_game(Viewer(guest_token="token"), variant, "easy")
    dom = parse(client.get(f"/play/{game.public_id}/", HTTP_ACCEPT_LANGUAGE=language).content)
    found = dom.find("ul", class_="legend")
    return {item.get("data-legend"): item.text() for item in found.find_all("li")} if found else {}


def test_three_players_explain_the_neutral_stone(client):
    assert legend(client, Variant(players=3)) == {"neutral": "Neutral stone: belongs to no one and counts for no one"}
    assert legend(client, Variant(players=3), "de")["neutral"].startswith("Neutraler Stein")


def test_blocked_squares_are_explained_and_a_plain_board_needs_no_legend(client):
    assert legend(client, build_variant(blocked=4)) == {"blocked": "Blocked square: no stone goes there"}
    assert legend(client, Variant()) == {}
