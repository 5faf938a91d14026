"""A new player around online tables, in Chromium: what a visitor and a player see
before they click, on a laptop in English and on a phone in German. Any console or
page error fails."""
import pytest
from playwright.sync_api import expect

from games import Variant
from games.access import Viewer
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


def test_the_host_alone_is_told_before_the_click_that_giving_up_the_seat_closes_the_table(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    table = in_thread(services.open_table, alice, Variant(board="8x8", players=3), computer_colours=["red"])
    host = person(browser, live_site, alice, errors, viewport=PHONE, locale="de-DE", is_mobile=True)
    host.goto(f"{live_site.url}/tables/{table.code}/")
    host.locator("#leave-table").click()
    expect(host.locator("main")).to_contain_text("Außer dir sitzt noch niemand an diesem Tisch")
    expect(host.locator("main")).not_to_contain_text("Jemand anderes kann deinen Platz")
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    laptop.goto(f"{live_site.url}/tables/{table.code}/")
    laptop.locator("#leave-table").click()
    expect(laptop.locator("main")).to_contain_text(
        "Nobody else sits at this table yet: if you give up your seat, the table closes")
    laptop.get_by_role("button", name="Give up my seat and close the table").click()
    expect(laptop.locator(".messages")).to_contain_text("You left, and the table is closed.")

    # With someone else seated, the seat is given back and the table waits on.
    table = in_thread(services.open_table, alice, Variant(board="8x8", players=3))
    in_thread(services.join, table, Viewer(user=bob))
    laptop.goto(f"{live_site.url}/tables/{table.code}/")
    laptop.locator("#leave-table").click()
    expect(laptop.locator("main")).to_contain_text("The game has not started yet: someone else can take your seat.")
    expect(laptop.locator("main")).to_contain_text("Bob hosts the table from then on.")
    laptop.get_by_role("button", name="Give up my seat", exact=True).click()
    expect(laptop.locator("#table-seats")).to_contain_text("Bob")
    assert errors == []
