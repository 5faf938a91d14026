"""On an HTTPS site a websocket opens only from an https:// page of the site: a page
served over plain HTTP on the same host (which anyone on the path can write) may not
use the visitor's cookies on a socket."""
import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from config.asgi import application
from tests.lobby.test_sockets import HOST, cookie_for
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def opens(origin, *headers, scheme="ws"):
    alice = await sync_to_async(lambda: get_user_model().objects.filter(username="alice").first() or make_user("alice"))()
    communicator = WebsocketCommunicator(application, "/ws/page/?lobby=1", headers=[
        HOST, (b"origin", origin), await sync_to_async(cookie_for)(alice), *headers])
    communicator.scope["scheme"] = scheme
    connected, _code = await communicator.connect(timeout=5)
    await communicator.disconnect()
    return connected


async def test_over_tls_an_http_origin_is_refused():
    assert not await opens(b"http://127.0.0.1", scheme="wss")
    assert await opens(b"https://127.0.0.1", scheme="wss")


async def test_behind_a_tls_proxy_an_http_origin_is_refused(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert not await opens(b"http://127.0.0.1", (b"x-forwarded-proto", b"https"))
    assert await opens(b"https://127.0.0.1", (b"x-forwarded-proto", b"https"))


async def test_a_plain_http_site_takes_its_own_pages():
    assert await opens(b"http://127.0.0.1")
