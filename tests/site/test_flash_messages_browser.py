"""A flash message ("You sit at the White seat.") goes by itself after a few seconds or
with the next page, and the board does not move when it goes."""
import pytest
from playwright.sync_api import Error, expect

from tests.lobby.test_tables_in_browser import open_table, wait_for_board
from tests.pages import Watch
from tests.site.test_game_pages_first_screen_browser import person
from tests.site.test_layout_browser import LAPTOP, PHONE, boxes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def take_the_white_seat(guest, code):
    """Bob takes the White seat and the game starts: the table page's answers as they
    came (the start may reload the page, and an answer navigated away from can no
    longer be read later)."""
    answers = []

    def keep(response):
        if response.url.endswith(f"/tables/{code}/") and response.request.method == "GET":
            try:
                answers.append(response.text())
            except Error:
                pass  # replaced by the next answer before it could be read

    guest.on("response", keep)
    guest.get_by_role("button", name="Take the White seat").click()
    wait_for_board(guest)
    guest.remove_listener("response", keep)
    return answers


def board_top(page):
    return page.evaluate("document.querySelector('#game-state .board').getBoundingClientRect().top")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_seat_message_goes_by_itself_and_the_board_stays_put(live_site, browser, alice, bob, viewport):
    host, guest = person(browser, live_site, alice, viewport), person(browser, live_site, bob, viewport)
    watches = [Watch(host), Watch(guest)]
    code = open_table(host, live_site, "board=8x8", seat="black")
    guest.goto(f"{live_site.url}/tables/{code}/")
    assert any("You sit at the White seat." in answer for answer in take_the_white_seat(guest, code))
    top = board_top(guest)  # while the message shows (it stays some seconds)
    message = guest.get_by_text("You sit at the White seat.")
    expect(message).to_have_count(0, timeout=15000)  # a few seconds, not the whole game
    assert board_top(guest) == top
    guest.reload()
    wait_for_board(guest)
    expect(guest.locator(".messages")).to_have_count(0)
    for watch in watches:
        watch.assert_clean()


def overlap(one, other):
    return not (one["bottom"] <= other["top"] or other["bottom"] <= one["top"]
                or one["right"] <= other["left"] or other["right"] <= one["left"])


@pytest.mark.parametrize("viewport, language", [(PHONE, "de"), (LAPTOP, "en")], ids=["phone", "laptop"])
def test_the_seat_message_covers_neither_the_header_nor_the_board(live_site, browser, alice, bob, viewport,
                                                                  language):
    host, guest = person(browser, live_site, alice, viewport), person(browser, live_site, bob, viewport)
    watches = [Watch(host), Watch(guest)]
    guest.context.add_cookies([{"name": "django_language", "value": language, "url": live_site.url}])
    code = open_table(host, live_site, "board=8x8", seat="black")
    guest.goto(f"{live_site.url}/tables/{code}/")
    guest.locator('.seat[data-colour="white"] button').click()  # "Take the White seat", in any language
    wait_for_board(guest)
    message = guest.locator(".messages .message")
    expect(message).to_have_text({"de": "Du sitzt auf dem Platz von Weiß.", "en": "You sit at the White seat."}[language])
    # While it shows, the bell, the account's links and the board stay in sight.
    shown, header, board = boxes(guest, ".messages", "header.site-header", "#game-state .board")
    assert not overlap(shown, header), (shown, header)
    assert not overlap(shown, board), (shown, board)
    for watch in watches:
        watch.assert_clean()


def test_a_message_goes_with_the_next_page(live_site, browser, alice, bob):
    host, guest = person(browser, live_site, alice, LAPTOP), person(browser, live_site, bob, LAPTOP)
    code = open_table(host, live_site, "board=8x8", seat="black")
    guest.goto(f"{live_site.url}/tables/{code}/")
    assert any("You sit at the White seat." in answer for answer in take_the_white_seat(guest, code))
    guest.goto(f"{live_site.url}/play/")
    expect(guest.get_by_text("You sit at the White seat.")).to_have_count(0)
