"""The lobby's filter in Chromium: rows pushed over the websocket after the page was
served keep to the filter the player chose (rated only, one category): the server
sends that page only the tables the filter lets through."""
import pytest
from playwright.sync_api import expect

from tests.accounts.rated_play import rated_table
from tests.people import make_user
from tests.lobby.browser_people import LAPTOP, in_thread, person

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_lobby_filter_keeps_to_rated_tables_of_one_category_as_tables_arrive(live_site, browser):
    alice, bob, carol = make_user("alice", "Alice"), make_user("bob", "Bob"), make_user("carol", "Carol")
    errors = []
    page = person(browser, live_site, carol, errors, viewport=LAPTOP)
    page.goto(f"{live_site.url}/lobby/")
    page.get_by_label("Variant").select_option("other")
    page.get_by_label("Rated or casual").select_option("rated")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator(".lobby-filtered")).to_have_attribute("data-show-rated", "rated")
    rated = in_thread(rated_table, alice, players=2)  # 6x6: other boards
    casual = in_thread(rated_table, bob, players=2, rated=False)
    rated_8x8 = in_thread(rated_table, bob, players=2, board="8x8")
    shown = page.locator(f'#open-tables tr[data-code="{rated.code}"]')
    expect(shown).to_be_visible()  # arrived over the websocket, and shown
    expect(shown).to_contain_text("Rated")
    expect(shown.locator(".rating")).to_have_text("1500?")
    expect(page.locator(f'#open-tables tr[data-code="{rated_8x8.code}"]')).to_have_count(0)
    expect(page.locator(f'#open-tables tr[data-code="{casual.code}"]')).to_have_count(0)
    page.reload()  # the page served is filtered the same way
    expect(page.locator(f'#open-tables tr[data-code="{rated.code}"]')).to_be_visible()
    expect(page.locator("#open-tables tbody tr")).to_have_count(1)
    assert errors == []
