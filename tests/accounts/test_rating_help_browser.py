"""A player on a phone, in English or German, taps the "?" of a provisional rating and
the "+103" of a first rated game, and reads what they mean (a tooltip never shows there)."""
import pytest
from playwright.sync_api import expect

from tests.accounts.rated_play import play, rated_table
from tests.lobby.browser_people import PHONE, in_thread, person
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.mark.parametrize("locale, heading, legend, provisional, first_game", [
    ("en-GB", "What the question mark means (1500?)", "How ratings work",
     "provisional: fewer than 10 rated games", "the winner goes from 1500 to 1603 and the loser to 1445"),
    ("de-DE", "Was das Fragezeichen bedeutet (1500?)", "So funktionieren Wertungszahlen",
     "vorläufig: weniger als 10 gewertete Partien", "steigt der Gewinner von 1500 auf 1603, und der Verlierer fällt auf 1445"),
])
def test_the_provisional_mark_and_a_first_games_change_explain_themselves(live_site, browser, locale, heading,
                                                                          legend, provisional, first_game):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    table = in_thread(lambda: rated_table(alice, bob))
    in_thread(play, table.game)
    errors = []
    page = person(browser, live_site, bob, errors, viewport=PHONE, locale=locale, has_touch=True)
    try:
        page.goto(f"{live_site.url}/accounts/profile/")
        card = page.locator('.rating-card[data-category="other"]')  # the 6x6 board
        expect(card.locator(".rating")).to_have_text("1603?")
        expect(page.locator(".rating-legend")).to_contain_text("1500?")
        card.locator(".rating a").tap()
        expect(page.get_by_role("heading", level=2)).to_have_text(heading)
        expect(page.locator("main")).to_contain_text(provisional)
        expect(page.locator("main")).to_contain_text(first_game)

        # At the table, after the game, the change itself leads to the same page.
        page.goto(f"{live_site.url}/tables/{table.code}/")
        change = page.locator(".rating-change").filter(has_text="1500 → 1603")
        expect(change).to_contain_text("(+103)")
        change.get_by_role("link").tap()
        expect(page.get_by_role("heading", level=1)).to_have_text(legend)
        assert errors == []
    finally:
        page.context.close()
