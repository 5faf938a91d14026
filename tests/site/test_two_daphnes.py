"""Production runs several daphne processes: two players of one table may be served by
different ones. A move posted, or sent over the game socket, to one daphne reaches the
websocket held by the other (through channels-redis), as the same whole state the
mover got in their answer."""
import asyncio
import json
import re
import urllib.parse
import urllib.request

import pytest
import websockets
from django.test import Client

from games import Variant
from games.access import Viewer
from lobby import actions
from tests import servers
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True)]

STATE = re.compile(r'<div id="game-state".*?</div>\s*<div id="announcer"', re.S)


@pytest.fixture(scope="module")
def second_daphne(live_site, django_db_blocker, tmp_path_factory):
    """Another daphne on the same database and Redis as live_site."""
    with django_db_blocker.unblock():
        daphne = servers.start_daphne(tmp_path_factory.mktemp("second-daphne"), name="second-daphne")
    yield daphne
    daphne.stop()


class Player:
    """A signed-in player whose browser talks to one daphne only."""

    def __init__(self, user, daphne):
        client = Client()
        client.force_login(user)
        self.session, self.daphne, self.csrf = client.cookies["sessionid"].value, daphne, ""

    def request(self, path, data=None):
        cookie = f"sessionid={self.session}" + (f"; csrftoken={self.csrf}" if self.csrf else "")
        headers = {"Cookie": cookie, "HX-Request": "true"}
        if data is not None:
            headers["X-CSRFToken"] = self.csrf
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        with urllib.request.urlopen(urllib.request.Request(self.daphne.url + path, data=body, headers=headers),
                                    timeout=20) as response:
            for name, value in response.headers.items():
                if name.lower() == "set-cookie" and value.startswith("csrftoken="):
                    self.csrf = value.split(";", 1)[0].split("=", 1)[1]
            return response.status, response.read().decode()

    def socket(self, game):
        url = self.daphne.url.replace("http://", "ws://") + f"/ws/page/?game={game.public_id}"
        return websockets.connect(url, origin=self.daphne.url, additional_headers={"Cookie": f"sessionid={self.session}"})


def ply_of(html):
    return int(re.search(r'id="game-state"[^>]*data-ply="(\d+)"', html).group(1))


async def state_at(socket, ply):
    """The first pushed state at `ply` or later (the state on connect comes first)."""
    while True:
        html = await asyncio.wait_for(socket.recv(), timeout=10)
        if 'id="game-state"' in html and ply_of(html) >= ply:
            return html


def legal_square(html):
    return re.search(r'class="cell[^"]*\blegal\b[^"]*" data-square="(\w+)"', html).group(1)


@pytest.mark.parametrize("via", ["socket", "http"])
def test_a_move_made_through_one_daphne_reaches_a_player_on_another(live_site, second_daphne, via):
    """Sent over the game socket, as the pages do (static/js/moves.js), or posted, as
    they do while their socket is down."""
    alice, bob = make_user("alice"), make_user("bob")
    table = actions.open_table(alice, Variant(board="6x6"), level="easy")  # Alice plays Black
    actions.join(table, Viewer(user=bob))
    game = table.game
    at_first, at_second = Player(alice, live_site), Player(bob, second_daphne)
    for player in (at_first, at_second):
        status, _page = player.request(f"/tables/{table.code}/")
        assert status == 200 and player.csrf

    async def story():
        async with at_first.socket(game) as alices_screen, at_second.socket(game) as bobs_screen:
            shown = await state_at(alices_screen, 0)
            await state_at(bobs_screen, 0)
            for mover, screen, watcher_screen, ply in ((at_first, alices_screen, bobs_screen, 0),
                                                       (at_second, bobs_screen, alices_screen, 1)):
                square = legal_square(shown)
                if via == "socket":
                    await screen.send(json.dumps({"move": square, "ply": str(ply)}))
                    answer = await state_at(screen, ply + 1)
                else:
                    status, answer = await asyncio.to_thread(mover.request, f"/tables/{table.code}/move/",
                                                             {"square": square, "ply": ply})
                    assert status == 200
                assert ply_of(answer) == ply + 1
                shown = await state_at(watcher_screen, ply + 1)
                # The other daphne shows exactly what the mover was answered.
                assert STATE.search(shown).group(0) == STATE.search(answer).group(0)
                assert f'data-square="{square}" data-stone="{"black" if ply == 0 else "white"}"' in shown

    asyncio.run(story())
    game.refresh_from_db()
    assert game.ply == 2 and game.moves.count() == 2


def test_a_watcher_who_reads_german_sees_the_move_in_german_drawn_by_their_own_daphne(live_site, second_daphne):
    """The mover's daphne draws the state for the mover's answer; each page gets the
    push drawn in its own language by the daphne that holds its socket."""
    alice, bob = make_user("alice"), make_user("bob")
    table = actions.open_table(alice, Variant(board="6x6"), level="easy", listed=True)
    actions.join(table, Viewer(user=bob))
    game = table.game
    mover = Player(alice, live_site)
    status, page = mover.request(f"/tables/{table.code}/")
    assert status == 200 and mover.csrf
    base = second_daphne.url.replace("http://", "ws://") + f"/ws/page/?game={game.public_id}"

    async def story():
        async with websockets.connect(base + "&lang=de", origin=second_daphne.url) as german, \
                websockets.connect(base + "&lang=en", origin=second_daphne.url) as english:
            assert "Steine" in await state_at(german, 0)
            await state_at(english, 0)
            status, answer = await asyncio.to_thread(mover.request, f"/tables/{table.code}/move/",
                                                     {"square": legal_square(page), "ply": 0})
            assert status == 200 and ply_of(answer) == 1
            in_german, in_english = await state_at(german, 1), await state_at(english, 1)
            assert "ist am Zug" in in_german and "Steine" in in_german and "Stones" not in in_german
            assert STATE.search(in_english).group(0) == STATE.search(answer).group(0)
            # the German state is the same position
            squares = re.compile(r'data-square="\w+" data-stone="\w+"')
            assert squares.findall(in_german) == squares.findall(answer)

    asyncio.run(story())
