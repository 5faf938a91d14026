"""A player finds the leaderboard from the footer, on a phone in German and on a laptop
in English, switches category, opens a player's page and comes back by their place."""
import pytest
from playwright.sync_api import expect

from accounts.models import Category
from tests.accounts.test_leaderboard import settled
from tests.lobby.browser_people import LAPTOP, PHONE, in_thread, person
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.mark.parametrize("viewport, locale, words", [
    (PHONE, "de-DE", {"nav": "Bestenliste", "anti": "Anti-Reversi", "place": "Nummer 2 von 2 in der Bestenliste",
                      "you": "Du bist Nummer 2 von 2."}),
    (LAPTOP, "en-GB", {"nav": "Leaderboard", "anti": "Anti-Reversi", "place": "Number 2 of 2 on the leaderboard",
                       "you": "You are number 2 of 2."}),
])
def test_a_player_reads_the_leaderboard_and_a_rivals_place(live_site, browser, viewport, locale, words):
    def people():
        ann, bob = make_user("ann", "Ann"), make_user("bob", "Bob")
        settled(ann, 1720)
        settled(bob, 1610)
        settled(ann, 1540, category=Category.ANTI)
        settled(bob, 1580, category=Category.ANTI)
        return bob
    bob = in_thread(people)
    errors = []
    page = person(browser, live_site, bob, errors, viewport=viewport, locale=locale, has_touch=viewport is PHONE)
    try:
        page.goto(f"{live_site.url}/")
        page.get_by_role("navigation", name="More" if locale == "en-GB" else "Mehr").get_by_role(
            "link", name=words["nav"]).click()
        rows = page.locator("table.leaderboard tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.first).to_contain_text("Ann")
        expect(rows.first).to_contain_text("1720")
        expect(page.locator(".your-rank")).to_have_text(words["you"])
        expect(page.locator("tr.you")).to_contain_text("Bob")

        page.get_by_role("link", name=words["anti"]).click()
        expect(rows.first).to_contain_text("Bob")
        expect(page.get_by_role("link", name=words["anti"])).to_have_attribute("aria-current", "page")

        page.get_by_role("link", name="Ann").click()
        card = page.locator('.rating-card[data-category="anti"]')
        expect(card.locator(".rank")).to_have_text(words["place"])
        page.locator('.rating-card[data-category="reversi"] .rank a').click()
        expect(page.locator("h1")).to_have_text(words["nav"])
        expect(rows.first).to_contain_text("Ann")
        # Nothing of the table spills sideways: a phone scrolls only down. The rows are there
        # before the page's stylesheets are; measure once the page has loaded, as a person sees it.
        page.wait_for_load_state("load")
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        assert errors == []
    finally:
        page.context.close()
