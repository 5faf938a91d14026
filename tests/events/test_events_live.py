"""A game's events through the real site: a move posted to daphne is pushed as data
and drawn by the daphne of each page; a program reads the events after its version
from daphne as NDJSON, many of them at once."""
import asyncio
import json
import urllib.request

import pytest
import websockets

from games import Variant, events
from games.access import Viewer
from games.models import Game
from lobby import actions
from tests.people import make_user
from tests.site.test_two_daphnes import Player, legal_square, ply_of, state_at

pytestmark = [pytest.mark.django_db(transaction=True)]


def read_events(live_site, game, since):
    with urllib.request.urlopen(f"{live_site.url}/games/{game.public_id}/events?since={since}", timeout=20) as answer:
        assert answer.headers["Content-Type"] == "application/x-ndjson"
        return [json.loads(line) for line in answer.read().decode().splitlines()]


def public_table(alice, bob):
    table = actions.open_table(alice, Variant(board="6x6"), level="easy", listed=True)  # Alice plays Black
    actions.join(table, Viewer(user=bob))
    return table, Game.objects.get(pk=table.game_id)


def test_a_move_reaches_a_watcher_and_a_program_reads_the_state_after_it(live_site):
    alice, bob = make_user("alice"), make_user("bob")
    table, game = public_table(alice, bob)
    mover = Player(alice, live_site)
    status, page = mover.request(f"/tables/{table.code}/")
    assert status == 200 and mover.csrf
    before = Game.objects.get(pk=game.pk).version
    square = legal_square(page)

    async def story():
        url = live_site.url.replace("http://", "ws://") + f"/ws/page/?game={game.public_id}&lang=de"
        async with websockets.connect(url, origin=live_site.url) as watcher:
            await state_at(watcher, 0)
            status, answer = await asyncio.to_thread(mover.request, f"/tables/{table.code}/move/",
                                                     {"square": square, "ply": 0})
            assert status == 200 and ply_of(answer) == 1
            shown = await state_at(watcher, 1)
            assert "ist am Zug" in shown and f'data-square="{square}" data-stone="black"' in shown

    asyncio.run(story())
    moved = read_events(live_site, game, before)  # the move's own events (games.writer)
    game.refresh_from_db()
    assert [event["type"] for event in moved] == ["move", "turn"] and moved[0]["square"] == square
    assert [event["v"] for event in moved] == [before + 1, game.version]
    assert read_events(live_site, game, game.version) == []


def test_a_program_reads_many_events_and_a_page_is_drawn_the_published_ones(live_site):
    alice, bob = make_user("alice"), make_user("bob")
    table, game = public_table(alice, bob)
    old = game.version
    numbered = events.record(game, [{"type": "offer", "by": "black", "what": "draw"} for _ in range(300)])
    Game.objects.filter(pk=game.pk).update(version=game.version, draw_offer="black")
    assert read_events(live_site, game, old) == numbered
    assert read_events(live_site, game, old + 299) == numbered[299:]

    async def story():
        url = live_site.url.replace("http://", "ws://") + f"/ws/page/?game={game.public_id}"
        async with websockets.connect(url, origin=live_site.url) as watcher:
            first = await asyncio.wait_for(watcher.recv(), timeout=10)
            assert f'data-version="{game.version}"' in first
            Game.objects.filter(pk=game.pk).update(version=game.version + 1)
            game.version += 1
            await asyncio.to_thread(lambda: events.publish(game, events.record_state(game)))
            pushed = await asyncio.wait_for(watcher.recv(), timeout=10)
            assert f'data-version="{game.version}"' in pushed and 'id="draw-offer"' in pushed

    asyncio.run(story())
    [state] = read_events(live_site, game, old)  # a bare state among them: the whole state
    assert state["v"] == game.version and state["draw_offer"] == "black"
