"""The play pages over HTTP, as htmx and as plain forms send them."""
import pytest

from games import Variant
from games.access import GUEST_TOKEN_KEY, Viewer
from games.models import Game
from games.creation import create_computer_game
from tests.play.helpers import FirstChoice

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def my_game(client, variant=None):
    """A game of this client's session in which it plays Black."""
    session = client.session
    session[GUEST_TOKEN_KEY] = "token-of-this-browser"
    session.save()
    return create_computer_game(Viewer(guest_token="token-of-this-browser"), variant or Variant(),
                                "easy", rng=FirstChoice())


def test_the_form_is_prefilled_from_the_link(client):
    page = client.get("/play/?board=octagon&players=3&anti=1&blocked=4").content.decode()
    assert '<option value="octagon" selected>' in page
    assert '<option value="3" selected>' in page
    assert 'name="anti" id="id_anti" checked' in page
    assert '<option value="4" selected>' in page


def test_starting_a_game_redirects_to_it_and_draws_my_colour(client):
    response = client.post("/play/", {"board": "8x8", "players": 2, "blocked": 0, "handicap": 0,
                                      "handicap_colour": "white", "level": "hard"})
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == f"/play/{game.public_id}/"
    assert game.level == "hard" and game.kind == "computer"
    assert sorted(seat.is_computer for seat in game.seats.all()) == [False, True]
    page = client.get(response.url).content.decode()
    assert page.count('data-square="') == 64
    assert '&amp;game=%s"' % game.public_id in page  # the page's socket carries its game


def test_an_impossible_variant_is_refused_in_the_form_saying_what_to_change(client):
    response = client.post("/play/", {"board": "6x6", "players": 3, "blocked": 0, "handicap": 0,
                                      "handicap_colour": "white", "level": "easy"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "The 6×6 board is for 2 players only." in html and "§" not in html
    assert not Game.objects.exists()


def test_a_move_over_htmx_answers_with_the_new_state(client):
    game = my_game(client)
    response = client.post(f"/play/{game.public_id}/move/", {"square": "d3", "ply": 0}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="game-state" hx-swap-oob="true"' in html and 'data-ply="1"' in html
    assert 'data-square="d3" data-stone="black"' in html


@pytest.mark.parametrize("data, status, message", [
    ({"square": "a1", "ply": 0}, 400, "a1 is not a legal move."),
    ({"square": "d3", "ply": 7}, 409, "The game has moved on"),
    ({"square": "d3"}, 400, "without the position"),
    ({"square": "d3", "ply": "x"}, 400, "without the position"),
])
def test_bad_moves_get_a_clear_message_and_change_nothing(client, data, status, message):
    game = my_game(client)
    response = client.post(f"/play/{game.public_id}/move/", data, **HTMX)
    assert response.status_code == status
    assert message in response.content.decode()
    game.refresh_from_db()
    assert game.ply == 0 and not game.moves.exists()


def test_without_javascript_a_bad_move_redirects_back_with_the_message(client):
    game = my_game(client)
    response = client.post(f"/play/{game.public_id}/move/", {"square": "a1", "ply": 0}, follow=True)
    assert response.redirect_chain == [(f"/play/{game.public_id}/", 302)]
    assert "a1 is not a legal move." in response.content.decode()


def test_a_game_of_another_session_is_not_found(client):
    game = create_computer_game(Viewer(guest_token="somebody else"), Variant(), "easy", rng=FirstChoice())
    assert client.get(f"/play/{game.public_id}/").status_code == 404
    assert client.post(f"/play/{game.public_id}/move/", {"square": "d3", "ply": 0}, **HTMX).status_code == 404
    assert client.post(f"/play/{game.public_id}/undo/", {"ply": 0}, **HTMX).status_code == 404
    assert client.post(f"/play/{game.public_id}/level/", {"level": "hard"}, **HTMX).status_code == 404
    game.refresh_from_db()
    assert game.ply == 0 and game.level == "easy"


def test_the_level_menu_changes_the_computer_for_its_next_move(client):
    game = my_game(client)
    assert client.post(f"/play/{game.public_id}/level/", {"level": "hard"}, **HTMX).status_code == 204
    assert client.post(f"/play/{game.public_id}/level/", {"level": "grandmaster"}, **HTMX).status_code == 400
    game.refresh_from_db()
    assert game.level == "hard"


def test_new_game_keeps_the_variant_and_draws_blocked_squares_again(client):
    game = my_game(client, Variant.with_random_blocked(4, seed=1, board="8x8", anti=True))
    response = client.post(f"/play/{game.public_id}/again/", {"confirm": "1"})
    new = Game.objects.exclude(pk=game.pk).get()
    assert response.url == f"/play/{new.public_id}/"
    assert new.variant_obj.anti and len(new.variant_obj.blocked) == 4


def test_my_games_lists_the_games_of_this_session_only(client):
    mine = my_game(client)
    theirs = create_computer_game(Viewer(guest_token="somebody else"), Variant(board="6x6"), "easy")
    page = client.get("/games/").content.decode()
    assert mine.public_id in page
    assert theirs.public_id not in page


def test_post_without_csrf_token_is_refused(client):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/play/", {"board": "8x8"})
    assert response.status_code == 403
