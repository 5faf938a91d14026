"""One websocket a page, in Chromium against the real daphne and Celery: a table page,
the lobby and a game against the computer each open exactly one, and everything the
page shows live comes over it: Alice (laptop, English) and Bob (phone, German) at a
table see each other's move and chat line, a challenge to Bob rings his bell, and the
lobby shows a table opened meanwhile. Any console or page error fails the test."""
import pytest
from playwright.sync_api import expect

from games import Variant
from games.access import Viewer
from games.models import Game
from games.creation import build_variant
from lobby import actions
from social import challenges
from tests.lobby.browser_people import LAPTOP, PHONE, in_thread, person
from tests.pages import socket_answer
from tests.people import make_user
from tests.play.helpers import start_game, wait_for_my_turn_or_end

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def counting_sockets(page):
    """The page's websockets, as Chromium opens them, from now on."""
    opened = []
    page.on("websocket", lambda socket: opened.append(socket.url))
    return opened


def playing_table(alice, bob):
    table = actions.open_table(alice, Variant(board="6x6"), listed=True)
    actions.join(table, Viewer(user=bob))
    return table


def test_a_table_page_opens_one_socket_for_its_game_chat_and_notifications(live_site, browser):
    alice, bob, carol = (make_user(n, n.title()) for n in ("alice", "bob", "carol"))
    table = in_thread(playing_table, alice, bob)  # Alice has Black: she moves first
    errors = []
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    phone = person(browser, live_site, bob, errors, viewport=PHONE, locale="de-DE", is_mobile=True)
    sockets = {}
    for page in (laptop, phone):
        sockets[page] = counting_sockets(page)
        page.goto(f"{live_site.url}/tables/{table.code}/")
        page.locator("body[data-socket=open]").wait_for(state="attached")
        expect(page.locator("#chat")).to_be_visible()

    square = laptop.locator("#game-state .board button.cell.legal").first.get_attribute("data-square")
    with socket_answer(laptop):
        laptop.locator(f'#game-state [data-square="{square}"]').click()
    expect(phone.locator("#game-state")).to_have_attribute("data-ply", "1")  # pushed to Bob

    laptop.locator("#chat-text").fill("Your move, Bob")
    laptop.locator("#chat-send").click()
    expect(phone.locator("#chat-log-players .chat-message").last).to_contain_text("Alice: Your move, Bob")

    in_thread(challenges.send, carol, bob, build_variant(board="8x8", players=2),
              time_control=(Game.TimeControl.MOVE, 0, 0), colour="random", rated=False)
    expect(phone.locator("#bell")).to_have_attribute("aria-label", "Benachrichtigungen: 1 ungelesen")

    for page in (laptop, phone):
        assert len(sockets[page]) == 1, sockets[page]
        [url] = sockets[page]
        assert "/ws/page/?" in url and f"table={table.code}" in url and "game=" in url and "site=1" in url
    assert errors == []


def test_the_lobby_and_a_computer_game_open_one_socket_each(live_site, browser):
    alice, carol = make_user("alice", "Alice"), make_user("carol", "Carol")
    errors = []
    lobby = person(browser, live_site, carol, errors, viewport=PHONE, is_mobile=True)
    lobby_sockets = counting_sockets(lobby)
    lobby.goto(f"{live_site.url}/lobby/")
    table = in_thread(actions.open_table, alice, Variant(board="6x6"), listed=True)
    # Not on the page as it was served: its socket brought it (the list on connect, or the change).
    expect(lobby.locator(f'#open-tables tr[data-code="{table.code}"]')).to_be_visible()
    assert len(lobby_sockets) == 1 and "lobby=1" in lobby_sockets[0], lobby_sockets

    game_page = person(browser, live_site, None, errors, viewport=LAPTOP)
    start_game(game_page, live_site, "board=6x6", level="easy")
    game_sockets = counting_sockets(game_page)
    game_page.goto(game_page.url)  # the game's page alone, from its load on
    wait_for_my_turn_or_end(game_page)
    square = game_page.locator("#game-state .board button.cell.legal").first.get_attribute("data-square")
    with socket_answer(game_page):
        game_page.locator(f'#game-state [data-square="{square}"]').click()
    assert len(game_sockets) == 1 and "game=" in game_sockets[0], game_sockets
    assert errors == []
