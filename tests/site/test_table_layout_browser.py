"""A table's page as its seated player sees it, in English and German: on a laptop
(1366x768) the chat beside the board and on the first screen; on a phone (390x844)
the whole board with a draw offer to answer, and each seat on one line."""
import pytest
from playwright.sync_api import expect

from tests.lobby.test_tables_in_browser import open_table, wait_for_board
from tests.pages import Watch
from tests.site.test_game_pages_first_screen_browser import off_screen, person
from tests.site.test_layout_browser import LAPTOP, PHONE, boxes, no_sideways_scrolling

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def seated_at_a_table(browser, live_site, host_user, guest_user, viewport):
    """Alice hosts at Black, Bob (on `viewport`) takes White: the game starts."""
    host, guest = person(browser, live_site, host_user, LAPTOP), person(browser, live_site, guest_user, viewport)
    watches = [Watch(host), Watch(guest)]
    code = open_table(host, live_site, "board=8x8", seat="black")
    guest.goto(f"{live_site.url}/tables/{code}/")
    guest.locator('.seat[data-colour="white"] button').click()  # "Take the White seat", in any language
    wait_for_board(guest)
    host.goto(f"{live_site.url}/tables/{code}/")
    wait_for_board(host)
    return host, guest, watches


def reload_in(page, live_site, language):
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_site.url}])
    page.reload()
    wait_for_board(page)


def test_on_a_laptop_the_chat_is_beside_the_board_on_the_first_screen(live_site, browser, alice, bob):
    _host, guest, watches = seated_at_a_table(browser, live_site, alice, bob, LAPTOP)
    for language in ("en", "de"):
        reload_in(guest, live_site, language)
        expect(guest.locator("#chat-text")).to_be_visible()
        assert off_screen(guest, ("#game-state .board", "#leave-table", "#chat-heading", "#chat-text", "#chat-send"),
                          LAPTOP) == {}, language
        board, chat = boxes(guest, "#game-state .board", "#chat")
        beside = chat["right"] <= board["left"] or chat["left"] >= board["right"]
        assert beside and chat["top"] < board["bottom"], (language, board, chat)
        width, client, wide = no_sideways_scrolling(guest)
        assert width <= client, wide
    for watch in watches:
        watch.assert_clean()


def one_line_seats(page):
    """Each seat's line: its height against the line height, and any part of it
    that is not on the seat's first line or sticks out of it."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('#table-seats .seat')).map(seat => {
        const box = seat.getBoundingClientRect(), line = parseFloat(getComputedStyle(seat).lineHeight);
        const off = Array.from(seat.querySelectorAll('*')).filter(part => part.getClientRects().length)
            .map(part => [part, part.getBoundingClientRect()])
            .filter(([part, r]) => r.top >= box.top + line * 0.8 || r.right > box.right + 1)
            .map(([part]) => part.tagName + '.' + part.className + ': ' + part.textContent.trim());
        return {colour: seat.dataset.colour, height: box.height, line: line, off: off}; })""")


def test_on_a_phone_a_draw_offer_leaves_the_board_whole_and_each_seat_on_one_line(live_site, browser, alice,
                                                                                    bob):
    host, guest, watches = seated_at_a_table(browser, live_site, alice, bob, PHONE)
    # Before the first move the move list says so, and shows no empty box.
    expect(guest.locator("#no-moves")).to_be_visible()
    expect(guest.locator("#move-list")).to_be_hidden()
    host.locator("#offer-draw").click()
    expect(guest.locator("#accept-draw")).to_be_visible()
    for language in ("en", "de"):
        reload_in(guest, live_site, language)
        expect(guest.locator("#accept-draw")).to_be_visible()
        assert off_screen(guest, ("#game-state .board", "#accept-draw", "#decline-draw"), PHONE) == {}, language
        seats = one_line_seats(guest)
        assert len(seats) == 2
        for seat in seats:
            assert seat["height"] < 1.5 * seat["line"] and seat["off"] == [], (language, seat)
        width, client, wide = no_sideways_scrolling(guest)
        assert width <= client, wide
    for watch in watches:
        watch.assert_clean()
