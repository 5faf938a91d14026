"""GET /healthz: is every part the site needs up? 200 only when all are.

Checked: the database, Redis, the channel layer (a message sent and received back)
and a Celery worker (one answers, naming the engine its computer players run on). Load balancers and the test suite use it.
`warnings` lists what serves but is set up wrong (a proxy missing from TRUSTED_PROXIES, a worker
whose computer players run without the compiled core).
"""
import asyncio
import time
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import app as celery_app
from infra.client_address import PROXY_WARNING, untrusted_proxy
from infra.redis_clients import new_redis_client


def check_database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"vendor": connection.vendor}


def check_redis():
    client = new_redis_client()
    try:
        client.ping()
        return {"version": client.info("server").get("redis_version")}
    finally:
        client.close()


def check_channel_layer():
    layer = get_channel_layer()

    async def round_trip():
        channel = await layer.new_channel()
        token = uuid.uuid4().hex
        await layer.send(channel, {"type": "health.check", "token": token})
        message = await asyncio.wait_for(layer.receive(channel), timeout=3)
        # A receive cancelled is how channels-redis forgets a channel (its pub/sub
        # layer unsubscribes it): a check run on daphne's event loop leaves nothing.
        forgetting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0)
        forgetting.cancel()
        await asyncio.gather(forgetting, return_exceptions=True)
        return message.get("token") == token

    if not async_to_sync(round_trip)():
        raise RuntimeError("channel layer returned another message")
    return {}


def check_celery():
    """A worker answers (config.celery.engine), saying which engine it runs."""
    replies = celery_app.control.broadcast("engine", reply=True, timeout=1.0, limit=1)
    if not replies:
        raise RuntimeError("no Celery worker answered")
    worker, answer = next(iter(replies[0].items()))
    return {"worker": worker, **answer}


CHECKS = {
    "database": check_database,
    "redis": check_redis,
    "channel_layer": check_channel_layer,
    "celery": check_celery,
}
NEEDS_REDIS = {"channel_layer", "celery"}


@never_cache
def healthz(request):
    report = {}
    for name, check in CHECKS.items():
        started = time.monotonic()
        if name in NEEDS_REDIS and not report["redis"]["ok"]:
            # Both would only wait out their retries against a dead Redis.
            report[name] = {"ok": False, "error": "Redis is unreachable", "ms": 0.0}
            continue
        try:
            details = check()
            report[name] = {"ok": True, **details}
        except Exception as error:  # any failure is reported, never raised
            report[name] = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        report[name]["ms"] = round((time.monotonic() - started) * 1000, 1)
    healthy = all(part["ok"] for part in report.values())
    warnings = [PROXY_WARNING] if untrusted_proxy(request) else []
    if report["celery"].get("warning"):  # a worker without the compiled core: it serves, far slower
        warnings.append(f"A Celery worker: {report['celery']['warning']}")
    return JsonResponse(
        {"status": "ok" if healthy else "failing", "checks": report, "warnings": warnings},
        status=200 if healthy else 503,
    )
