"""GET /games/<id>/events?since=<v>: a program resumes from the last version it read
(NDJSON), or reads the whole state when the events cannot be given; who may ask is
who may watch, and a stranger asks a limited number of times a minute."""
import json

import pytest
from django.test import Client
from django.urls import reverse

from games import events, events_limit
from games.access import GUEST_TOKEN_KEY
from games.models import Game
from games.services import play_move
from tests.play.test_moves import new_game, visitor

pytestmark = pytest.mark.django_db


def lines(response):
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    return [json.loads(line) for line in response.content.decode().splitlines()]


def url(game, since=None):
    return reverse("game_events", args=[game.public_id]) + (f"?since={since}" if since is not None else "")


def with_events(count, public=True):
    """A game with `count` stored moves' events after its version on entry."""
    game = new_game()
    old = game.version
    numbered = events.record(game, [{"type": "move", "ply": ply, "colour": "black", "square": "d3", "flips": [],
                                     "made_by": "player"} for ply in range(1, count + 1)])
    Game.objects.filter(pk=game.pk).update(version=game.version, is_public=public)
    game.refresh_from_db()
    return game, old, numbered


def stranger(address):
    return Client(REMOTE_ADDR=address)


def test_a_program_resumes_from_its_version_through_many_events():
    game, old, numbered = with_events(400)
    client = stranger("10.0.0.1")
    assert lines(client.get(url(game, old))) == numbered
    assert lines(client.get(url(game, old + 390))) == numbered[390:]
    up_to_date = client.get(url(game, game.version))
    assert lines(up_to_date) == [] and up_to_date["Cache-Control"] == "no-store"


def test_the_whole_state_comes_when_the_events_cannot_be_given():
    game, old, numbered = with_events(events.SINCE_LIMIT + 1)
    client = stranger("10.0.0.2")
    for asked in (url(game), url(game, old), url(game, game.version + 1)):
        [state] = lines(client.get(asked))
        assert state["type"] == "state" and state["v"] == game.version and state["game"] == game.public_id
    assert lines(client.get(url(game, old + 1)))[0] == numbered[1]  # within the limit: the events


def test_the_state_is_the_game_as_data(django_capture_on_commit_callbacks):
    game = new_game()
    square = game.board().legal_moves[0]
    with django_capture_on_commit_callbacks(execute=True):
        game = play_move(game, square, expected_ply=0, viewer=visitor)
    Game.objects.filter(pk=game.pk).update(is_public=True)
    [state] = lines(stranger("10.0.0.3").get(url(game)))  # no version given: the whole state
    assert state["v"] == game.version and state["ply"] >= 1 and state["status"] == "playing"
    assert state["moves"][0]["square"] == square and state["moves"][0]["made_by"] == "player"
    assert sorted(seat["colour"] for seat in state["seats"]) == ["black", "white"]
    assert state["variant"] == game.variant and state["public"] is True


def test_a_private_game_is_its_players_only():
    game, old, numbered = with_events(3, public=False)
    assert stranger("10.0.0.4").get(url(game, old)).status_code == 404
    player = Client(REMOTE_ADDR="10.0.0.4")
    session = player.session
    session[GUEST_TOKEN_KEY] = visitor.guest_token
    session.save()
    assert lines(player.get(url(game, old))) == numbered


def test_a_stranger_is_limited_and_a_player_is_not(settings):
    settings.GAME_EVENTS_ASKS_PER_MINUTE = 3
    game, old, numbered = with_events(2, public=True)
    client = stranger("10.0.0.5")
    # Seven asks in well under a minute: at most one turn of the minute between them.
    answers = [client.get(url(game, old)) for _ in range(7)]
    assert [answer.status_code for answer in answers[:3]] == [200, 200, 200]
    refused = next(answer for answer in answers if answer.status_code == 429)
    assert 0 < int(refused["Retry-After"]) <= 60
    player = Client(REMOTE_ADDR="10.0.0.5")
    session = player.session
    session[GUEST_TOKEN_KEY] = visitor.guest_token
    session.save()
    assert all(lines(player.get(url(game, old))) == numbered for _ in range(5))


def test_the_limit_counts_by_the_minute(rf, settings):
    settings.GAME_EVENTS_ASKS_PER_MINUTE = 2
    request = rf.get("/", REMOTE_ADDR="10.0.0.6")
    now = 1_800_000_000.0  # a minute's start
    assert [events_limit.take(request, now + second) for second in (0, 1, 2)] == [True, True, False]
    assert events_limit.seconds_left(now + 2) == 58
    assert events_limit.take(request, now + 60) and events_limit.take(rf.get("/", REMOTE_ADDR="10.0.0.7"), now)


def test_since_must_be_a_number():
    game, old, numbered = with_events(1)
    assert stranger("10.0.0.8").get(url(game) + "?since=two").status_code == 400
