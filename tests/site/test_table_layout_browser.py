"""A table's page as its seated player sees it, in English and German: on a laptop
(1366x768) the chat beside the board and on the first screen."""
import pytest
from playwright.sync_api import expect

from tests.lobby.test_tables_in_browser import open_table, wait_for_board
from tests.pages import Watch
from tests.site.test_game_pages_first_screen_browser import off_screen, person
from tests.site.test_layout_browser import LAPTOP, boxes, no_sideways_scrolling

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
