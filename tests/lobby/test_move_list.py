"""The move list beside the board (below it on a phone): every ply numbered, passes,
time-outs and the computer's moves marked, on a table's page and the computer's page."""
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.drawing import render_state
from games.models import Game, Move
from games.presentation import move_list
from tests.accounts.rated_play import pick, rated_table

pytestmark = pytest.mark.django_db


def entries(html):
    listed = re.search(r'<ol class="move-list" id="move-list"[^>]*>(.*?)</ol>', html, re.S).group(1)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", item)).strip()
            for item in re.findall(r"<li[^>]*>(.*?)</li>", listed, re.S)]


def test_every_ply_is_listed_numbered_with_passes_time_outs_and_the_computer_marked(alice, bob):
    table = rated_table(alice, bob, rated=False)
    game = Game.objects.get(pk=table.game_id)
    board = game.board()
    squares = []
    for _ in range(3):
        squares.append(pick(board))
        board.push(squares[-1])
    made_by = [Move.MadeBy.PLAYER, Move.MadeBy.TIMEOUT, Move.MadeBy.LEAVER]
    Move.objects.bulk_create(Move(game=game, ply=ply, colour=["black", "white"][(ply - 1) % 2],
                                  square=square, made_by=made_by[ply - 1])
                             for ply, square in enumerate(squares, start=1))
    Game.objects.filter(pk=game.pk).update(ply=3, version=50)
    game = Game.objects.prefetch_related("seats").get(pk=game.pk)
    with translation.override("en"):
        assert entries(render_state(game)) == [
            f"1. Black {squares[0]}", f"2. White {squares[1]} (time-out)",
            f"3. Black {squares[2]} (computer, for a player who left)"]
        passed = move_list([Move(ply=4, colour="white", square="pass", made_by=Move.MadeBy.AUTO)])
        assert [(m["number"], m["square"], m["mark"]) for m in passed] == [(4, "pass", "")]
    with translation.override("de"):
        listed = entries(render_state(game, language="de"))
        assert move_list([Move(ply=4, colour="white", square="pass")])[0]["square"] == "aussetzen"
    assert listed[1] == f"2. Weiß {squares[1]} (Zeit abgelaufen)"


def test_the_computer_page_lists_its_moves_too(client):
    page = client.post(reverse("play"), {"board": "6x6", "players": 2, "level": "easy", "blocked": 0,
                                        "handicap": 0, "handicap_colour": "white"}, follow=True).content.decode()
    assert 'id="move-list"' in page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_move_list_is_beside_the_board_on_a_laptop_and_below_it_on_a_phone(live_site, browser):
    from playwright.sync_api import expect

    from tests.lobby.browser_people import LAPTOP, PHONE

    for viewport, beside in ((LAPTOP, True), (PHONE, False)):
        context = browser.new_context(viewport=viewport, locale="en-GB")
        page = context.new_page()
        errors = []
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.goto(f"{live_site.url}/play/")
        page.get_by_role("button", name=re.compile("New game|Start", re.I)).first.click()
        page.wait_for_selector("#game-state .board")
        page.wait_for_load_state()
        page.locator("#game-state button.cell.legal").first.click()
        expect(page.locator("#move-list li")).not_to_have_count(0)
        # One read of both: the computer's reply may swap the state in between two.
        board, listed = page.evaluate("""() => ["#game-state .board", "#move-list"].map(part => {
            const r = document.querySelector(part).getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height}; })""")
        if beside:
            assert listed["x"] >= board["x"] + board["width"]
        else:
            assert listed["y"] >= board["y"] + board["height"]
        assert listed["x"] + listed["width"] <= viewport["width"]
        assert errors == []
        context.close()


def test_before_the_first_move_the_list_says_no_moves_yet(alice, bob):
    game = Game.objects.prefetch_related("seats").get(pk=rated_table(alice, bob, rated=False).game_id)
    for language, said in (("en", "No moves yet."), ("de", "Noch keine Züge.")):
        with translation.override(language):
            html = render_state(game, language=language)
        assert said in html and entries(html) == []
    Move.objects.create(game=game, ply=1, colour="black", square=pick(game.board()))
    Game.objects.filter(pk=game.pk).update(ply=1, version=game.version + 1)
    game = Game.objects.prefetch_related("seats").get(pk=game.pk)
    with translation.override("en"):
        html = render_state(game)
    assert "No moves yet." not in html and len(entries(html)) == 1
