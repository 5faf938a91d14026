"""The review page without a browser: the board at any ply against the rules
library, the move list, who moved, flips, the chart, the result, htmx fragments."""
import re

import pytest

from games import Board, Variant
from games.models import Move
from tests.review.conftest import FULL_GAME, PASS_GAME_6X6, PASS_PLY_6X6, WIPEOUT, store_game

pytestmark = pytest.mark.django_db

CELL = re.compile(r'<span class="cell([^"]*)" data-square="([a-j]\d+)" data-stone="(\w*)"')


def cells(html):
    """{square: (stone, classes)} of the board drawn in `html`."""
    return {square: (stone, classes.split()) for classes, square, stone in CELL.findall(html)}


def position(variant, transcript, ply):
    board = Board.from_transcript(variant, transcript)
    replay = Board(variant)
    for move in board.history[:ply]:
        replay.push(move)
    return replay


def guest_client(client, token="guest-token-1"):
    session = client.session
    session["guest_token"] = token
    session.save()
    return client


def test_the_board_at_every_shown_ply_is_the_rules_library_position(client):
    game = store_game(FULL_GAME, players=["guest-token-1"])
    guest_client(client)
    for ply in (0, 1, 7, 30, 59, 60):
        html = client.get(f"/games/{game.public_id}/?ply={ply}").content.decode()
        expected = position(Variant(), FULL_GAME, ply)
        drawn = cells(html)
        assert len(drawn) == 64
        assert {sq: stone for sq, (stone, _c) in drawn.items() if stone} == expected.stones()
        flipped = sorted(sq for sq, (_s, classes) in drawn.items() if "flipped" in classes)
        assert flipped == sorted(expected.last_flips)
        last = [sq for sq, (_s, classes) in drawn.items() if "last" in classes]
        assert last == ([expected.history[-1]] if ply else [])
        assert f'aria-current="step">{expected.history[-1]}<' in html if ply else 'aria-current="step"' not in html


def test_default_is_the_final_position_and_bad_plies_are_clamped(client):
    game = store_game(FULL_GAME, public=True)
    final = Board.from_transcript(Variant(), FULL_GAME)
    for query in ("", "?ply=999", "?ply=abc"):
        html = client.get(f"/games/{game.public_id}/{query}").content.decode()
        assert {sq: s for sq, (s, _c) in cells(html).items() if s} == final.stones()
        assert "Move 60 of 60" in html
    html = client.get(f"/games/{game.public_id}/?ply=-4").content.decode()
    assert "Start position: Black to move." in html


def test_navigation_links_work_without_javascript(client):
    game = store_game(FULL_GAME, public=True)
    url = f"/games/{game.public_id}/"
    html = client.get(url + "?ply=10").content.decode()
    assert f'href="{url}?ply=0"' in html and 'data-nav="first"' in html
    assert f'href="{url}?ply=9" hx-get="{url}?ply=9" data-nav="prev"' in html
    assert f'href="{url}?ply=11" hx-get="{url}?ply=11" data-nav="next"' in html
    assert f'href="{url}?ply=60" hx-get="{url}?ply=60" data-nav="last"' in html
    start = client.get(url + "?ply=0").content.decode()
    assert 'data-nav-disabled="first"' in start and 'data-nav-disabled="prev"' in start
    for ply in range(1, 61):
        assert f'href="{url}?ply={ply}"' in start  # every move links to its position


def test_htmx_gets_only_the_review_region_and_an_announcement(client):
    game = store_game(FULL_GAME, public=True)
    response = client.get(f"/games/{game.public_id}/?ply=5", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert "<html" not in html and html.lstrip().startswith('<div id="review"')
    assert 'id="review-announcer"' in html and 'hx-swap-oob="true"' in html
    assert "Move 5 of 60" in html
    assert "HX-Request" in response["Vary"]
    restore = client.get(f"/games/{game.public_id}/?ply=5",
                         headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert "<html" in restore.content.decode()


def test_who_moved_and_moves_made_by_the_computer_for_a_player(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = store_game(FULL_GAME, players=[alice, bob], kind="table",
                      made_by={3: Move.MadeBy.TIMEOUT, 4: Move.MadeBy.LEAVER})
    client.force_login(alice)
    html = client.get(f"/games/{game.public_id}/?ply=3").content.decode()
    assert "The computer moved for alice, who ran out of time." in html
    html = client.get(f"/games/{game.public_id}/?ply=4").content.decode()
    assert "The computer moved for bob, who had left the table." in html
    assert 'title="the computer, for a player out of time">time-out</span>' in html
    html = client.get(f"/games/{game.public_id}/?ply=5").content.decode()
    assert "Played by alice." in html and "Black played f3 and flipped 1." in html


def test_passes_are_listed_and_replayed(client):
    variant = Variant(board="6x6")
    game = store_game(PASS_GAME_6X6, variant, public=True)
    html = client.get(f"/games/{game.public_id}/?ply={PASS_PLY_6X6}").content.decode()
    assert "White has no move and passes." in html
    assert 'aria-current="step">pass<' in html
    expected = position(variant, PASS_GAME_6X6, PASS_PLY_6X6)
    assert {sq: s for sq, (s, _c) in cells(html).items() if s} == expected.stones()
    assert "Black wins 24–12: Black (Computer) 24, White (Computer) 12." in html and "The board is full." in html


def test_result_chart_and_transcript_are_shown(client):
    game = store_game(FULL_GAME, public=True)
    html = client.get(f"/games/{game.public_id}/?ply=20").content.decode()
    assert "Black wins 39–25: Black (Computer) 39, White (Computer) 25." in html and "The board is full." in html
    assert html.count('<polyline class="series"') == 2
    assert 'class="current-ply"' in html and "After move 20: Black" in html
    assert FULL_GAME in html


def test_a_game_still_being_played_can_be_reviewed_but_not_analysed(client):
    game = store_game(WIPEOUT, players=["guest-token-1"], finished=False)
    guest_client(client)
    html = client.get(f"/games/{game.public_id}/").content.decode()
    assert "This game is still being played." in html
    assert "Move 8 of 8" in html
    assert 'id="analyse"' not in html and 'id="make-public"' not in html


def result_text(html):
    result = re.search(r'<p class="review-result" id="review-result">(.*?)</p>', html, re.S).group(1)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", result)).strip()


def test_a_game_lost_on_time_says_so_once(client, make_user):
    from games.models import Game
    game = store_game(WIPEOUT, players=[make_user("alice"), make_user("bob")], kind=Game.Kind.TABLE, public=True)
    Game.objects.filter(pk=game.pk).update(ending=Game.Ending.TIME, flagged=["white"], winner="black")
    for language, said, not_said in (("en", "White ran out of time.", "lost on time"),
                                     ("de", "Weiß hat die Zeit überschritten.", "auf Zeit verloren")):
        text = result_text(client.get(f"/games/{game.public_id}/", HTTP_ACCEPT_LANGUAGE=language).content.decode())
        assert text.count(said) == 1 and not_said not in text, text
