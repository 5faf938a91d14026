"""Hostile input: numbers that are not numbers, records nested a thousand deep, ids
with NUL bytes, websocket paths that lead nowhere. Each gets a clear answer in the
4xx range (or is read as absent) and changes nothing; none is ever a 500."""
import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from config.asgi import application
from games import Variant
from games.access import Viewer
from games.models import Game, Move
from games.creation import create_computer_game
from lobby import actions as tables
from tests.review.conftest import WIPEOUT, store_game

NOT_NUMBERS = ["²", "٣", "1_000", "9" * 5000, "-", "", "1e3", " 4\x00"]
DEEP = 1000


@pytest.fixture
def make_user(db):
    def make(name):
        return get_user_model().objects.create_user(username=name, password="a-long-pass-phrase")
    return make


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("ply", NOT_NUMBERS)
def test_sharing_and_analysis_read_a_strange_ply_as_no_ply(make_user, ply):
    alice = make_user("alice")
    game = store_game(WIPEOUT, players=[alice])
    client = signed_in(alice)
    shared = client.post(f"/games/{game.public_id}/public/", {"public": "1", "ply": ply})
    assert shared.status_code == 302 and shared["Location"] == f"/games/{game.public_id}/"
    assert Game.objects.get(pk=game.pk).is_public
    analysed = client.post(f"/games/{game.public_id}/analysis/", {"ply": ply}, headers={"HX-Request": "true"})
    assert analysed.status_code == 200 and "Move 9 of 9" in analysed.content.decode()
    assert client.get(f"/games/{game.public_id}/", {"ply": ply}).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("ply", NOT_NUMBERS)
def test_a_move_or_undo_with_a_strange_ply_is_refused_and_changes_nothing(make_user, ply):
    alice = make_user("alice")
    client = signed_in(alice)
    game = create_computer_game(Viewer(user=alice), Variant(board="6x6"))
    for action, data in (("move", {"square": "c4", "ply": ply}), ("undo", {"ply": ply})):
        answer = client.post(f"/play/{game.public_id}/{action}/", data, headers={"HX-Request": "true"})
        assert 400 <= answer.status_code < 500, action
        assert "reload the page" in answer.content.decode()
    table = tables.open_table(alice, Variant(board="6x6"), computer_colours=["white"])
    answer = client.post(f"/tables/{table.code}/move/", {"square": "c4", "ply": ply}, headers={"HX-Request": "true"})
    assert 400 <= answer.status_code < 500 and "reload the page" in answer.content.decode()
    assert not Move.objects.filter(game__in=[game.pk, table.game_id], made_by=Move.MadeBy.PLAYER).exists()


def nested(depth):
    return '{"variant": {"board": "8x8"}, "moves": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.django_db
def test_a_record_nested_a_thousand_deep_gets_a_form_error_by_every_road():
    client = Client()
    fields = {"board": "8x8", "players": "2", "blocked": "", "handicap": "0", "handicap_colour": "white"}
    message = "nested too deeply"
    for record in (nested(DEEP), '{"a":' * DEEP + "1" + "}" * DEEP, '{"x": ' + "[" * 50_000):
        looked_at = client.get("/games/import/", {"moves": record})
        pasted = client.post("/games/import/", {**fields, "transcript": record})
        uploaded = client.post("/games/import/", {**fields, "file": SimpleUploadedFile("deep.json", record.encode())})
        for answer in (looked_at, pasted, uploaded):
            assert answer.status_code == 400
            page = answer.content.decode()
            assert message in page
    german = client.get("/games/import/", {"moves": nested(DEEP)}, headers={"Accept-Language": "de"})
    assert german.status_code == 400 and "zu tief verschachtelt" in german.content.decode()
    # a real record nests four deep and still comes in
    record = '{"variant": {"board": "8x8", "blocked": []}, "moves": [{"square": "f5", "flips": ["e5"]}]}'
    assert client.get("/games/import/", {"moves": record}).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/games/a\x00b/", "/play/a\x00b/", "/games/" + "x" * 5000 + "/record.json",
                                  "/accounts/players/a\x00b/", "/tables/ABC\x00DE/", "/tables/ABC%00DE/sit/"])
def test_ids_that_cannot_exist_are_not_looked_up(path, make_user):
    client = signed_in(make_user("alice"))
    method = client.post if path.endswith("sit/") else client.get
    assert method(path).status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["/ws/", "/ws/nothing/", "/", "/ws/page/", "/ws/page/?game=a b", "/ws/page/x/",
                                  "/ws/page/?game=a\x00b", "/ws/page/?table=ABCDE\x0023456",
                                  "/ws/page/?table=abcde23456", "/ws/page/?lobby=2", "/ws/games/abc/"])
async def test_websocket_paths_without_a_route_are_refused(path):
    communicator = WebsocketCommunicator(application, path, headers=[(b"host", b"127.0.0.1"),
                                                                      (b"origin", b"http://127.0.0.1")])
    connected, _code = await communicator.connect(timeout=5)
    assert not connected
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_game_socket_with_undecodable_query_bytes_still_connects():
    from asgiref.sync import sync_to_async

    game = await sync_to_async(lambda: store_game(WIPEOUT, public=True))()
    communicator = WebsocketCommunicator(application, f"/ws/page/?game={game.public_id}&lang=\xff\xfe",
                                         headers=[(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")])
    communicator.scope["query_string"] = f"game={game.public_id}&".encode() + b"lang=\xff\xfe&x"
    connected, _code = await communicator.connect(timeout=5)
    assert connected
    assert "<" in await communicator.receive_from(timeout=5)  # the state, drawn in English
    await communicator.disconnect()


@pytest.mark.django_db
@pytest.mark.parametrize("target", ["60", "black", "home", "//evil.example/", "http://evil.example/"])
def test_a_next_that_is_not_a_path_here_leads_home(make_user, target):
    client = signed_in(make_user("alice"))
    assert client.get("/accounts/signup/", {"next": target})["Location"] == "/"
    fresh = Client().post("/accounts/signup/", {"username": "bob", "password1": "a long enough passphrase",
                                                "password2": "a long enough passphrase", "next": target})
    assert fresh.status_code == 302 and fresh["Location"] == "/"
