"""New Game during a running game asks first: a dialog with scripts, a confirmation
page without; in both languages. A game that is over is left without asking."""
import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.play.helpers import start_game
from tests.review.conftest import WIPEOUT, store_game
from tests.review.test_review_browser import sign_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def game_id(page):
    return page.url.rstrip("/").rsplit("/", 1)[1]


def test_new_game_asks_in_a_dialog_and_cancel_keeps_the_game(live_site, page):
    start_game(page, live_site, "board=6x6", level="easy")
    old = game_id(page)
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    # Whether each submit was stopped, read after every other listener (confirm.js's on
    # the document) has had it: a submit left to go on would navigate.
    page.evaluate("() => { window.submitsStopped = [];"
                  " window.addEventListener('submit', event => window.submitsStopped.push(event.defaultPrevented)); }")
    page.once("dialog", lambda dialog: answer(dialog, False))
    page.locator("#new-game").click()
    page.wait_for_function("() => window.submitsStopped.length === 1")
    assert page.evaluate("window.submitsStopped") == [True]
    assert asked and "abandoned" in asked[0]
    assert game_id(page) == old and Game.objects.get(public_id=old).status == "playing"

    page.once("dialog", lambda dialog: answer(dialog, True))
    with page.expect_navigation():
        page.locator("#new-game").click()
    assert game_id(page) != old and len(asked) == 2
    assert Game.objects.get(public_id=old).ending == "abandoned"


def test_new_game_asks_on_a_page_without_scripts_in_german(live_site, browser):
    context = browser.new_context(java_script_enabled=False, locale="de-DE",
                                  extra_http_headers={"Accept-Language": "de-DE,de"})
    page = context.new_page()
    page.goto(f"{live_site.url}/play/?board=6x6")
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector("#game-state")
    old = game_id(page)
    page.get_by_role("button", name="Neues Spiel").click()
    expect(page.locator("h1")).to_have_text("Diese Partie verlassen?")
    assert Game.objects.get(public_id=old).status == "playing"
    page.get_by_role("link", name="Weiterspielen").click()
    assert game_id(page) == old
    page.get_by_role("button", name="Neues Spiel").click()
    page.get_by_role("button", name="Neue Partie beginnen").click()
    page.wait_for_selector("#game-state")
    assert game_id(page) != old
    assert Game.objects.get(public_id=old).ending == "abandoned"
    context.close()


def test_new_game_after_the_end_does_not_ask(live_site, page, alice):
    over = store_game(WIPEOUT, players=[alice])
    sign_in(page, live_site, alice)
    page.goto(f"{live_site.url}/play/{over.public_id}/")
    page.wait_for_load_state()
    page.on("dialog", lambda dialog: pytest.fail(f"asked: {dialog.message}"))
    with page.expect_navigation():
        page.locator("#new-game").click()
    page.wait_for_selector("#game-state")
    assert game_id(page) != over.public_id
