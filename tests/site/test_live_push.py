"""A page's websocket receives what a Celery worker sends to its group, through
channels-redis and a real daphne: the path every live move takes."""
import asyncio

import pytest
import websockets

from lobby.announcements import announce

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def ws_url(live_site, path):
    return live_site.url.replace("http://", "ws://") + path


async def test_a_message_sent_by_a_worker_reaches_every_open_page(live_site):
    async with websockets.connect(ws_url(live_site, "/ws/page/?site=1"), origin=live_site.url) as first, \
            websockets.connect(ws_url(live_site, "/ws/page/?site=1"), origin=live_site.url) as second:
        # Both have joined the group: a socket is accepted once its subscription is sent to
        # Redis (lobby.announcements), before anything the worker publishes after it.
        result = await asyncio.to_thread(lambda: announce.delay("Restart in 5 minutes <soon>").get(timeout=20))
        assert result == len("Restart in 5 minutes <soon>")
        for page in (first, second):
            html = await asyncio.wait_for(page.recv(), timeout=10)
            assert 'id="site-notice"' in html
            assert "Restart in 5 minutes &lt;soon&gt;" in html  # text is escaped


async def test_a_websocket_from_a_foreign_origin_is_refused(live_site):
    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        async with websockets.connect(ws_url(live_site, "/ws/page/?site=1"), origin="http://evil.example"):
            pass
    assert refused.value.response.status_code == 403
