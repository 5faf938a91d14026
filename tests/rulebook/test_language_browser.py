"""A visitor whose browser asks for English switches the site to German in the header."""
import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_switching_to_german_in_the_header_keeps_the_page_and_the_choice(live_site, browser):
    context = browser.new_context(locale="en-GB")
    try:
        page = context.new_page()
        page.goto(live_site.url + "/rules/octagon/")
        expect(page.get_by_role("heading", level=1)).to_have_text("Octagon Reversi")
        expect(page.locator("html")).to_have_attribute("lang", "en")

        page.get_by_role("button", name="Deutsch").click()
        expect(page).to_have_url(re.compile(r"/rules/octagon/$"))
        expect(page.get_by_role("heading", level=1)).to_have_text("Achteck-Reversi")
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.get_by_role("link", name="Jetzt spielen")).to_have_attribute("href", "/play/?board=octagon")

        # The choice is kept (in the language cookie) on the next page, over the browser's English.
        page.get_by_role("navigation", name="Hauptmenü").get_by_role("link", name="Regeln").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Die Regeln von Reversi und seinen Varianten")
        page.get_by_role("button", name="English").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("The rules of Reversi and its variants")
    finally:
        context.close()
