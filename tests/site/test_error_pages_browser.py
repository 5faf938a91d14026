"""A player who follows a wrong link on the live site (daphne runs with DEBUG on, as
under `make run`) meets the site's own 404 page in their language, with a way back."""
import pytest
from playwright.sync_api import expect

from tests.pages import Watch

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.mark.parametrize("locale, heading, back, home_title", [
    ("en-GB", "Page not found", "Back to the start page", "Play Reversi"),
    ("de-DE", "Seite nicht gefunden", "Zurück zur Startseite", "Reversi spielen"),
])
def test_a_wrong_link_shows_the_sites_404_page_and_the_way_back(live_site, browser, locale, heading, back,
                                                                home_title):
    context = browser.new_context(locale=locale)
    try:
        page = context.new_page()
        watch = Watch(page)
        url = live_site.url + "/no-such-page/"
        response = page.goto(url)
        assert response.status == 404
        expect(page.get_by_role("heading", level=1)).to_have_text(heading)
        expect(page.get_by_text("Django tried these URL patterns")).to_have_count(0)
        expect(page.locator("header.site-header nav")).to_have_count(1)
        page.get_by_role("link", name=back).click()
        expect(page).to_have_url(live_site.url + "/")
        expect(page).to_have_title(f"{home_title} · Reversi")
        watch.errors.remove(f"404 for GET {url}")  # the one missing page, on purpose
        watch.assert_clean()
    finally:
        context.close()
