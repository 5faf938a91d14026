"""The lobby in Chromium, as people see it on a busy site: a page gets only what
changed (a table added at the top, its seats changed in place, removed), in its own
language; a page that missed a change reads its list again; a table whose host has
been away for ten minutes leaves the list; and the counts of people online and games
being played are shown."""
import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import Variant
from games.access import Viewer
from lobby import actions, broadcast, host_presence, tasks
from lobby.models import Table
from tests.lobby.browser_people import LAPTOP, PHONE, in_thread, person
from tests.people import make_user
from tests.presence_marks import left_at

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


TWO_OR_MORE_EN = re.compile(r"^([2-9]|\d\d+) people online$")
TWO_OR_MORE_DE = re.compile(r"^([2-9]|\d\d+) Personen online$")


def shown_version(page):
    return int(page.locator("#lobby-version").get_attribute("data-lobby-version"))


def test_two_lobby_pages_see_a_table_added_its_seats_change_and_removed_each_in_their_language(live_site, browser):
    alice, bob, carol, dora = (make_user(name.lower(), name) for name in ("Alice", "Bob", "Carol", "Dora"))
    errors = []
    english = person(browser, live_site, carol, errors, viewport=LAPTOP, locale="en-GB")
    german = person(browser, live_site, dora, errors, viewport=PHONE, locale="de-DE", is_mobile=True)
    for page in (english, german):
        page.goto(f"{live_site.url}/lobby/")
    expect(english.locator("#lobby-counts")).to_contain_text(re.compile(r"online · \d+ games? being played"))
    expect(german.locator("#lobby-counts .online")).to_have_text(TWO_OR_MORE_DE)  # both pages count
    before = shown_version(english)

    table = in_thread(actions.open_table, alice, Variant(players=3), listed=True)
    english_row = english.locator(f'#open-tables tr[data-code="{table.code}"]')
    german_row = german.locator(f'#open-tables tr[data-code="{table.code}"]')
    expect(english_row).to_contain_text("1 of 3")  # added
    expect(german_row).to_contain_text("1 von 3")
    expect(english_row).to_contain_text("host here")
    expect(german_row).to_contain_text("Gastgeber da")
    expect(english.locator("#lobby-counts .online")).to_have_text(TWO_OR_MORE_EN)  # came with the change

    in_thread(actions.join, table, Viewer(user=bob))
    expect(english_row).to_contain_text("2 of 3")  # changed in place
    expect(german_row).to_contain_text("2 von 3")
    expect(english_row).to_contain_text("Bob")
    assert shown_version(english) > before

    in_thread(actions.leave, table, Viewer(user=bob))
    in_thread(actions.leave, table, Viewer(user=alice))  # nobody sits any more: the table closes
    expect(english_row).to_have_count(0)  # removed
    expect(german_row).to_have_count(0)
    expect(english.locator("#lobby-tables")).to_contain_text("No open tables")
    expect(german.locator("#lobby-tables")).to_contain_text("Gerade sind keine Tische offen")
    assert errors == []


