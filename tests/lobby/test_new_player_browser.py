"""A new player around online tables, in Chromium: what a visitor and a player see
before they click, on a laptop in English and on a phone in German. Any console or
page error fails."""
import pytest
from playwright.sync_api import expect

from games import Variant
from games.models import Game
from lobby import services
from tests.lobby.browser_people import LAPTOP, PHONE, in_thread, person
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.fixture(autouse=True)
def patient_expectations():
    expect.set_options(timeout=15000)
    yield
    expect.set_options(timeout=5000)


def test_my_games_shows_a_free_seat_as_an_open_seat_not_as_a_guest(live_site, browser):
    alice = make_user("alice", "Alice")
    table = in_thread(services.open_table, alice, Variant(board="8x8", players=3), computer_colours=["red"])
    errors = []
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    laptop.goto(f"{live_site.url}/games/")
    game_id = Game.objects.get(tables=table).public_id
    row = laptop.locator(f'tr[data-game="{game_id}"]')
    expect(row).to_contain_text("open seat, Computer")
    expect(row).not_to_contain_text("Guest")
    phone = person(browser, live_site, alice, errors, viewport=PHONE, locale="de-DE", is_mobile=True)
    phone.goto(f"{live_site.url}/games/")
    expect(phone.locator(f'tr[data-game="{game_id}"]')).to_contain_text("freier Platz, Computer")
    assert errors == []
