"""A visitor misclicks against the computer, in English and in German: every refused
click is answered in place (header, board and controls stay; the board is the stored
game's; the message is in the page's language), and squares are markers and buttons
only while it is the visitor's turn."""
import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Move
from tests.pages import (
    MovesSent, Watch, assert_board_is_the_stored_game, assert_whole, htmx_answer, shown_stones, socket_answer)
from tests.play.helpers import start_game, state, wait_for_my_turn_or_end

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


class HeldPushes:
    """The page's websocket, with the server's pushes held back while `holding`, except
    the first one after the page sent a move (the answer to it)."""

    def __init__(self, page):
        self.holding, self.held, self.client, self.answer_due = False, [], None, False
        page.route_web_socket(re.compile(r"/ws/page/"), self.route)

    def route(self, client):
        server = client.connect_to_server()
        self.client = client
        client.on_message(lambda message: self.from_page(message, server))
        server.on_message(self.from_server)

    def from_page(self, message, server):
        self.answer_due = True
        server.send(message)

    def from_server(self, message):
        if self.holding and not self.answer_due:
            self.held.append(message)
        else:
            self.answer_due = False
            self.client.send(message)

    def release(self):
        self.holding = False
        for message in self.held:
            self.client.send(message)
        self.held.clear()


def click_and_read_message(page, square, game):
    """Click a square, wait for the answer on the socket; the page must still be whole
    and show the stored game."""
    with socket_answer(page):
        page.locator(f'#game-state [data-square="{square}"]').click()
    assert_whole(page)
    assert_board_is_the_stored_game(page, game)
    return page.locator("#game-message").inner_text().strip()


def an_empty_square_that_is_not_legal(page):
    return page.locator('#game-state button.cell:not(.legal):not([disabled])[data-stone=""]').first.get_attribute(
        "data-square")


def markers_shown(page):
    """Legal-move dots drawn and squares announced as legal moves on this page."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('#game-state .cell.legal')).filter(c =>
        getComputedStyle(c, '::after').content !== 'none' || /legal|erlaubt/i.test(c.getAttribute('aria-label'))).length""")


def test_misclicks_against_the_computer_are_answered_in_place_in_both_languages(live_site, page):
    watch = Watch(page)
    pushes = HeldPushes(page)
    me = start_game(page, live_site, "board=8x8", level="easy")
    game = Game.objects.get(public_id=page.url.rstrip("/").split("/")[-1])
    wait_for_my_turn_or_end(page)
    assert markers_shown(page) > 0

    square = an_empty_square_that_is_not_legal(page)
    assert click_and_read_message(page, square, game) == f"{square} is not a legal move."
    occupied = page.locator('#game-state button.cell[data-stone="black"]').first.get_attribute("data-square")
    assert click_and_read_message(page, occupied, game) == f"{occupied} is not a legal move."

    # A click on a position the page no longer has (as if a push came in between).
    page.evaluate("document.querySelector('#game-state input[name=ply]').value -= 1")
    legal = page.locator("#game-state button.cell.legal").first.get_attribute("data-square")
    assert click_and_read_message(page, legal, game) == "The game has moved on; here is the current position."
    assert Game.objects.get(pk=game.pk).ply == int(state(page, "ply"))

    # My move; the computer's reply is held back: the computer is to move on this page
    # (unless it has no move and passes: then it is my turn again). The answer clears
    # the last refusal.
    pushes.holding = True
    for _ in range(5):
        ply = int(state(page, "ply"))
        assert click_and_read_message(page, legal, game) == ""
        if state(page, "turn") != me:
            break
        legal = page.locator("#game-state button.cell.legal").first.get_attribute("data-square")
    assert state(page, "turn") != me and int(state(page, "ply")) == ply + 1
    assert markers_shown(page) == 0
    sent = MovesSent(page)
    for cell in page.locator("#game-state button.cell:not([disabled])").all()[:64:9]:
        cell.click(force=True)  # a person can click it; it is no button now
    assert_whole(page)
    assert_board_is_the_stored_game(page, game)

    # The reply arrives; a click right after it is a move, and the first thing the page
    # sent since the clicks out of turn (a page's requests and socket messages are seen
    # in the order it sends them): out of turn, a square is no button.
    pushes.release()
    wait_for_my_turn_or_end(page)
    assert markers_shown(page) > 0
    ply = int(state(page, "ply"))
    assert click_and_read_message(page, page.locator("#game-state button.cell.legal").first.get_attribute(
        "data-square"), game) == ""
    assert int(state(page, "ply")) > ply
    assert len(sent()) == 1, sent()

    # The same in German.
    page.get_by_role("button", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.wait_for_load_state()  # htmx takes over the forms at DOMContentLoaded: before, a post is plain
    wait_for_my_turn_or_end(page)
    square = an_empty_square_that_is_not_legal(page)
    assert click_and_read_message(page, square, game) == f"{square} ist kein erlaubter Zug."
    page.evaluate("document.querySelector('#game-state input[name=ply]').value -= 1")
    legal = page.locator("#game-state button.cell.legal").first.get_attribute("data-square")
    assert click_and_read_message(page, legal, game) == "Die Partie ist weitergegangen; hier ist die aktuelle Stellung."

    # A double click plays once: the second click, before the first one's answer, is
    # not sent (it could only be refused as stale), and no refusal is shown.
    mine = Move.objects.filter(game=game, colour=me, made_by="player").count()
    ply = int(state(page, "ply"))
    sent = MovesSent(page)
    page.locator(f'#game-state [data-square="{legal}"]').dblclick()
    page.wait_for_function(f"() => Number(document.querySelector('#game-state').dataset.ply) > {ply}")
    # Both clicks came before this answer, so a second move sent would be counted already.
    assert Move.objects.filter(game=game, colour=me, made_by="player").count() == mine + 1
    assert len(sent()) == 1
    assert_whole(page)
    assert page.locator("#game-message").inner_text().strip() == ""

    # Undo, its answer arriving after the push of the position it made (which replaced
    # the Undo button itself): the page stays whole, and htmx finds every part.
    wait_for_my_turn_or_end(page)
    ply = int(state(page, "ply"))

    def after_the_push(route):
        answer = route.fetch()
        page.wait_for_function(f"() => Number(document.querySelector('#game-state').dataset.ply) < {ply}")
        route.fulfill(response=answer)

    page.route("**/undo/", after_the_push)
    with htmx_answer(page, "/undo/"):
        page.get_by_role("button", name="Rückgängig").click()
    assert_whole(page)
    stones, shown_ply = shown_stones(page)
    assert shown_ply == Game.objects.get(pk=game.pk).ply
    assert_board_is_the_stored_game(page, game)
    watch.assert_clean()
