"""Abandoned waiting tables leave the lobby: the host's page of a table marks it seen
over its socket (lobby.host_presence); a waiting table whose host has been away for ten
minutes is no longer listed. The lobby shows each waiting table's age and whether its
host is here, and every minute Celery beat pushes the tables whose host came or went."""
import time
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils import timezone, translation

from games import Variant
from lobby import actions, host_presence
from lobby.drawing import read_list
from lobby.hosts import hosts_changed
from lobby.listing import EVERYTHING, lobby_tables
from lobby.models import Table
from tests.lobby.test_sockets import ORIGIN, connect, cookie_for
from tests.people import make_user
from tests.presence_marks import left_at


def open_public_table(host, age):
    table = actions.open_table(host, Variant(board="6x6"), listed=True)
    Table.objects.filter(pk=table.pk).update(created_at=timezone.now() - age)
    return table


def listed_codes():
    return [row["code"] for row in lobby_tables()["open_tables"]]


def host_left(table, ago):
    """The host's page of the table was last open `ago` (a timedelta), or never (None)."""
    left_at(host_presence.host_place(table.pk), None if ago is None else time.time() - ago.total_seconds())


def drawn_list():
    return read_list(EVERYTHING, 1, 0)


@pytest.mark.django_db
def test_a_table_whose_host_has_been_away_ten_minutes_leaves_the_lobby_and_one_away_for_less_stays(alice):
    old = open_public_table(alice, timedelta(minutes=61))
    young = open_public_table(alice, timedelta(minutes=9))
    for table in (old, young):
        host_left(table, None)
    assert listed_codes() == [young.code]  # the young one has not been waiting ten minutes
    host_left(old, timedelta(minutes=9))  # its host was there nine minutes ago: it stays
    assert listed_codes() == [young.code, old.code]
    host_left(old, timedelta(minutes=10, seconds=5))
    assert listed_codes() == [young.code]
    assert Table.objects.filter(pk=old.pk).exists()  # still reachable by its code


@pytest.mark.django_db
def test_the_lobby_shows_how_long_each_table_has_waited_and_whether_its_host_is_here(alice):
    here = open_public_table(alice, timedelta(minutes=5, seconds=10))
    away = open_public_table(alice, timedelta(minutes=75))
    host_left(here, timedelta(seconds=30))
    host_left(away, timedelta(minutes=4))
    with translation.override("en"):
        html = drawn_list()
    assert "waiting for 5 min" in html and "waiting for 1 h 15 min" in html
    assert html.count("host here") == 1 and html.count("host away") == 1
    with translation.override("de"):
        html = drawn_list()
    assert "wartet seit 5 Min." in html and "Gastgeber da" in html and "Gastgeber weg" in html


@pytest.mark.django_db
def test_the_minute_check_pushes_the_tables_whose_host_came_went_or_stayed_away(alice):
    table = open_public_table(alice, timedelta(minutes=30))
    host_left(table, timedelta(seconds=10))
    hosts_changed()  # what the lobby shows now
    assert hosts_changed() == []  # nothing changed since
    host_left(table, timedelta(minutes=4))
    assert hosts_changed() == [table.pk]  # away now
    host_left(table, timedelta(minutes=11))
    assert hosts_changed() == [table.pk] and table.code not in listed_codes()  # gone
    assert hosts_changed() == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_host_page_socket_marks_its_table_seen_and_a_visitor_page_does_not():
    alice = await sync_to_async(make_user)("alice")
    table = await sync_to_async(open_public_table)(alice, timedelta(hours=2))
    await sync_to_async(host_left)(table, None)
    assert table.code not in await sync_to_async(listed_codes)()
    visitor, connected, _code = await connect(f"/ws/page/?table={table.code}", ORIGIN)
    assert connected
    await visitor.receive_from(timeout=5)
    assert table.code not in await sync_to_async(listed_codes)()
    host, connected, _code = await connect(f"/ws/page/?table={table.code}", ORIGIN, await sync_to_async(cookie_for)(alice))
    assert connected
    await host.receive_from(timeout=5)
    assert table.code in await sync_to_async(listed_codes)()
    await host.disconnect()
    await visitor.disconnect()


def test_beat_checks_the_hosts_every_minute():
    entry = next(e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "lobby.refresh_lobby")
    assert entry["schedule"] <= 60
