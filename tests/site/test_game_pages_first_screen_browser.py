"""Every game page shows the board and the player's controls on the first screen, on
a phone (390x844) as on a laptop (1366x768), with whatever flash message the page
came with."""
import pytest
from playwright.sync_api import expect

from tests.lobby.test_tables_in_browser import open_table, wait_for_board
from tests.pages import Watch
from tests.review.test_review_browser import sign_in
from tests.site.test_layout_browser import LAPTOP, PHONE, player  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PLAY_PARTS = ("#game-state .board", "#game-state .counts", "#undo", "#new-game")
TABLE_PARTS = ("#game-state .board", "#game-state .counts", "#leave-table")
REVIEW_PARTS = ("#review .board", "#review .counts", "#review .review-nav")


def person(browser, live_site, user, viewport):
    context = browser.new_context(viewport=viewport, **({"is_mobile": True, "has_touch": True}
                                                         if viewport == PHONE else {}))
    page = context.new_page()
    page.set_default_timeout(20000)
    sign_in(page, live_site, user)
    return page


def off_screen(page, parts, viewport):
    """The parts (CSS selectors) not wholly inside the first screen, with their boxes."""
    expect(page.locator(parts[0])).to_be_visible()
    boxes = page.evaluate("""parts => parts.map(part => { const e = document.querySelector(part);
        if (!e) return [part, null]; const r = e.getBoundingClientRect();
        return [part, {top: r.top, bottom: r.bottom, left: r.left, right: r.right}]; })""", list(parts))
    return {part: box for part, box in boxes if box is None or box["top"] < 0 or box["left"] < 0
            or box["bottom"] > viewport["height"] or box["right"] > viewport["width"]}


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_board_and_controls_are_on_the_first_screen_of_every_game_page(live_site, browser, player, bob,
                                                                           viewport):
    host = person(browser, live_site, player["user"], viewport)
    guest = person(browser, live_site, bob, viewport)
    watches = [Watch(host), Watch(guest)]

    host.goto(f"{live_site.url}/play/{player['playing'].public_id}/")
    assert off_screen(host, PLAY_PARTS, viewport) == {}

    host.goto(f"{live_site.url}/games/{player['analysed'].public_id}/?ply=30")
    assert off_screen(host, REVIEW_PARTS, viewport) == {}

    # A table: Bob sits down and comes back to the page with the flash message that says so.
    code = open_table(host, live_site, "board=8x8", seat="black")
    guest.goto(f"{live_site.url}/tables/{code}/")
    # (the flash message itself: tests/site/test_flash_messages_browser.py; the game's
    # start may reload this page before its answer could be read here)
    guest.get_by_role("button", name="Take the White seat").click()
    wait_for_board(guest)
    assert off_screen(guest, TABLE_PARTS, viewport) == {}
    wait_for_board(host)
    assert off_screen(host, TABLE_PARTS, viewport) == {}
    for watch in watches:
        watch.assert_clean()
