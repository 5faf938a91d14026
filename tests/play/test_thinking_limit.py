"""The limit on games against the computer thinking at once (games.thinking), through
the real views: past it a move or a new game the computer opens is refused in the
page's language and changes nothing; an answer frees the place; every place lapses."""
import time

import pytest
import redis as redis_py
from django.conf import settings
from django.test import Client

from games import Variant
from games.access import GUEST_TOKEN_KEY, Viewer
from games.models import Game, Move
from games.creation import create_computer_game
from games.services import computer_move
from games.thinking import THINKING_SECONDS
from tests import servers
from tests.play.helpers import FirstChoice

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
BUSY = "The computer is still thinking on your other games; try again once it has answered."
BUSY_DE = "Der Computer denkt noch über deine anderen Spiele nach"


@pytest.fixture(autouse=True)
def no_places_and_no_answers(redis_server):
    """No place left by another test, and no worker of this session answering meanwhile."""
    client = redis_py.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter("reversi:thinking:*"):
        client.delete(key)
    with servers.workers_paused():
        yield client
    client.close()


def visitor(token, address="127.0.0.1"):
    client = Client(REMOTE_ADDR=address)
    session = client.session
    session[GUEST_TOKEN_KEY] = token
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    return client


def games_of(token, count):
    """`count` games of this guest in which they play Black, to move first."""
    return [create_computer_game(Viewer(guest_token=token), Variant(), "hard", rng=FirstChoice())
            for _ in range(count)]


def move(client, game, **headers):
    return client.post(f"/play/{game.public_id}/move/", {"square": "d3", "ply": 0}, **HTMX, **headers)


def test_a_third_game_thinking_is_refused_and_nothing_changes_until_the_computer_answers(
        django_capture_on_commit_callbacks):
    client = visitor("limit-one")
    first, second, third = games_of("limit-one", 3)
    assert move(client, first).status_code == 200
    assert move(client, second).status_code == 200
    refused = move(client, third)
    assert refused.status_code == 429
    assert BUSY in refused.content.decode()
    assert 'data-ply="0"' in refused.content.decode()  # the position as it is
    assert Game.objects.get(pk=third.pk).ply == 0 and not Move.objects.filter(game=third).exists()
    # German page, German refusal.
    assert BUSY_DE in move(client, third, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    # The computer answers in the first game (what the worker's task does): its place is free.
    with django_capture_on_commit_callbacks(execute=True):  # after commit, as in the worker
        assert computer_move(first.pk, 1) is not None
    assert move(client, third).status_code == 200
    assert Game.objects.get(pk=third.pk).ply == 1


def test_the_same_game_asked_twice_holds_one_place_and_a_refused_move_gives_its_place_back():
    client = visitor("limit-two")
    first, second, third = games_of("limit-two", 3)
    assert move(client, first).status_code == 200
    assert move(client, first).status_code == 409  # stale: the game moved on, no second place
    illegal = client.post(f"/play/{second.public_id}/move/", {"square": "a1", "ply": 0}, **HTMX)
    assert illegal.status_code == 400  # refused for itself: it takes no place
    assert move(client, second).status_code == 200
    assert move(client, third).status_code == 429


def test_an_address_is_limited_across_its_visitors():
    for token in ("addr-a", "addr-b"):
        client = visitor(token, "10.1.2.3")
        for game in games_of(token, 2):
            assert move(client, game).status_code == 200
    late = visitor("addr-c", "10.1.2.3")
    game, = games_of("addr-c", 1)
    assert move(late, game).status_code == 429
    elsewhere = visitor("addr-c", "10.9.9.9")  # the same visitor from another address is within both
    assert move(elsewhere, game).status_code == 200


def test_a_new_game_the_computer_would_open_is_refused_past_the_limit_and_none_is_made():
    client = visitor("limit-new")
    for game in games_of("limit-new", 2):
        assert move(client, game).status_code == 200
    before = Game.objects.count()
    form = {"board": "10x10", "players": 2, "blocked": 0, "handicap": 0, "handicap_colour": "white", "level": "hard"}
    answers = [client.post("/play/", form, HTTP_ACCEPT_LANGUAGE="de") for _ in range(16)]  # colours drawn at random
    refused = [answer for answer in answers if answer.status_code == 429]
    made = [answer for answer in answers if answer.status_code == 302]
    assert refused and len(made) + len(refused) == len(answers)
    assert BUSY_DE in refused[0].content.decode()
    assert Game.objects.count() == before + len(made)
    for answer in made:  # the visitor opens every game that was made: nothing thinks in it
        game = Game.objects.get(public_id=answer.url.strip("/").split("/")[-1])
        assert game.seat_of(game.turn).is_computer is False


def test_every_place_lapses_so_a_lost_answer_does_not_block_a_visitor_for_ever(no_places_and_no_answers):
    client = visitor("limit-lapse")
    game, = games_of("limit-lapse", 1)
    assert move(client, game).status_code == 200
    keys = list(no_places_and_no_answers.scan_iter("reversi:thinking:*"))
    assert len(keys) == 3  # the visitor's, the address's and the game's note
    for key in keys:
        assert 0 < no_places_and_no_answers.ttl(key) <= THINKING_SECONDS
    visitor_key = next(key for key in keys if b":visitor:" in key)
    (_, until), = no_places_and_no_answers.zrange(visitor_key, 0, -1, withscores=True)
    assert until <= time.time() + THINKING_SECONDS
