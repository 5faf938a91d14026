"""The limit on games against the computer thinking at once (games.thinking), for moves
sent over the game socket to the real daphne, as static/js/moves.js sends them: the
third game's move is refused on its socket with the reason and nothing is played."""
import asyncio
import json

import pytest
import redis as redis_py
from django.conf import settings

from games import Variant
from games.access import Viewer
from games.models import Game, Move
from games.creation import create_computer_game
from tests import servers
from tests.people import make_user
from tests.play.helpers import FirstChoice
from tests.site.test_two_daphnes import Player, ply_of, state_at

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_a_third_game_thinking_is_refused_over_the_socket(live_site):
    client = redis_py.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter("reversi:thinking:*"):
        client.delete(key)
    client.close()
    dora = make_user("dora")
    games = [create_computer_game(Viewer(user=dora), Variant(), "hard", rng=FirstChoice()) for _ in range(3)]
    player = Player(dora, live_site)

    async def move_in(game):
        async with player.socket(game) as screen:
            await state_at(screen, 0)
            await screen.send(json.dumps({"move": "d3", "ply": "0"}))
            return await asyncio.wait_for(screen.recv(), timeout=15)

    with servers.workers_paused():  # no worker answers meanwhile, so every place stays taken
        answers = [asyncio.run(move_in(game)) for game in games]
    assert [ply_of(answer) for answer in answers] == [1, 1, 0]
    assert "The computer is still thinking on your other games; try again once it has answered." in answers[2]
    assert Game.objects.get(pk=games[2].pk).ply == 0 and not Move.objects.filter(game=games[2]).exists()
