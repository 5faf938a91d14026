"""Who may watch is checked on every push, not only when a socket opens: a page that
was allowed once stops receiving when it no longer is (in-process websockets over
the real ASGI application, with the session's Redis as channel layer)."""
import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games import Variant
from games.access import Viewer
from games.models import Game
from lobby import actions
from tests.people import make_user
from tests.lobby.test_sockets import ORIGIN, connect, cookie_for, receive_until
from tests.review.conftest import WIPEOUT, store_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def closed_with(communicator, timeout=5):
    """The close code the server sent, skipping any message still on its way."""
    while True:
        output = await communicator.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return output.get("code")


async def test_a_stranger_holding_the_code_loses_the_seats_panel_when_the_private_table_starts():
    alice, bob, carol = [await sync_to_async(make_user)(name, name.title()) for name in ("alice", "bob", "carol")]
    table = await sync_to_async(actions.open_table)(alice, Variant(board="6x6"))  # private
    stranger, connected, _ = await connect(f"/ws/page/?table={table.code}", ORIGIN, await sync_to_async(cookie_for)(carol))
    assert connected  # anyone with the code may look while the table waits
    host, connected, _ = await connect(f"/ws/page/?table={table.code}", ORIGIN, await sync_to_async(cookie_for)(alice))
    assert connected
    await receive_until(stranger, 'id="table-seats"')
    await receive_until(host, 'id="table-seats"')

    await sync_to_async(actions.join)(table, Viewer(user=bob))  # the last seat: the game starts

    assert await closed_with(stranger) == 4403
    await receive_until(host, "Bob")  # the players' pages follow as before
    page = await sync_to_async(lambda: Client(HTTP_HOST="127.0.0.1"))()
    await sync_to_async(page.force_login)(carol)
    assert (await sync_to_async(page.get)(f"/tables/{table.code}/")).status_code == 403
    await host.disconnect()


async def test_a_shared_game_reopened_with_undo_is_private_again_and_its_watchers_are_cut_off():
    alice = await sync_to_async(make_user)("alice", "Alice")
    game = await sync_to_async(store_game)(WIPEOUT, players=(alice,))  # over, Black (Alice) won
    player = await sync_to_async(Client)()
    await sync_to_async(player.force_login)(alice)
    shared = await sync_to_async(player.post)(f"/games/{game.public_id}/public/", {"public": "1"})
    assert shared.status_code == 302
    stranger_page = await sync_to_async(Client)()
    assert (await sync_to_async(stranger_page.get)(f"/play/{game.public_id}/")).status_code == 200
    watcher, connected, _ = await connect(f"/ws/page/?game={game.public_id}", ORIGIN)
    assert connected
    await receive_until(watcher, 'id="game-state"')

    undone = await sync_to_async(player.post)(f"/play/{game.public_id}/undo/", {"ply": str(game.ply)},
                                              HTTP_HX_REQUEST="true")
    assert undone.status_code == 200

    assert await closed_with(watcher) == 4403  # the reopened game's moves are not pushed to them
    reopened = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert reopened.status == "playing" and not reopened.is_public
    assert (await sync_to_async(stranger_page.get)(f"/play/{game.public_id}/")).status_code == 404
    refused, connected, _ = await connect(f"/ws/page/?game={game.public_id}", ORIGIN)
    assert connected and await closed_with(refused) == 4404  # accepted, then closed: no failed handshake logged
    mine, connected, _ = await connect(f"/ws/page/?game={game.public_id}", ORIGIN, await sync_to_async(cookie_for)(alice))
    assert connected  # the player still plays on
    await receive_until(mine, 'id="game-state"')
    await mine.disconnect()