def test_a_lobby_page_that_missed_a_change_reads_its_list_again(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    page = person(browser, live_site, bob, errors, viewport=LAPTOP)
    page.goto(f"{live_site.url}/lobby/")
    expect(page.locator("#lobby-tables")).to_contain_text("No open tables")
    expect(page.locator("#lobby-counts")).to_be_visible()

    # A table listed while its change was lost on the way: its version was counted
    # and never reached the page. (Whether the page shows it yet is not asserted: any
    # other lobby push meanwhile, even a late one of the test before, skips that
    # version too and has the page read its list already.)
    lost = in_thread(actions.open_table, alice, Variant(players=3))
    Table.objects.filter(pk=lost.pk).update(listed=True)
    in_thread(broadcast.next_lobby_version)

    # The next change skips a version: the page reads its whole list, the lost table too.
    seen = in_thread(actions.open_table, alice, Variant(players=4), listed=True)
    expect(page.locator(f'#open-tables tr[data-code="{seen.code}"]')).to_be_visible()
    expect(page.locator(f'#open-tables tr[data-code="{lost.code}"]')).to_be_visible()
    assert errors == []


def test_a_table_whose_host_has_been_away_ten_minutes_leaves_the_list_and_one_away_for_less_stays(live_site, browser):
    alice, bob, carol = make_user("alice", "Alice"), make_user("bob", "Bob"), make_user("carol", "Carol")
    errors = []
    left = in_thread(actions.open_table, alice, Variant(board="6x6"), listed=True)
    away = in_thread(actions.open_table, bob, Variant(board="6x6"), listed=True)
    Table.objects.filter(pk__in=[left.pk, away.pk]).update(created_at=timezone.now() - timedelta(minutes=40))
    # Both hosts' pages were open a while ago, as their sockets would have written it.
    left_at(host_presence.host_place(left.pk), time.time() - 9 * 60)
    left_at(host_presence.host_place(away.pk), time.time() - 4 * 60)
    lobby = person(browser, live_site, carol, errors, viewport=PHONE, is_mobile=True)
    lobby.goto(f"{live_site.url}/lobby/")
    left_row = lobby.locator(f'#open-tables tr[data-code="{left.code}"]')
    away_row = lobby.locator(f'#open-tables tr[data-code="{away.code}"]')
    expect(left_row).to_contain_text("host away")
    expect(away_row).to_contain_text("host away")
    expect(left_row).to_contain_text("waiting for 40 min")

    left_at(host_presence.host_place(left.pk), time.time() - 10 * 60 - 5)  # ten minutes away now
    in_thread(tasks.refresh_lobby.delay)  # what beat sends every minute, run by the live worker
    expect(left_row).to_have_count(0)
    expect(away_row).to_be_visible()  # four minutes away: still listed, with a Join link
    expect(away_row.get_by_role("link", name="Join")).to_be_visible()
    assert Table.objects.filter(pk=left.pk).exists()  # still reachable by its code
    assert errors == []


def test_a_table_that_starts_leaves_open_tables_and_joins_the_games_playing_now_on_a_watchers_lobby(
        live_site, browser):
    """A host, a guest by link and a watcher on the lobby, with two games playing already:
    the table moves from "Open tables" to "Playing now" on the watcher's page, where it
    takes its place among the rows already there."""
    alice, bob, carol, dora, erik = (make_user(name.lower(), name) for name in ("Alice", "Bob", "Carol", "Dora", "Erik"))
    for host_user, opponent in ((bob, carol), (dora, erik)):
        playing = in_thread(actions.open_table, host_user, Variant(board="6x6"), listed=True)
        in_thread(actions.join, playing, Viewer(user=opponent))
    errors = []
    watcher = person(browser, live_site, None, errors, viewport=LAPTOP)
    watcher.goto(f"{live_site.url}/lobby/")
    expect(watcher.locator("#playing-tables tbody tr")).to_have_count(2)

    host = person(browser, live_site, alice, errors, viewport=LAPTOP)
    host.goto(f"{live_site.url}/tables/new/?board=8x8")
    host.get_by_label("Public: show the table in the lobby").check()
    host.get_by_role("button", name="Open the table").click()
    share = host.locator("#share-link").input_value()
    code = host.locator("#table-code").inner_text().strip()
    open_row = watcher.locator(f'#open-tables tr[data-code="{code}"]')
    expect(open_row).to_contain_text("1 of 2")

    guest = person(browser, live_site, None, errors, viewport=PHONE, is_mobile=True)
    guest.goto(share)
    guest.get_by_label("Your name").fill("Gus")
    guest.get_by_role("button", name="Play as a guest").click()
    guest.wait_for_selector("#game-state .board")

    started = watcher.locator(f'#playing-tables tr[data-code="{code}"]')
    expect(started).to_contain_text("Gus")
    expect(open_row).to_have_count(0)
    expect(watcher.locator("#lobby-tables")).to_contain_text("No open tables")
    expect(watcher.locator("#playing-tables tbody tr")).to_have_count(3)
    assert watcher.locator("#playing-tables tbody tr").first.get_attribute("data-code") == code  # the newest
    assert errors == []
