"""The Content-Security-Policy holds on the pages a visitor sees: every page says it,
nothing of the site breaks it (Chromium reports a violation as a console error, which
fails the test: tests/pages.py), and a script slipped into a page does not run."""
import pytest
from playwright.sync_api import expect

from tests.play.helpers import start_game, state

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_pages_of_a_game_against_the_computer_keep_the_policy(live_site, page):
    for path in ("/", "/rules/", "/accounts/login/", "/games/import/?moves=f5d6c3d3c4"):
        answer = page.goto(live_site.url + path)
        assert "script-src 'self'" in answer.headers["content-security-policy"], path
    start_game(page, live_site, "board=8x8", level="easy")
    before = int(state(page, "ply"))
    page.locator("#game-state button.cell.legal").first.click()  # htmx and the game's socket at work
    page.wait_for_function(f"() => Number(document.querySelector('#game-state').dataset.ply) > {before}")
    # The board's width comes from the stylesheet now (polled: a push may be replacing the board).
    page.wait_for_function("() => getComputedStyle(document.querySelector('.board-frame'))"
                           ".getPropertyValue('--size').trim() === '8'")


def test_a_script_slipped_into_a_page_does_not_run(live_site, page, clean_console):
    violations = []
    clean_console.allow(lambda message: "Content Security Policy" in message.text and not violations.append(message))
    page.goto(live_site.url + "/rules/")
    with page.expect_console_message(lambda message: "Content Security Policy" in message.text):
        ran = page.evaluate("""() => {
            const script = document.createElement("script");
            script.textContent = "window.slippedIn = true";
            document.body.append(script);
            return window.slippedIn === true;
        }""")
    assert ran is False
    expect(page.locator("h1")).to_be_visible()
    assert violations, "Chromium reported no violation"
