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
