"""Export (transcript, JSON record) and import (paste or upload; errors name the
first illegal move): what goes out comes back as the same game."""
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from games import Board, IllegalMoveError, Variant
from games.models import Move, Seat
from games.review.forms import illegal_move_message
from games.review.records import MAX_NAME_LENGTH
from tests.people import signed_in
from tests.review.conftest import PASS_GAME_6X6, WIPEOUT, store_game

pytestmark = pytest.mark.django_db

DEFAULTS = {"board": "8x8", "players": "2", "blocked": "", "handicap": "0", "handicap_colour": "white"}


def import_(client, **fields):
    return client.post("/games/import/", {**DEFAULTS, **fields})


def test_transcript_export_is_the_usual_othello_form(client):
    game = store_game(PASS_GAME_6X6, Variant(board="6x6"), public=True)
    response = client.get(f"/games/{game.public_id}/transcript.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="reversi-{game.public_id}.txt"'
    assert response.content.decode() == PASS_GAME_6X6 + "\n"  # passes left out


def test_json_record_holds_variant_moves_players_and_result(client, make_user):
    alice = make_user("alice")
    variant = Variant(board="6x6")
    game = store_game(PASS_GAME_6X6, variant, players=[alice], made_by={5: Move.MadeBy.TIMEOUT})
    client.force_login(alice)
    response = client.get(f"/games/{game.public_id}/record.json")
    assert response["Content-Disposition"] == f'attachment; filename="reversi-{game.public_id}.json"'
    record = json.loads(response.content)
    assert record["variant"] == variant.to_dict()
    assert [m["square"] for m in record["moves"]] == list(Board.from_transcript(variant, PASS_GAME_6X6).history)
    assert record["moves"][31] == {"ply": 32, "colour": "white", "square": "pass", "flips": [], "made_by": "auto"}
    assert record["moves"][4]["made_by"] == "timeout"
    assert record["transcript"] == PASS_GAME_6X6
    assert record["players"] == [{"colour": "black", "name": "alice", "computer": False, "left": False},
                                 {"colour": "white", "name": "Computer", "computer": True, "left": False}]
    assert record["result"]["winner"] == "black" and record["result"]["score"] == {"black": 24, "white": 12}


def test_pasted_transcript_is_shown_at_a_shareable_url_without_storing(client):
    from games.models import Game

    response = import_(client, transcript="F5 d6, c3 ; 1. d3")
    assert response.status_code == 302
    url = response["Location"]
    assert url.startswith("/games/import/?board=8x8&moves=f5d6c3d3")
    html = client.get(url).content.decode()
    assert "Imported game" in html and "Move 4 of 4" in html
    assert 'href="{}&amp;ply=2"'.format(url.replace("&", "&amp;")) in html
    assert Game.objects.count() == 0
    html = client.get(url + "&ply=1", headers={"HX-Request": "true"}).content.decode()
    assert html.lstrip().startswith('<div id="review"') and "Black played f5 and flipped 1." in html


def test_round_trip_transcript_with_variant_and_json_record(client):
    variant = Variant(board="8x8", blocked=("b2", "g7"))
    board = Board(variant)
    import random
    rng = random.Random(5)
    while not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    game = store_game(board.transcript(), variant, public=True)
    text = client.get(f"/games/{game.public_id}/transcript.txt").content.decode()
    record = client.get(f"/games/{game.public_id}/record.json").content
    by_paste = client.get(import_(client, transcript=text, blocked="g7, b2")["Location"])
    upload = SimpleUploadedFile("game.json", record, content_type="application/json")
    by_upload = client.get(client.post("/games/import/", {**DEFAULTS, "file": upload})["Location"])
    for response in (by_paste, by_upload):
        html = response.content.decode()
        assert response.context["last_ply"] == board.ply
        assert response.context["transcript"] == board.transcript()
        assert [m["square"] for m in response.context["moves"]] == list(board.history)
        assert "2 blocked squares" in html


def test_uploaded_transcript_file_and_a_ten_by_ten_game(client):
    variant = Variant(board="10x10")
    board = Board(variant)
    while not board.is_game_over() and board.ply < 40:
        board.push(board.legal_moves[-1])
    assert any(len(m) == 3 for m in board.history)  # j10-style squares
    upload = SimpleUploadedFile("game.txt", (board.transcript() + "\n").encode())
    response = client.post("/games/import/", {**DEFAULTS, "board": "10x10", "file": upload})
    html = client.get(response["Location"]).content.decode()
    assert f"Move {board.ply} of {board.ply}" in html


@pytest.mark.parametrize("fields, message", [
    ({"transcript": "d3c5b6e3f3b5f5e2a5g3a1"}, "Move 11 (a1) is not legal: it flips no stones."),
    ({"transcript": "f5f5"}, "Move 2 (f5) is not legal: that square is already taken."),
    ({"transcript": "f5d6k3"}, "Move 3 cannot be read."),
    ({"transcript": "f5 pass"}, "Move 2 (pass) is not legal: a player may only pass when they have no legal move."),
    ({"transcript": "f5d6a1", "board": "octagon"}, "Move 1 (f5) is not legal"),
    ({"transcript": "c3", "board": "6x6", "players": "3"}, "The 6×6 board is for 2 players only."),
    ({"transcript": ""}, "Paste a transcript or choose a file."),
    ({"transcript": "f5d6c3d3c4f4f6f3e6e7d7c6c5b6b5a6a5b4c7f7g5e8d8a4c8g6h6g4h4h5f8b8g8b7e3g3a3h3f2"
                    "c2a8a7e2h8d2f1e1g1g7b3b2c1d1a2h7g2h1b1a1h2g1", "board": "8x8"}, "is not legal"),
    ({"transcript": '{"variant": {"board": "9x9"}, "moves": []}'}, "Choose a board: 6×6, 8×8, 10×10 or the octagon."),
    ({"transcript": '{"moves": ["f5"]}'}, "A JSON record needs its variant and its moves."),
    ({"transcript": '{"variant": {}, "moves": ["f5", "d6", "d6"]}'}, "Move 3 (d6) is not legal: that square is"),    ({"transcript": WIPEOUT + "f5"}, "Move 10 (f5) is not legal: the game was already over."),
    ({"transcript": "f5 j10"}, "Move 2 (j10) is not legal: there is no such square on this board."),
    ({"transcript": "c3", "free_opening": "1"}, "Move 1 (c3) is not legal: the first four moves go on the central squares."),
])
def test_import_errors_name_the_first_illegal_move(client, fields, message):
    response = import_(client, **fields)
    assert response.status_code == 400
    assert message in response.content.decode()


@pytest.mark.parametrize("reason", sorted(set(IllegalMoveError.REASONS) - {"unreadable", "must-pass"}))
def test_every_reason_the_rules_refuse_a_move_is_told_in_english_and_german(reason):
    """The review only translates the rules core's reason ("must-pass" cannot reach an
    import: the due pass is put in by the replay)."""
    error = IllegalMoveError("refused", move="d9", number=12, reason=reason)
    with translation.override("en"):
        english = illegal_move_message(error)
    with translation.override("de"):
        german = illegal_move_message(error)
    assert english.startswith("Move 12 (d9) is not legal: ") and "not allowed here" not in english
    assert german.startswith("Zug 12 (d9)") and english.split(": ")[1] not in german


def test_blocked_square_in_the_way(client):
    response = import_(client, transcript="f5 d6 c3 d3 c4 b3", blocked="b3 g6")
    assert "Move 6 (b3) is not legal: that square is not part of the board." in response.content.decode()


def test_exported_wipeout_reimports_with_its_result(client):
    game = store_game(WIPEOUT, public=True)
    text = client.get(f"/games/{game.public_id}/transcript.txt").content.decode()
    html = client.get(import_(client, transcript=text)["Location"]).content.decode()
    assert "Black wins 64–0: Black 64, White 0." in html and "Neither player can move." in html


def test_an_imported_json_record_keeps_the_players_names_escaped_and_cut_to_length(client, make_user):
    alice = make_user("alice")
    game = store_game(PASS_GAME_6X6, Variant(board="6x6"), players=[alice, "guest"])
    Seat.objects.filter(game=game, colour="white").update(guest_name="<b>Bob</b> & co")
    client.force_login(alice)
    record = json.loads(client.get(f"/games/{game.public_id}/record.json").content)
    assert [player["name"] for player in record["players"]] == ["alice", "<b>Bob</b> & co"]
    record["players"][0]["name"] = "Al\x00ice  " + "x" * 100  # a record edited by hand
    url = import_(client, transcript=json.dumps(record))["Location"]
    html = client.get(url).content.decode()
    long_name = "Al ice " + "x" * (MAX_NAME_LENGTH - 7)
    assert f"Black: {long_name}</li>" in html
    assert "White: &lt;b&gt;Bob&lt;/b&gt; &amp; co</li>" in html and "<b>Bob</b>" not in html
    assert f"Played by {long_name}." in client.get(url + "&ply=1").content.decode()
    assert '<span class="visually-hidden">White: </span>&lt;b&gt;Bob' in html
    # the names are in the address, like the moves: sharing it shares them, still cut and escaped
    html = client.get(url.replace("name_white=", "name_white=" + "y" * 100)).content.decode()
    assert "y" * MAX_NAME_LENGTH + "&lt;" not in html and "y" * MAX_NAME_LENGTH in html
    # a transcript carries no names, and a record without players still imports
    del record["players"]
    html = client.get(import_(client, transcript=json.dumps(record))["Location"]).content.decode()
    assert "Black: " not in html.split('class="players"')[1].split("</ul>")[0]


def test_an_imported_finished_game_is_analysed_as_its_importers_once(client, make_user):
    from games.models import Game, GameAnalysis

    alice, bob = make_user("alice"), make_user("bob")
    game = store_game(PASS_GAME_6X6, Variant(board="6x6"), players=[alice])
    client.force_login(alice)
    record = client.get(f"/games/{game.public_id}/record.json").content.decode()
    url = import_(client, transcript=record)["Location"]
    html = client.get(url).content.decode()
    form = html.split('action="/games/import/analysis/"')[1].split("</form>")[0]
    assert 'name="csrfmiddlewaretoken"' in form and 'id="analyse"' in form
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))
    assert fields["board"] == "6x6" and fields["name_black"] == "alice" and fields["name_white"] == "Computer"
    assert fields["computers"] == "white"  # the record says so: its moves are not judged

    answers = [client.post("/games/import/analysis/", fields) for _ in range(2)]  # asked twice
    stored = Game.objects.get(kind=Game.Kind.IMPORTED)
    assert all(answer.status_code == 302 and answer["Location"] == f"/games/{stored.public_id}/" for answer in answers)
    assert stored.owner == alice and stored.is_over and not stored.is_public and not stored.rated
    assert stored.score == game.score and list(stored.moves.values_list("square", flat=True)) == list(
        game.moves.values_list("square", flat=True))
    assert GameAnalysis.objects.get().game == stored
    assert set(stored.moves.filter(colour="white").exclude(square="pass").values_list("made_by", flat=True)) == {
        Move.MadeBy.COMPUTER}
    assert set(stored.moves.filter(colour="black").values_list("made_by", flat=True)) == {Move.MadeBy.PLAYER}
    page = client.get(f"/games/{stored.public_id}/").content.decode()
    assert "Imported game" in page and "Black: alice</li>" in page and "Analysing… 0/" in page
    # nobody else sees it; a guest's import is the guest's
    assert signed_in(bob).get(f"/games/{stored.public_id}/").status_code == 404
    guest = Client()
    assert guest.post("/games/import/analysis/", fields).status_code == 302
    assert Game.objects.filter(kind=Game.Kind.IMPORTED).count() == 2
    assert guest.get(f"/games/{stored.public_id}/").status_code == 404
    theirs = Game.objects.filter(kind=Game.Kind.IMPORTED).exclude(pk=stored.pk).get()
    assert theirs.owner is None and theirs.owner_token and guest.get(f"/games/{theirs.public_id}/").status_code == 200


def test_an_unfinished_or_broken_import_is_not_stored(client):
    from games.models import Game

    url = import_(client, transcript="f5d6c3d3")["Location"]
    assert 'action="/games/import/analysis/"' not in client.get(url).content.decode()
    fields = {"board": "8x8", "moves": "f5d6c3d3"}
    response = client.post("/games/import/analysis/", fields, follow=True)
    assert "Only a finished game can be analysed." in response.content.decode()
    response = client.post("/games/import/analysis/", {"board": "8x8", "moves": "f5d6c3c3"})
    assert response.status_code == 400 and "Move 4 (c3) is not legal" in response.content.decode()
    response = client.post("/games/import/analysis/", {**fields, "board": "9x9"}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    assert not Game.objects.exists()
