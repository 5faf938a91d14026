"""The web server dies under a player (kill -9) and comes back: the page says it is
reconnecting, then shows the move the computer made meanwhile, and play goes on.
Only a daphne of this test's own is killed; the worker and Redis are the session's."""
import time

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests import servers
from tests.pages import wait_for_game_socket
from tests.play.helpers import start_game, state, wait_for_my_turn_or_end

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def daphne(live_site, tmp_path):
    started = [servers.start_daphne(tmp_path, name="daphne-1")]
    yield started
    for process in started:
        process.stop()


def refused_reconnection(message):
    """While the server is down, Chromium logs every refused reconnection and htmx logs
    the socket's error event."""
    return "WebSocket connection to" in message.text or message.text == "[object Event]"


def ply_shown(page, at_least):
    page.wait_for_function(f"() => Number(document.querySelector('#game-state').dataset.ply) >= {at_least}",
                           timeout=15000)


def test_a_page_reconnects_after_the_server_restarts_and_shows_what_happened_meanwhile(
        daphne, page, clean_console, tmp_path):
    clean_console.allow(refused_reconnection)
    site = daphne[0]
    start_game(page, site, "board=8x8", level="hard")  # Hard thinks its full 2 s: it answers while no server runs
    game = Game.objects.get(public_id=page.url.rstrip("/").rsplit("/", 1)[1])
    wait_for_my_turn_or_end(page)
    ply = int(state(page, "ply"))
    expect(page.locator("#connection-notice")).to_be_hidden()
    # Over the socket: a move posted over HTTP could still await its answer when daphne
    # is killed (the push can come first), and Chromium resends such a post, refused.
    wait_for_game_socket(page)
    page.locator("#game-state button.cell.legal").first.click()
    ply_shown(page, ply + 1)

    site.crash()  # kill -9 of the web server, the page's websocket with it
    expect(page.locator("#connection-notice")).to_be_visible()
    expect(page.locator("#connection-notice")).to_have_text("Connection lost, reconnecting…")
    deadline = time.monotonic() + 30
    while Game.objects.get(pk=game.pk).ply < ply + 2:  # the computer answers meanwhile
        assert time.monotonic() < deadline, "the computer did not answer"
        time.sleep(0.1)

    daphne.append(servers.start_daphne(tmp_path, port=site.port, name="daphne-2"))
    back = time.monotonic()
    game.refresh_from_db()
    ply_shown(page, game.ply)
    expect(page.locator("#connection-notice")).to_be_hidden()
    print(f"daphne restarted: the page showed the current state {time.monotonic() - back:.1f} s after it served again")
    assert int(state(page, "version")) == game.version

    wait_for_my_turn_or_end(page)  # and play goes on over the new connection
    if state(page, "status") == "playing":
        now = int(state(page, "ply"))
        wait_for_game_socket(page)  # the test's end stops daphne: no post may be on its way
        page.locator("#game-state button.cell.legal").first.click()
        ply_shown(page, now + 1)
