"""A visitor opens the home page with the keyboard: skip link first, then the site."""
import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_home_page_skip_link_and_navigation(live_site, page):
    page.goto(live_site.url + "/")
    expect(page).to_have_title("Play Reversi · Reversi")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to main content")
    expect(skip).to_be_focused()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    navigation = page.get_by_role("navigation", name="Main")
    expect(navigation).to_be_visible()
    expect(page.get_by_role("link", name="Sign in", exact=True)).to_be_visible()
    expect(page.locator("footer .version")).to_contain_text("v0.1.0")
