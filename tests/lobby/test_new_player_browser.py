"""A new player around online tables, in Chromium: what a visitor and a player see
before they click, on a laptop in English and on a phone in German. Any console or
page error fails."""
import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from playwright.sync_api import expect

from games import Variant
from games.access import Viewer
from games.models import Game
from lobby import actions
from tests.accounts.rated_play import play, rated_table
from tests.lobby.browser_people import LAPTOP, PHONE, in_thread, person
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_my_games_shows_a_free_seat_as_an_open_seat_not_as_a_guest(live_site, browser):
    alice = make_user("alice", "Alice")
    table = in_thread(actions.open_table, alice, Variant(board="8x8", players=3), computer_colours=["red"])
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
    table = in_thread(actions.open_table, alice, Variant(board="8x8", players=3), computer_colours=["red"])
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
    table = in_thread(actions.open_table, alice, Variant(board="8x8", players=3))
    in_thread(actions.join, table, Viewer(user=bob))
    laptop.goto(f"{live_site.url}/tables/{table.code}/")
    laptop.locator("#leave-table").click()
    expect(laptop.locator("main")).to_contain_text("The game has not started yet: someone else can take your seat.")
    expect(laptop.locator("main")).to_contain_text("Bob hosts the table from then on.")
    laptop.get_by_role("button", name="Give up my seat", exact=True).click()
    expect(laptop.locator("#table-seats")).to_contain_text("Bob")
    assert errors == []


