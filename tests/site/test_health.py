"""An operator (or a load balancer) asks /healthz whether the site can serve."""
import json
import urllib.request

import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db(transaction=True)


def test_health_is_200_when_database_redis_channels_and_a_worker_are_up(live_site):
    with urllib.request.urlopen(live_site.url + "/healthz", timeout=10) as response:
        body = json.load(response)
        assert response.status == 200
    assert body["status"] == "ok"
    assert {name for name, part in body["checks"].items() if part["ok"]} == {
        "database", "redis", "channel_layer", "celery",
    }


def test_health_is_503_and_names_redis_when_redis_is_unreachable(client):
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):  # nothing listens on port 1
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["redis"]["ok"] is False
    assert "Connection" in body["checks"]["redis"]["error"]
