"""One address may hold at most WEBSOCKETS_PER_ADDRESS open websockets on a daphne, over
every route together (config.socket_limit): the next is closed at once with 4429,
another address is still served, and a socket that closes frees its place. The
address is the client's by the trusted-proxy rule (infra.client_address): this
daphne trusts 127.0.0.1, so X-Forwarded-For names the client."""
import asyncio
import time

import pytest
import websockets

from tests import servers

pytestmark = pytest.mark.django_db(transaction=True)

BOUND = 3
TOO_MANY = 4429


@pytest.fixture
def bounded_site(live_site, tmp_path):
    """A daphne of its own with a small bound that trusts 127.0.0.1 as a proxy;
    live_site's Celery worker does the rest."""
    daphne = servers.start_daphne(tmp_path, TRUSTED_PROXIES="127.0.0.1", WEBSOCKETS_PER_ADDRESS=str(BOUND))
    yield daphne
    daphne.stop()


async def lobby_socket(site, address, path="/ws/page/?lobby=1"):
    """(socket, None) once served (the lobby's list arrived), or (None, close code)."""
    socket = await websockets.connect(site.url.replace("http://", "ws://") + path, origin=site.url,
                                      additional_headers={"X-Forwarded-For": address}, open_timeout=10)
    try:
        await asyncio.wait_for(socket.recv(), timeout=10)
    except websockets.ConnectionClosed as closed:
        return None, closed.rcvd.code if closed.rcvd else None
    return socket, None


async def refused_code(site, address, path):
    """The close code of a socket that the site closes at once (it sends nothing first)."""
    socket = await websockets.connect(site.url.replace("http://", "ws://") + path, origin=site.url,
                                      additional_headers={"X-Forwarded-For": address}, open_timeout=10)
    try:
        await asyncio.wait_for(socket.recv(), timeout=10)
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    finally:
        await socket.close()
    return None


def test_one_address_gets_a_bounded_number_of_sockets_and_a_closed_one_frees_its_place(bounded_site):
    async def story():
        one, other = "198.51.100.7", "203.0.113.9"
        held = []
        for _ in range(BOUND):
            socket, code = await lobby_socket(bounded_site, one)
            assert socket is not None, code
            held.append(socket)
        assert (await lobby_socket(bounded_site, one))[1] == TOO_MANY
        for path in ("/ws/page/?site=1", "/ws/page/?game=abcdefghijkl", "/ws/page/?table=ABCDEF", "/ws/page/?site=1&path=/"):
            assert await refused_code(bounded_site, one, path) == TOO_MANY, path  # every route counts
        served, code = await lobby_socket(bounded_site, other)  # another address is served
        assert served is not None, code
        await served.close()

        await held.pop().close()
        deadline = time.monotonic() + 10  # the server counts it closed once its consumer has ended
        while True:
            socket, code = await lobby_socket(bounded_site, one)
            if socket is not None:
                break
            assert code == TOO_MANY and time.monotonic() < deadline
            await asyncio.sleep(0.1)
        held.append(socket)
        assert (await lobby_socket(bounded_site, one))[1] == TOO_MANY
        for socket in held:
            await socket.close()

    asyncio.run(story())
