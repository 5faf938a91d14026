"""In Chromium, a page whose websocket was refused as one too many from its address
(config.socket_limit, close code 4429) says it is not connected and does not open
the socket again before a pause of 30-60 s (static/js/reconnect.js), on the page's
own clock: refused pages do not hammer the site."""
import pytest
from playwright.sync_api import expect

from tests import servers

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.fixture
def one_socket_site(live_site, tmp_path):
    daphne = servers.start_daphne(tmp_path, WEBSOCKETS_PER_ADDRESS="1")
    yield daphne
    daphne.stop()


COUNT_SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.socketsOpened = [];
  window.WebSocket = function (url, protocols) {
    window.socketsOpened.push(new URL(url).pathname);
    return new Native(url, protocols);
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
"""


def test_a_page_whose_socket_is_refused_waits_before_trying_again(one_socket_site, page):
    # A page opens one socket: one address may hold one, which another tab holds.
    holder = page.context.new_page()
    holder.add_init_script("document.addEventListener('htmx:wsOpen', () => { window.heard = true; })")
    holder.goto(one_socket_site.url + "/lobby/")
    holder.wait_for_function("() => window.heard === true")  # its socket is open: the address's one
    page.add_init_script(COUNT_SOCKETS)
    page.clock.install()
    page.goto(one_socket_site.url + "/lobby/")
    page.wait_for_function("() => document.querySelector('[data-socket-refused]') !== null", timeout=15000)
    opened = page.evaluate("() => window.socketsOpened.length")
    assert opened == 1
    expect(page.locator("#connection-notice")).to_be_visible()

    page.clock.run_for(20_000)  # htmx alone would have tried again after at most 5 s
    assert page.evaluate("() => window.socketsOpened.length") == opened
    page.clock.run_for(45_000)  # past the pause: one more try (refused again: the other is still open)
    page.wait_for_function(f"() => window.socketsOpened.length === {opened + 1}", timeout=15000)
