"""The play form in Chromium: the handicap's side is asked only once there is a
handicap, and the colour and side chosen are the game's."""
import pytest
from playwright.sync_api import expect

from tests.play.helpers import board_snapshot, choose

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_handicap_side_shows_with_a_handicap_and_goes_where_chosen(live_site, page):
    page.goto(f"{live_site.url}/play/")
    page.wait_for_load_state()
    side = page.get_by_label("Handicap stones go to")
    expect(side).to_have_count(0)
    page.get_by_label("Corner handicap").select_option("2")
    expect(side).to_be_visible()  # the form redrew itself
    choose(page, "Handicap stones go to", "computer")
    choose(page, "Your colour", "black")
    choose(page, "Computer level", "easy")
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector("#game-state")
    assert page.get_attribute("#game", "data-viewer-colours") == "black"
    stones = board_snapshot(page)
    assert stones["a1"] == stones["h8"] == "white"  # the computer's colour has the corners


def test_choices_made_quickly_and_started_at_once_lose_nothing_and_log_no_error(live_site, page):
    """Each choice redraws the form; a newer choice, then Start, cut the redraw on its way
    short. The redraws are held here until then: the game has every choice, and the
    console stays clean (a cut redraw is no error)."""
    held = []
    page.route("**/play/**", lambda route: held.append(route)
               if route.request.resource_type in ("xhr", "fetch") else route.continue_())
    page.goto(f"{live_site.url}/play/?board=6x6")
    page.wait_for_load_state()
    page.get_by_label("Your colour").select_option("white")
    page.get_by_label("Computer level").select_option("easy")
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector("#game-state")
    assert len(held) == 2  # neither redraw was answered before the page moved on
    assert page.get_attribute("#game", "data-viewer-colours") == "white"
    assert page.locator("#level").input_value() == "easy"