def test_a_visitor_at_a_rated_tables_link_is_sent_to_sign_in_and_back_to_take_a_seat(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    # The live site hashes passwords with Django's default, not the tests' fast hasher.
    bob.password = PBKDF2PasswordHasher().encode("a long enough passphrase", "salt" * 4)
    bob.save(update_fields=["password"])
    table = in_thread(actions.open_table, alice, Variant(board="6x6"), rated=True)
    errors = []
    host = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    host.goto(f"{live_site.url}/tables/{table.code}/")
    expect(host.locator(".invite")).to_contain_text("This table is rated: whoever opens the link needs an account")
    expect(host.locator(".invite")).not_to_contain_text("No sign-up needed")

    visitor = person(browser, live_site, None, errors, viewport=PHONE, locale="de-DE", is_mobile=True)
    visitor.goto(host.locator("#share-link").input_value())
    expect(visitor.locator(".invite")).not_to_contain_text("als Gast Platz nehmen")
    wall = visitor.locator("#rated-sign-in")
    expect(wall).to_contain_text("Melde dich an oder registriere dich, um an diesem gewerteten Tisch zu spielen.")
    expect(wall.get_by_role("link", name="registriere dich")).to_have_attribute(
        "href", f"/accounts/signup/?next=%2Ftables%2F{table.code}%2F")
    wall.get_by_role("link", name="Melde dich an").click()
    visitor.get_by_label("Benutzername").fill("bob")
    visitor.get_by_label("Passwort").fill("a long enough passphrase")
    visitor.get_by_role("button", name="Anmelden").click()
    expect(visitor).to_have_url(f"{live_site.url}/tables/{table.code}/")
    expect(visitor.locator("#rated-sign-in")).to_have_count(0)
    visitor.get_by_role("button", name="Platz von Weiß nehmen").click()
    expect(visitor.locator("#game-state")).to_have_attribute("data-status", "playing")
    expect(host.locator("#game-state")).to_have_attribute("data-status", "playing")
    assert errors == []


def test_no_rematch_is_offered_against_a_player_who_left(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    table = in_thread(rated_table, alice, bob, rated=False)
    errors = []
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    laptop.goto(f"{live_site.url}/tables/{table.code}/")
    in_thread(actions.leave, table, Viewer(user=bob))  # during the game: Bob left and lost
    in_thread(play, table.game)
    expect(laptop.locator("#game-state")).to_have_attribute("data-status", "finished")
    expect(laptop.locator("#rematch")).to_contain_text("Nobody else is left at this table for a rematch.")
    expect(laptop.locator("#rematch-accept")).to_have_count(0)
    laptop.locator("#leave-finished-table").click()
    expect(laptop).to_have_url(f"{live_site.url}/lobby/")
    assert errors == []


def test_a_visitor_sees_the_lobby_and_watches_and_is_told_what_needs_an_account(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    visitor = person(browser, live_site, None, errors, viewport=LAPTOP, locale="en-GB")
    visitor.goto(f"{live_site.url}/")
    expect(visitor.locator("footer")).not_to_contain_text("No sign-up needed")
    expect(visitor.get_by_role("link", name="Sign in to open a table")).to_have_attribute(
        "href", "/accounts/login/?next=%2Ftables%2Fnew%2F")
    visitor.get_by_role("navigation", name="Main").get_by_role("link", name="Multiplayer").click()
    expect(visitor).to_have_url(f"{live_site.url}/lobby/")  # no sign-in wall
    expect(visitor.get_by_role("heading", name="Lobby", exact=True)).to_be_visible()
    expect(visitor.get_by_role("link", name="Sign in to open a table")).to_be_visible()
    expect(visitor.locator("footer")).not_to_contain_text("No sign-up needed")

    table = in_thread(rated_table, alice, bob, rated=False)  # a public game starts meanwhile
    row = visitor.locator(f'#playing-tables tr[data-code="{table.code}"]')  # arrived over the lobby's socket
    expect(row).to_contain_text("Alice")
    row.get_by_role("link", name="Watch").click()
    expect(visitor.locator("#game-state")).to_have_attribute("data-status", "playing")

    for path in ("/accounts/signup/", "/accounts/login/?next=/tables/new/"):
        visitor.goto(f"{live_site.url}{path}")
        expect(visitor.locator("footer")).not_to_contain_text("No sign-up needed")
    visitor.goto(f"{live_site.url}/play/")
    expect(visitor.locator("footer")).to_contain_text("No sign-up needed")
    phone = person(browser, live_site, None, errors, viewport=PHONE, locale="de-DE", is_mobile=True)
    phone.goto(f"{live_site.url}/lobby/")
    expect(phone.get_by_role("link", name="Melde dich an, um einen Tisch zu eröffnen")).to_be_visible()
    assert errors == []


def test_an_abandoned_waiting_table_leaves_open_lobby_pages(live_site, browser):
    from datetime import timedelta

    from django.utils import timezone

    from infra.presence import presence
    from lobby import host_presence, tasks
    from tests.lobby.test_correspondence import eventually
    from tests.presence_marks import left_at
    from lobby.models import Table

    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    table = in_thread(actions.open_table, alice, Variant(board="6x6"), listed=True)
    Table.objects.filter(pk=table.pk).update(created_at=timezone.now() - timedelta(minutes=70))
    host = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    host.goto(f"{live_site.url}/tables/{table.code}/")  # the host's page is open: listed
    expect(host.locator("#table-seats")).to_be_visible()
    lobby = person(browser, live_site, bob, errors, viewport=PHONE, locale="de-DE", is_mobile=True)
    lobby.goto(f"{live_site.url}/lobby/")
    row = lobby.locator(f'#open-tables tr[data-code="{table.code}"]')
    expect(row).to_contain_text("wartet seit 1 Std. 10 Min.")

    host.context.close()  # the host closed the browser; SEEN_FOR later the mark is gone
    place = host_presence.host_place(table.pk)
    # daphne notes the socket's leaving (and when) first: the sentinel is its mark gone
    assert eventually(lambda: not presence.count(place), seconds=15), "the host's page never left"
    left_at(place, None)
    in_thread(tasks.refresh_lobby.delay)  # what beat sends every minute, run by the live worker
    expect(row).to_have_count(0)
    expect(lobby.locator("#lobby-tables")).to_contain_text("Gerade sind keine Tische offen")
    assert errors == []
