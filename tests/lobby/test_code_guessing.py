"""Guessing table codes: after 30 codes of no table an address is refused (429, in
the page's language) for every code it has no seat behind, so hits and misses look
alike; players at their own tables and other addresses carry on."""
import pytest
from django.test import Client

from games import Variant
from lobby import actions
from tests.people import make_user

pytestmark = pytest.mark.django_db
GUESSER = "203.0.113.66"
MESSAGE = "Too many wrong table codes came from your address"


def guess(client, code, how):
    if how == "page":
        return client.get(f"/tables/{code}/")
    if how == "move":  # a move posted straight to a table's address, as htmx would
        return client.post(f"/tables/{code}/move/", {"square": "c4", "ply": 0}, headers={"HX-Request": "true"})
    return client.post("/tables/join/", {"code": code})


@pytest.mark.parametrize("how", ["page", "form", "move"])
def test_guessing_codes_is_refused_after_thirty_misses(how):
    alice = make_user("alice")
    table = actions.open_table(alice, Variant(board="6x6"))
    guesser = Client(REMOTE_ADDR=GUESSER)
    for attempt in range(30):
        assert guess(guesser, f"ZZZZZ{attempt:05d}".translate(str.maketrans("01", "XY")), how).status_code == 404
    refused = guess(guesser, "ZZZZZZZZZZ", how)
    assert refused.status_code == 429 and MESSAGE in refused.content.decode()
    hit = guess(guesser, table.code, how)  # a real code looks just like a wrong one now
    assert hit.status_code == 429 and MESSAGE in hit.content.decode()
    german = guesser.get("/tables/ZZZZZZZZZZ/", headers={"Accept-Language": "de"})
    assert german.status_code == 429 and "Zu viele falsche Tischcodes" in german.content.decode()
    # Another address is not affected...
    assert Client(REMOTE_ADDR="203.0.113.67").get(f"/tables/{table.code}/").status_code == 200
    # ...nor is the host at their own table, on the guesser's address.
    host = Client(REMOTE_ADDR=GUESSER)
    host.force_login(alice)
    assert host.get(f"/tables/{table.code}/").status_code == 200


def test_typing_a_right_code_counts_nothing():
    alice = make_user("alice")
    table = actions.open_table(alice, Variant(board="6x6"))
    visitor = Client(REMOTE_ADDR=GUESSER)
    for _ in range(40):
        assert visitor.get(f"/tables/{table.code.lower()}/").status_code == 302
    assert visitor.get(f"/tables/{table.code}/").status_code == 200


def wrong_code(number):
    return f"ZZZZZ{number:05d}".translate(str.maketrans("01", "XY"))


async def socket_from(address, code, user=None):
    """The table socket opened from `address` over the real ASGI application; its close code, or None if it serves."""
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.lobby.test_sockets import HOST, ORIGIN, cookie_for

    headers = [HOST, ORIGIN] + ([await sync_to_async(cookie_for)(user)] if user else [])
    communicator = WebsocketCommunicator(application, f"/ws/page/?table={code}", headers=headers)
    communicator.scope["client"] = (address, 50000)
    connected, _ = await communicator.connect(timeout=5)
    assert connected  # accepted, then closed with a code htmx does not reconnect after
    output = await communicator.receive_output(timeout=5)
    await communicator.disconnect()
    return output.get("code") if output["type"] == "websocket.close" else None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_table_socket_counts_wrong_codes_with_the_pages_and_then_refuses_alike():
    from asgiref.sync import sync_to_async

    alice = await sync_to_async(make_user)("alice")
    table = await sync_to_async(actions.open_table)(alice, Variant(board="6x6"))
    guesser = Client(REMOTE_ADDR=GUESSER)
    for attempt in range(20):
        assert (await sync_to_async(guess)(guesser, wrong_code(attempt), "page")).status_code == 404
    for attempt in range(20, 30):
        assert await socket_from(GUESSER, wrong_code(attempt)) == 4404
    # Thirty misses, pages and sockets together: a wrong code and a real one look alike now...
    assert await socket_from(GUESSER, wrong_code(99)) == 4429
    assert await socket_from(GUESSER, table.code) == 4429
    assert (await sync_to_async(guess)(guesser, table.code, "page")).status_code == 429
    # ...for this address only, and not for the host at their own table.
    assert await socket_from("203.0.113.67", table.code) is None
    assert await socket_from(GUESSER, table.code, user=alice) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_guessing_on_the_table_socket_alone_is_stopped_after_thirty_misses():
    from asgiref.sync import sync_to_async

    alice = await sync_to_async(make_user)("alice")
    table = await sync_to_async(actions.open_table)(alice, Variant(board="6x6"))
    closes = [await socket_from(GUESSER, wrong_code(attempt)) for attempt in range(40)]
    assert closes == [4404] * 30 + [4429] * 10
    assert await socket_from(GUESSER, table.code) == 4429
    assert (await sync_to_async(Client(REMOTE_ADDR=GUESSER).get)(f"/tables/{table.code}/")).status_code == 429
