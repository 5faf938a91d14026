"""Abandoned waiting tables leave the lobby: a table's page marks it seen over its
socket (lobby.presence); a waiting table older than an hour that no page has open is
no longer listed. The lobby shows each waiting table's age, and Celery beat pushes the
list every minute so open lobby pages follow."""
from datetime import timedelta

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils import timezone, translation

from games import Variant
from lobby import actions, presence
from lobby.broadcast import render_lobby
from lobby.listing import lobby_tables
from lobby.models import Table
from tests.lobby.test_sockets import ORIGIN, connect
from tests.people import make_user


def open_public_table(host, age):
    table = actions.open_table(host, Variant(board="6x6"), listed=True)
    Table.objects.filter(pk=table.pk).update(created_at=timezone.now() - age)
    return table


def listed_codes():
    return [row["code"] for row in lobby_tables()["open_tables"]]


def forget(table):
    """What SEEN_FOR seconds without any page open leave behind."""
    redis.Redis.from_url(settings.REDIS_URL).delete(presence.key(table.pk))


@pytest.mark.django_db
def test_an_old_waiting_table_nobody_has_open_leaves_the_lobby_and_a_young_one_stays(alice):
    old = open_public_table(alice, timedelta(minutes=61))
    young = open_public_table(alice, timedelta(minutes=23))
    for table in (old, young):
        forget(table)
    assert listed_codes() == [young.code]
    presence.mark_seen(old.pk)  # a page of the old table is open: it stays
    assert listed_codes() == [young.code, old.code]
    assert Table.objects.filter(pk=old.pk).exists()  # still reachable by its code


@pytest.mark.django_db
def test_the_lobby_shows_how_long_each_table_has_waited(alice):
    open_public_table(alice, timedelta(minutes=5, seconds=10))
    open_public_table(alice, timedelta(minutes=75))
    with translation.override("en"):
        html = render_lobby()
    assert "waiting for 5 min" in html
    with translation.override("de"):
        html = render_lobby()
    assert "wartet seit 5 Min." in html


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_table_page_socket_marks_its_table_seen():
    alice = await sync_to_async(make_user)("alice")
    table = await sync_to_async(open_public_table)(alice, timedelta(hours=2))
    await sync_to_async(forget)(table)
    assert table.code not in await sync_to_async(listed_codes)()
    page, connected, _code = await connect(f"/ws/tables/{table.code}/", ORIGIN)
    assert connected
    await page.receive_from(timeout=5)
    assert table.code in await sync_to_async(listed_codes)()
    await page.disconnect()


def test_beat_pushes_the_lobby_every_minute():
    entry = next(e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "lobby.refresh_lobby")
    assert entry["schedule"] <= 60
