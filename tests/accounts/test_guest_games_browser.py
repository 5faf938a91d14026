"""In Chromium, against the live site: a guest plays, signs up, signs out and in again
and finds every game; a visitor types a code on the home page and sits as a guest.
Any console error, page error or failed answer fails the test (tests/pages.py Watch)."""
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from playwright.sync_api import expect

from games import Variant
from games.models import Game
from lobby import actions
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
PASSWORD = "a long enough passphrase"


@pytest.fixture
def patient_page(page):
    """Playwright's page (watched by tests/conftest.py's clean_console like every other), patient."""
    page.set_default_timeout(20000)
    return page


def open_table(host, variant):
    """A table opened outside Playwright's event loop (opening one broadcasts to the lobby)."""
    def work():
        try:
            return actions.open_table(host, variant)
        finally:
            connection.close()
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result()


def my_games(page, site):
    page.goto(f"{site.url}/games/")
    return sorted(page.eval_on_selector_all("table.games tbody tr", "rows => rows.map(r => r.dataset.game)"))


def test_a_guest_signs_up_signs_out_signs_in_and_finds_every_game(live_site, patient_page):
    page = patient_page
    host = make_user("hana", "Hana")
    table = open_table(host, Variant(board="8x8", players=3))

    # A computer game: choosing 6x6 takes 3 and 4 players off the menu at once.
    page.goto(f"{live_site.url}/play/")
    page.get_by_label("Board").select_option("6x6")
    expect(page.locator('#id_players option[value="3"]')).to_be_disabled()
    expect(page.get_by_label("Board")).to_have_value("6x6")
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector("#game-state")
    page.wait_for_function("() => { const s = document.querySelector('#game-state'); "
                           "return s.dataset.turn === document.querySelector('#game').dataset.viewerColours; }")
    page.locator("#game-state button.cell.legal").first.click()
    page.wait_for_function("() => Number(document.querySelector('#game-state').dataset.ply) >= 1")
    computer_game = Game.objects.get(kind="computer").public_id

    # A seat at a friend's table, by its link.
    page.goto(f"{live_site.url}/tables/{table.code}/")
    page.get_by_label("Your name").fill("Gil")
    page.get_by_role("button", name="Play as a guest").click()
    expect(page.locator("#table-seats")).to_contain_text("Gil")
    # The seats' push can come before the answer that reloads the page: until then the
    # guest form, with its own "sign up" link, is still there.
    expect(page.locator("section.take-seat")).to_have_count(0)
    both = sorted([computer_game, table.game.public_id])

    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("gil")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    assert my_games(page, live_site) == both

    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("link", name="Sign in", exact=True)).to_be_visible()
    assert my_games(page, live_site) == []

    page.get_by_role("link", name="Sign in", exact=True).click()
    page.get_by_label("Username").fill("gil")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    assert my_games(page, live_site) == both
    page.locator(f'tr[data-game="{computer_game}"]').get_by_role("link", name="Continue").click()
    page.wait_for_selector("#game-state")
    assert int(page.get_attribute("#game-state", "data-ply")) >= 1


def test_a_visitor_types_a_code_on_the_home_page_and_sits_as_a_guest(live_site, patient_page):
    page = patient_page
    table = open_table(make_user("hana", "Hana"), Variant(board="6x6"))
    page.goto(f"{live_site.url}/")
    page.get_by_label("Table code").fill(table.code.lower())
    page.get_by_role("button", name="Join").click()
    expect(page).to_have_url(f"{live_site.url}/tables/{table.code}/")
    page.get_by_label("Your name").fill("Gil")
    page.get_by_role("button", name="Play as a guest").click()
    page.wait_for_selector("#game-state .board")  # both seats taken: the game starts
    expect(page.locator("#table-seats")).to_contain_text("Gil")
    assert page.get_attribute("#game", "data-viewer-colours") == "white"
