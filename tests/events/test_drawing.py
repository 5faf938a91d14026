"""A change pushes data and draws nothing; each daphne process draws a push once per
version and language, for all its pages of the game (games.drawing)."""
import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext

from games import Variant, drawing, events
from games.access import Viewer
from games.models import Game, Move
from games.services import play_move
from lobby import actions
from tests.lobby.test_sockets import ORIGIN, connect, receive_until
from tests.people import make_user
from tests.play.test_moves import new_game, visitor

STATE = "games/includes/state.html"


class Drawings:
    """The game states drawn while it is open, each with the thread that drew it."""

    def __enter__(self):
        self.drawn = []
        template_rendered.connect(self.rendered)
        return self

    def rendered(self, sender, template, **kwargs):
        if template.name == STATE:
            self.drawn.append(threading.get_ident())

    def __exit__(self, *exc):
        template_rendered.disconnect(self.rendered)


def game_messages(game, action):
    """What a page of `game` hears over the real channel layer while `action` runs (in
    this thread: the listening's loop is the one its subscriptions belong to)."""
    layer = get_channel_layer()

    async def listen():
        channel = await layer.new_channel()
        await layer.group_add(game.group_name, channel)
        await sync_to_async(action)()
        await layer.group_send(game.group_name, {"type": "test.sentinel"})  # after everything the action sent
        heard = []
        while (message := await asyncio.wait_for(layer.receive(channel), timeout=10))["type"] != "test.sentinel":
            heard.append(message)
        await layer.group_discard(game.group_name, channel)
        return heard

    return async_to_sync(listen)()


@pytest.mark.django_db
def test_a_move_pushes_its_events_as_data_and_draws_nothing(django_capture_on_commit_callbacks):
    game = new_game()
    square = game.board().legal_moves[0]

    def move():
        with django_capture_on_commit_callbacks(execute=True):
            return play_move(game, square, expected_ply=0, viewer=visitor)

    with Drawings() as drawings:
        heard = game_messages(game, move)
    game.refresh_from_db()
    assert drawings.drawn == []
    move = game.moves.get()
    assert heard == [{"type": "game.events", "group": game.group_name, "game": game.public_id,
                      "version": game.version, "events": [
                          {"v": 1, "type": "move", "ply": 1, "colour": "black", "square": square,
                           "flips": move.flips, "made_by": "player"},
                          {"v": 2, "type": "turn", "colour": "white", "started": round(
                              game.turn_started_at.timestamp(), 3), "deadline": None, "clocks": {}}],
                      "public": game.is_public}]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_push_is_drawn_here_once_per_language_not_where_the_move_was_made():
    alice, bob = await sync_to_async(make_user)("alice"), await sync_to_async(make_user)("bob")
    table = await sync_to_async(actions.open_table)(alice, Variant(board="6x6"), listed=True)
    await sync_to_async(actions.join)(table, Viewer(user=bob))
    game = await sync_to_async(Game.objects.get)(pk=table.game_id)
    pages = []
    for language in ("en", "en", "de", "de"):
        page, connected, _code = await connect(f"/ws/page/?game={game.public_id}&lang={language}", ORIGIN)
        assert connected and 'data-ply="0"' in await page.receive_from(timeout=5)
        pages.append(page)
    square = (await sync_to_async(game.board)()).legal_moves[0]
    mover = threading.Thread(target=play_move, args=(game, square),
                             kwargs={"expected_ply": 0, "viewer": Viewer(user=alice)})  # as a worker makes it
    with Drawings() as drawings:
        mover.start()
        frames = [await receive_until(page, 'data-ply="1"') for page in pages]
        mover.join()
    assert len(drawings.drawn) == 2 and mover.ident not in drawings.drawn  # English and German, here
    assert frames[0] == frames[1] and frames[2] == frames[3] and frames[0] != frames[2]
    assert "Weiß" in frames[2] or "Schwarz" in frames[2]
    for page in pages:
        await page.disconnect()


def moved_elsewhere(game, square, colour, flips, *more):
    """A move another process made: its row, its events, the game's new version."""
    game.refresh_from_db()
    Move.objects.create(game=game, ply=game.ply + 1, colour=colour, square=square, flips=flips)
    numbered = events.record(game, [{"type": "move", "ply": game.ply + 1, "colour": colour, "square": square,
                                     "flips": flips, "made_by": "player"}, *more])
    Game.objects.filter(pk=game.pk).update(ply=game.ply + 1, turn="white" if colour == "black" else "black",
                                           version=game.version)
    return numbered


def moves_read(action):
    with CaptureQueriesContext(connection) as queries:
        result = action()
    return result, [query["sql"] for query in queries if "games_move" in query["sql"]]


@pytest.mark.django_db
def test_a_push_of_moves_is_drawn_from_the_moves_kept_here():
    game = new_game()
    drawing.state_at(game.pk, game.public_id, game.version, "en")  # this process shows the game
    numbered = moved_elsewhere(game, "d3", "black", ["d4"], {"type": "turn", "colour": "white"})
    (html, version), read = moves_read(
        lambda: drawing.state_at(game.pk, game.public_id, numbered[-1]["v"], "en", numbered))
    assert read == [] and version == numbered[-1]["v"]
    assert 'class="cell last" data-square="d3"' in html

    undone = events.record(game, [{"type": "undo", "ply": 0}])  # a takeback: the moves kept are no more
    Move.objects.filter(game=game).delete()
    Game.objects.filter(pk=game.pk).update(ply=0, turn="black", version=game.version)
    (html, version), read = moves_read(lambda: drawing.state_at(game.pk, game.public_id, undone[-1]["v"], "en", undone))
    assert read and version == undone[-1]["v"] and 'class="cell last"' not in html


@pytest.mark.django_db
def test_a_push_after_a_version_not_seen_here_reads_the_moves():
    game = new_game()
    drawing.state_at(game.pk, game.public_id, game.version, "en")
    moved_elsewhere(game, "d3", "black", ["d4"])  # its push went to another process
    numbered = moved_elsewhere(game, "c3", "white", ["d4"])
    (html, version), read = moves_read(
        lambda: drawing.state_at(game.pk, game.public_id, numbered[-1]["v"], "en", numbered))
    assert read and 'class="cell last" data-square="c3"' in html and 'data-square="d3" data-stone="black"' in html
