"""The lobby and table websockets in-process (Channels' communicator over the real
ASGI application, origin check and session auth included), and moves applied
exactly once under concurrent submissions."""
import asyncio
import itertools
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import translation

from config.asgi import application
from games import Variant
from games.access import Viewer
from games.fanout import game_fanout
from games.models import Game, Move
from games.errors import StaleMove
from games.services import play_move
from lobby import actions, broadcast
from lobby.feed import lobby_feed
from tests.people import make_user

ORIGIN = (b"origin", b"http://127.0.0.1")
HOST = (b"host", b"127.0.0.1")


def cookie_for(user):
    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


async def connect(path, *headers):
    communicator = WebsocketCommunicator(application, path, headers=[HOST, *headers])
    connected, code = await communicator.connect(timeout=5)
    return communicator, connected, code


async def until(condition, timeout=5):
    """What a closed socket leaves to the process's tasks (a group left, a receiver
    stopped) is done a moment later: wait for `condition`, at most `timeout` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "not within the time"
        await asyncio.sleep(0.01)


async def receive_until(communicator, text, timeout=5):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        html = await communicator.receive_from(timeout=max(0.1, deadline - loop.time()))
        if text in html:
            return html


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_websockets_with_a_foreign_origin_are_refused():
    alice = await sync_to_async(make_user)("alice")
    table = await sync_to_async(actions.open_table)(alice, Variant(board="6x6"))
    public_id = await sync_to_async(lambda: table.game.public_id)()
    me = await sync_to_async(cookie_for)(alice)
    for path in ("/ws/page/?lobby=1", f"/ws/page/?table={table.code}", f"/ws/page/?game={public_id}"):
        for origin in (b"http://evil.example", b"http://127.0.0.1.evil.example", None):
            headers = [me] + ([(b"origin", origin)] if origin else [])
            communicator, connected, _code = await connect(path, *headers)
            assert not connected, (path, origin)
            await communicator.disconnect()
        communicator, connected, _code = await connect(path, me, ORIGIN)  # the same socket, from our own page
        assert connected, path
        await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_lobby_socket_is_for_everyone_and_follows_tables_opening():
    alice = await sync_to_async(make_user)("alice", "Alice")
    visitor, connected, _code = await connect("/ws/page/?lobby=1", ORIGIN)  # no account: the lobby too
    assert connected and 'id="lobby-tables"' in await visitor.receive_from(timeout=5)
    await visitor.disconnect()
    communicator, connected, _code = await connect("/ws/page/?lobby=1", ORIGIN, await sync_to_async(cookie_for)(alice))
    assert connected
    first = await communicator.receive_from(timeout=5)
    assert 'id="lobby-tables"' in first and "No open tables" in first
    table = await sync_to_async(actions.open_table)(alice, Variant(players=3), listed=True)
    html = await receive_until(communicator, table.code)
    assert "1 of 3" in html and "Alice" in html
    private = await sync_to_async(actions.open_table)(alice, Variant(players=3))
    await sync_to_async(broadcast.lobby_changed)([private.pk])  # as if it were listed
    html = await communicator.receive_from(timeout=5)
    assert 'id="lobby-version"' in html and private.code not in html
    await communicator.disconnect()


def test_lobby_versions_rise_from_one_push_to_the_next_even_when_the_clock_goes_back(monkeypatch):
    """Several hosts' clocks disagree: the order of lobby pushes is a counter in Redis."""
    clock = iter(range(2_000_000_000, 0, -3600))  # an hour back at every reading
    monkeypatch.setattr(time, "time", lambda: float(next(clock)))
    first = broadcast.next_lobby_version()
    second = broadcast.next_lobby_version()
    assert second > first >= 1
    assert broadcast.lobby_version() == second


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_lobby_page_takes_newer_changes_while_the_clock_goes_back_and_drops_older_ones(monkeypatch):
    alice = await sync_to_async(make_user)("alice", "Alice")
    communicator, connected, _code = await connect("/ws/page/?lobby=1", ORIGIN, await sync_to_async(cookie_for)(alice))
    assert connected
    assert "No open tables" in await communicator.receive_from(timeout=5)
    now = time.time()
    clock = itertools.count()
    monkeypatch.setattr(time, "time", lambda: now - next(clock))  # a second back at every reading
    first = await sync_to_async(actions.open_table)(alice, Variant(players=3), listed=True)
    assert first.code in await receive_until(communicator, first.code)
    # A change older than the list shown (another process's, sent late) is dropped...
    layer = get_channel_layer()
    await layer.group_send(broadcast.LOBBY_GROUP, {"type": "lobby.changes", "changes": [
        {"id": first.pk, "section": "open", "category": "multi", "rated": False, "html": {"en": "<tr >stale</tr>"}}],
        "version": 0, "counts": {"online": 1, "playing": 0}})
    second = await sync_to_async(actions.open_table)(alice, Variant(players=3), listed=True)
    html = await communicator.receive_from(timeout=5)  # ...and the next one is the newer change
    assert second.code in html and first.code not in html and "stale" not in html
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_table_page_sees_players_sit_down_and_ignores_what_it_is_sent():
    alice = await sync_to_async(make_user)("alice", "Alice")
    bob = await sync_to_async(make_user)("bob", "<i>Bob</i>")
    table = await sync_to_async(actions.open_table)(alice, Variant(players=3))
    communicator, connected, _code = await connect(f"/ws/page/?table={table.code}", ORIGIN)  # a visitor with the link
    assert connected
    first = await communicator.receive_from(timeout=5)
    assert 'id="table-seats"' in first and 'data-kind="free"' in first
    await communicator.send_to(text_data='{"seat": "white"}')  # sockets take no actions
    await sync_to_async(actions.join)(table, Viewer(user=bob), colour="white")
    html = await receive_until(communicator, "Bob")
    assert "&lt;i&gt;Bob&lt;/i&gt;" in html and "<i>Bob</i>" not in html
    assert html.count('data-kind="free"') == 1
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_move_sent_over_the_game_socket_changes_nothing():
    alice = await sync_to_async(make_user)("alice")
    bob = await sync_to_async(make_user)("bob")
    table = await sync_to_async(actions.open_table)(alice, Variant(board="6x6"))
    await sync_to_async(actions.join)(table, Viewer(user=bob))
    public_id = await sync_to_async(lambda: table.game.public_id)()
    communicator, connected, _code = await connect(f"/ws/page/?game={public_id}", ORIGIN,
                                                   await sync_to_async(cookie_for)(alice))
    assert connected
    assert 'id="game-state"' in await communicator.receive_from(timeout=5)
    for message in ('{"square": "c3", "ply": 0}', "square=c3&ply=0", "c3"):
        await communicator.send_to(text_data=message)
    # A well-formed move last, for a ply long gone: its refusal is the first answer, so
    # the consumer (which takes one frame at a time) has read and ignored the others.
    await communicator.send_to(text_data='{"move": "c3", "ply": 99}')
    assert "The game has moved on" in await communicator.receive_from(timeout=10)
    game = await sync_to_async(Game.objects.get)(pk=table.game_id)
    assert game.ply == 0 and not await sync_to_async(Move.objects.exists)()
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_submissions_of_the_same_move_apply_once():
    alice, bob = make_user("alice"), make_user("bob")
    table = actions.open_table(alice, Variant(board="8x8"))
    actions.join(table, Viewer(user=bob))
    game = Game.objects.get(pk=table.game_id)
    barrier = threading.Barrier(2)
    outcomes = []

    def submit():
        from django.db import connection

        try:
            barrier.wait()
            play_move(game, "d3", expected_ply=0, viewer=Viewer(user=alice))
            outcomes.append("applied")
        except StaleMove:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes) == ["applied", "stale"]
    game.refresh_from_db()
    assert game.ply == 1 and list(game.moves.values_list("square", flat=True)) == ["d3"]
    # One version an event (games.events): the seat taken, the start and its turn, then
    # the one move and the next turn; the move told once.
    told = list(game.events.order_by("version").values_list("type", flat=True))
    assert told == ["seat", "start", "turn", "move", "turn"] and game.version == len(told)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_table_page_hears_that_the_table_closed():
    alice = await sync_to_async(make_user)("alice")
    table = await sync_to_async(actions.open_table)(alice, Variant(players=3))
    communicator, connected, _code = await connect(f"/ws/page/?table={table.code}", ORIGIN)
    assert connected
    await communicator.receive_from(timeout=5)
    assert await sync_to_async(actions.leave)(table, Viewer(user=alice)) == "closed"
    html = await receive_until(communicator, 'data-status="closed"')
    assert "This table was closed" in html
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_lobby_pages_get_a_changed_row_in_their_own_language_whoever_made_the_change():
    alice = await sync_to_async(make_user)("alice", "Alice")
    pages = {}
    for language in ("en", "de"):
        pages[language], connected, _code = await connect(f"/ws/page/?lobby=1&lang={language}", ORIGIN)
        assert connected
        await pages[language].receive_from(timeout=5)  # the list whole

    def open_in_german():
        with translation.override("de"):
            return actions.open_table(alice, Variant(players=3), listed=True)

    table = await sync_to_async(open_in_german)()
    english = await receive_until(pages["en"], table.code)
    german = await receive_until(pages["de"], table.code)
    assert "8×8 · 3 players" in english and "Spieler" not in english and ">Join<" in english
    assert "8×8 · 3 Spieler" in german and "3 players" not in german and ">Beitreten<" in german
    for page in pages.values():
        await page.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_lobby_pages_of_a_process_share_one_receiver_and_one_drawing_per_filter_and_language():
    alice = await sync_to_async(make_user)("alice", "Alice")
    paths = ["/ws/page/?lobby=1&lang=en", "/ws/page/?lobby=1&lang=en", "/ws/page/?lobby=1&lang=de", "/ws/page/?lobby=1&lang=en&rated=rated"]
    pages = []
    for path in paths:
        page, connected, _code = await connect(path, ORIGIN)
        assert connected and 'id="lobby-tables"' in await page.receive_from(timeout=5)
        pages.append(page)
    feed = lobby_feed()
    assert sorted(feed.views) == [("", "", 1, "de"), ("", "", 1, "en"), ("", "rated", 1, "en")]
    assert len(feed.views[("", "", 1, "en")].pages) == 2

    table = await sync_to_async(actions.open_table)(alice, Variant(players=3), listed=True)  # casual
    frames = [await receive_until(page, 'id="lobby-version"') for page in pages]
    assert frames[0] == frames[1] and table.code in frames[0] and "3 players" in frames[0]
    assert table.code in frames[2] and "3 Spieler" in frames[2]
    assert table.code not in frames[3]  # rated tables only

    for page in pages[:3]:
        await page.disconnect()
    await until(lambda: list(feed.views) == [("", "rated", 1, "en")])
    assert not feed.receiver.done()
    await pages[3].disconnect()
    await until(lambda: feed.receiver is None and not feed.views)  # no lobby page here: no changes taken


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_pages_of_a_game_in_one_process_take_each_push_from_one_receiver():
    alice, bob = await sync_to_async(make_user)("alice"), await sync_to_async(make_user)("bob")
    table = await sync_to_async(actions.open_table)(alice, Variant(board="6x6"), listed=True)
    await sync_to_async(actions.join)(table, Viewer(user=bob))
    game = await sync_to_async(Game.objects.get)(pk=table.game_id)
    path = f"/ws/page/?game={game.public_id}"
    player, connected, _code = await connect(path, ORIGIN, await sync_to_async(cookie_for)(alice))
    assert connected
    watchers = []
    for language in ("en", "en", "de"):
        watcher, connected, _code = await connect(f"{path}&lang={language}", ORIGIN)
        assert connected
        watchers.append(watcher)
    for page in (player, *watchers):
        assert 'data-ply="0"' in await page.receive_from(timeout=5)
    fanout = game_fanout()
    assert len(fanout.pages[game.group_name]) == 4

    square = game.board().legal_moves[0]
    await player.send_to(text_data=f'{{"move": "{square}", "ply": 0}}')
    for page in (player, *watchers):
        assert 'data-ply="1"' in await receive_until(page, 'data-ply="1"')
    for page in (player, *watchers):
        await page.disconnect()
    await until(lambda: not fanout.pages and fanout.receiver is None)  # no game page here: no group joined
