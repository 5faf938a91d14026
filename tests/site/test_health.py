"""An operator (or a load balancer) asks /healthz whether the site can serve."""
import json
import urllib.request

import pytest
from django.test import override_settings

from tests import servers

pytestmark = pytest.mark.django_db(transaction=True)


def test_health_is_200_when_database_redis_channels_and_a_worker_are_up(live_site):
    with urllib.request.urlopen(live_site.url + "/healthz", timeout=10) as response:
        body = json.load(response)
        assert response.status == 200
    assert body["status"] == "ok"
    assert {name for name, part in body["checks"].items() if part["ok"]} == {
        "database", "redis", "channel_layer", "celery",
    }


def test_health_says_which_engine_the_worker_runs_and_its_tables_memory(live_site):
    from games.ai import core

    with urllib.request.urlopen(live_site.url + "/healthz", timeout=10) as response:
        worker = json.load(response)["checks"]["celery"]
    assert worker["engine"] == core.engine_name()  # the worker runs this checkout's install
    assert worker["table_bytes"] == core.TABLE_BYTES + core.SEARCH_TABLE_BYTES


def test_health_warns_loudly_when_the_worker_runs_without_the_compiled_core(live_site, tmp_path):
    """A worker on the pure-Python engine (a Python the core was not built for) still
    serves, far slower: /healthz names its engine and warns, and so does its log."""
    worker = servers.start_worker(tmp_path, name="python-worker", GAMES_AI_ENGINE="python",
                                  GAMES_AI_REQUIRE_CORE="0")  # CI requires the core elsewhere
    try:
        with servers.workers_paused(keep=(worker,)):  # the one to answer
            with urllib.request.urlopen(live_site.url + "/healthz", timeout=10) as response:
                body = json.load(response)
    finally:
        worker.stop()
    assert response.status == 200 and body["status"] == "ok"
    assert body["checks"]["celery"]["engine"] == "pure Python"
    assert [line for line in body["warnings"] if "pure-Python engine" in line] == [
        "A Celery worker: the computer players run on the pure-Python engine, dozens of times slower than "
        "on the compiled core (games.ai._core), so Hard plays weaker: GAMES_AI_ENGINE=python asks for the "
        "Python engine"]
    assert "WARNING" in worker.output() and "pure-Python engine" in worker.output()


def test_health_has_no_engine_warning_on_the_compiled_core(live_site):
    from games.ai import core

    if core.Core is None:
        pytest.skip("the compiled core is not built here")
    with urllib.request.urlopen(live_site.url + "/healthz", timeout=10) as response:
        body = json.load(response)
    assert body["checks"]["celery"]["engine"] == "compiled core (games.ai._core)"
    assert not [line for line in body["warnings"] if "engine" in line]


def test_health_is_503_and_names_redis_when_redis_is_unreachable(client):
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):  # nothing listens on port 1
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["redis"]["ok"] is False
    assert "Connection" in body["checks"]["redis"]["error"]


def test_health_warns_of_a_proxy_missing_from_trusted_proxies(live_site):
    # The test site's daphne has no TRUSTED_PROXIES; a proxy in front of it adds X-Forwarded-For.
    for _ in range(2):
        request = urllib.request.Request(live_site.url + "/healthz", headers={"X-Forwarded-For": "198.51.100.9"})
        with urllib.request.urlopen(request, timeout=10) as response:
            body = json.load(response)
    assert response.status == 200 and body["status"] == "ok"
    assert any("TRUSTED_PROXIES is empty" in line for line in body["warnings"])
    assert "TRUSTED_PROXIES is empty" in live_site.output()  # and its log says so once
    assert live_site.output().count("TRUSTED_PROXIES is empty") == 1


def test_health_has_no_warning_behind_a_trusted_proxy(client, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    response = client.get("/healthz", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.9")
    assert response.json()["warnings"] == []


def plain_http(url, path):
    """(status, Location) of a GET over plain HTTP, redirects not followed."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=15)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Location")
    finally:
        connection.close()


def test_with_debug_off_the_health_check_answers_over_plain_http(live_site, tmp_path):
    # As in production: DEBUG off, so HTTP is redirected to HTTPS, except the load balancer's check.
    import secrets
    import sys

    from tests import servers

    port = servers.free_port()
    daphne = servers.Process(
        "production-daphne",
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        servers.server_env(DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="127.0.0.1",
                           VAR_DIR=str(tmp_path)), tmp_path)
    url = f"http://127.0.0.1:{port}"
    try:
        def answers():
            try:
                return plain_http(url, "/rules/")
            except OSError:
                return None

        servers.wait_for(answers, daphne, "daphne to answer")
        status, location = plain_http(url, "/healthz")
        assert status == 200 and location is None
        assert plain_http(url, "/rules/") == (301, f"https://127.0.0.1:{port}/rules/")  # every other page goes to HTTPS
    finally:
        daphne.stop()


@pytest.mark.asyncio
async def test_a_health_check_on_daphnes_event_loop_leaves_no_channel_behind():
    """A view's check runs on the event loop of the daphne serving it (asgiref): each
    /healthz would otherwise keep a channel subscribed there for good."""
    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer

    from config.health import check_channel_layer

    if not hasattr(get_channel_layer(), "_get_layer"):
        pytest.skip("channels-redis' default layer keeps nothing of a channel in the process")
    for _ in range(3):
        await sync_to_async(check_channel_layer)()
    layer = get_channel_layer()._get_layer()  # this event loop's
    assert layer.channels == {}
