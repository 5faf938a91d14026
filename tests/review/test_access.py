"""Nobody sees a private game that is not theirs: every review URL answers 404,
exactly as for a game that does not exist. Players share a finished game."""
import pytest

from games.models import Game, GameAnalysis
from tests.review.conftest import WIPEOUT, store_game

pytestmark = pytest.mark.django_db

READ_URLS = ["/games/{id}/", "/games/{id}/?ply=3", "/games/{id}/transcript.txt", "/games/{id}/record.json"]
POST_URLS = ["/games/{id}/public/", "/games/{id}/analysis/"]


def as_guest(client, token):
    session = client.session
    session["guest_token"] = token
    session.save()
    return client


def test_strangers_get_404_for_a_private_game_like_for_no_game(client, make_user):
    owner = make_user("owner")
    game = store_game(WIPEOUT, players=[owner])
    guest_game = store_game(WIPEOUT, players=["the-guest"])
    intruder = make_user("intruder")
    for visitor in ("anonymous", "other guest", "other user"):
        if visitor == "other guest":
            as_guest(client, "another-guest")
        elif visitor == "other user":
            client.force_login(intruder)
        for target in (game, guest_game):
            for url in READ_URLS:
                response = client.get(url.format(id=target.public_id))
                assert response.status_code == 404, (visitor, url)
                assert WIPEOUT not in response.content.decode()
            for url in POST_URLS:
                assert client.post(url.format(id=target.public_id), {"public": "1"}).status_code == 404
        for url in READ_URLS:
            assert client.get(url.format(id="no-such-game")).status_code == 404
    assert not Game.objects.filter(is_public=True).exists()
    assert not GameAnalysis.objects.exists()


def test_players_always_see_their_games(client, make_user):
    owner = make_user("owner")
    game = store_game(WIPEOUT, players=[owner])
    guest_game = store_game(WIPEOUT, players=["the-guest"])
    client.force_login(owner)
    for url in READ_URLS:
        assert client.get(url.format(id=game.public_id)).status_code == 200
    client.logout()
    as_guest(client, "the-guest")
    for url in READ_URLS:
        assert client.get(url.format(id=guest_game.public_id)).status_code == 200


def test_a_player_makes_a_finished_game_public_and_private_again(client, make_user):
    owner = make_user("owner")
    game = store_game(WIPEOUT, players=[owner])
    client.force_login(owner)
    page = client.get(f"/games/{game.public_id}/").content.decode()
    assert "Only the players can see this game." in page and 'id="make-public"' in page
    response = client.post(f"/games/{game.public_id}/public/", {"public": "1", "ply": "4"})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.public_id}/?ply=4"
    assert Game.objects.get(pk=game.pk).is_public
    client.logout()
    for url in READ_URLS:
        assert client.get(url.format(id=game.public_id)).status_code == 200  # anyone with the link
    page = client.get(f"/games/{game.public_id}/").content.decode()
    assert 'id="make-private"' not in page and "Anyone with this link can review the game" in page
    # ...but only a player may change it
    assert client.post(f"/games/{game.public_id}/public/", {"public": "0"}).status_code == 403
    assert Game.objects.get(pk=game.pk).is_public
    client.force_login(owner)
    fragment = client.post(f"/games/{game.public_id}/public/", {"public": "0"}, headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and 'id="make-public"' in fragment.content.decode()
    client.logout()
    assert client.get(f"/games/{game.public_id}/").status_code == 404


def test_a_running_game_cannot_be_made_public(client):
    game = store_game(WIPEOUT, players=["the-guest"], finished=False)
    as_guest(client, "the-guest")
    response = client.post(f"/games/{game.public_id}/public/", {"public": "1"})
    assert response.status_code == 302
    assert not Game.objects.get(pk=game.pk).is_public


def test_only_get_and_post_where_meant(client):
    game = store_game(WIPEOUT, public=True)
    assert client.get(f"/games/{game.public_id}/public/").status_code == 405
    assert client.get(f"/games/{game.public_id}/analysis/").status_code == 405
    assert client.post(f"/games/{game.public_id}/").status_code == 405


def test_my_games_lists_only_the_viewers_games(client, make_user):
    owner, other = make_user("owner"), make_user("other")
    mine = store_game(WIPEOUT, players=[owner])
    theirs = store_game(WIPEOUT, players=[other], public=True)
    as_guest(client, "my-browser")
    guest_mine = store_game(WIPEOUT, players=["my-browser"])
    client.force_login(owner)
    html = client.get("/games/").content.decode()
    assert mine.public_id in html and theirs.public_id not in html
    # signed in, the games of this browser's guest session are listed too
    assert guest_mine.public_id in html
