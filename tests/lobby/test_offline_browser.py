"""A page that goes offline without its socket closing (Chromium keeps a silent socket
open) notices the silence within its ping interval, says so, and catches up with the
move it missed once the network is back."""
import pytest
from playwright.sync_api import expect

from tests.lobby.test_tables_in_browser import open_table, person, state, wait_for_board, wait_for_ply
from tests.pages import wait_for_game_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_offline_shows_the_notice_and_back_online_brings_the_missed_move(live_site, browser, alice, bob):
    host, guest = person(browser, live_site, alice), person(browser, live_site, bob)
    code = open_table(host, live_site, "board=8x8", seat="black")
    guest.goto(f"{live_site.url}/tables/{code}/")
    guest.get_by_role("button", name="Take the White seat").click()
    for page in (host, guest):
        wait_for_board(page)
        wait_for_game_socket(page)
    notice = guest.locator("#connection-notice")
    expect(notice).to_be_hidden()

    guest.context.set_offline(True)
    expect(notice).to_be_visible(timeout=20000)  # the ping interval (5 s) and one unanswered ping
    expect(notice).to_have_text("Connection lost, reconnecting…")
    host.locator("#game-state button.cell.legal").first.click()  # Black moves while White is offline
    wait_for_ply(host, 1)
    assert state(guest, "ply") == "0"

    guest.context.set_offline(False)
    wait_for_ply(guest, 1)  # the whole state again on reconnecting
    expect(notice).to_be_hidden(timeout=20000)
    assert state(guest, "turn") == "white"
