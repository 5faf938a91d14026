"""Moves sent over a game page's websocket (as static/js/moves.js sends them), against
a real daphne: the mover's page is answered on its own socket, refusals change
nothing and reach the sender only, and the seat is checked against the session as it
is at the moment of the move, not as it was when the socket opened."""
import asyncio
import json

import pytest
import websockets
from django.contrib.sessions.backends.db import SessionStore

from games import Variant
from games.access import GUEST_TOKEN_KEY, Viewer
from lobby import actions
from tests.people import make_user
from tests.site.test_two_daphnes import Player, legal_square, ply_of, state_at

pytestmark = [pytest.mark.django_db(transaction=True)]


def a_table(live_site):
    """A 6x6 table between Alice (Black) and Bob (White), and their players on live_site."""
    alice, bob = make_user("alice"), make_user("bob")
    table = actions.open_table(alice, Variant(board="6x6"), level="easy")
    actions.join(table, Viewer(user=bob))
    return table.game, Player(alice, live_site), Player(bob, live_site)


def move(square, ply):
    return json.dumps({"move": square, "ply": str(ply)})


async def message_after(socket, seconds=0.5):
    """The next frame within `seconds`, or None."""
    try:
        return await asyncio.wait_for(socket.recv(), timeout=seconds)
    except asyncio.TimeoutError:
        return None


def refusal(html):
    return html.split('class="message error">', 1)[1].split("<", 1)[0] if 'class="message error"' in html else None


def test_a_move_over_the_socket_is_answered_on_it_and_pushed_to_the_opponent_once(live_site):
    game, alice, bob = a_table(live_site)

    async def story():
        async with alice.socket(game) as alices_screen, bob.socket(game) as bobs_screen:
            shown = await state_at(alices_screen, 0)
            await state_at(bobs_screen, 0)
            square = legal_square(shown)
            await alices_screen.send(move(square, 0))
            answer = await alices_screen.recv()  # the very next frame: the new state, no message
            assert ply_of(answer) == 1 and refusal(answer) is None
            pushed = await state_at(bobs_screen, 1)
            assert f'data-square="{square}" data-stone="black"' in pushed
            assert await message_after(alices_screen) is None  # the push's copy is not sent again

            # The same move again (a double click, a stale page): refused to Alice alone.
            await alices_screen.send(move(square, 0))
            again = await alices_screen.recv()
            assert refusal(again) == "The game has moved on; here is the current position." and ply_of(again) == 1
            assert await message_after(bobs_screen) is None

    asyncio.run(story())
    game.refresh_from_db()
    assert game.ply == 1 and game.moves.count() == 1


def test_refused_moves_over_the_socket_change_nothing(live_site):
    game, alice, bob = a_table(live_site)
    german = live_site.url.replace("http://", "ws://") + f"/ws/page/?game={game.public_id}&lang=de"

    async def story():
        async with bob.socket(game) as bobs_screen, websockets.connect(
                german, origin=live_site.url, additional_headers={"Cookie": f"sessionid={alice.session}"}) as alices:
            shown = await state_at(alices, 0)
            await state_at(bobs_screen, 0)
            legal = legal_square(shown)
            await bobs_screen.send(move(legal, 0))  # Black's move, sent by White
            assert refusal(await bobs_screen.recv()) == "It is not your turn."
            for frame, reason in (
                    (move("a1", 0), "a1 ist kein erlaubter Zug."),
                    (move("zz9", 0), "zz9 ist kein erlaubter Zug."),
                    (move("<b>x", 0), "&lt;b&gt;x ist kein erlaubter Zug."),  # escaped
                    (json.dumps({"move": legal}), "Der Zug kam ohne die Stellung, für die er gedacht war; "
                                                  "lade die Seite neu."),
                    (move(legal, "²"), "Der Zug kam ohne die Stellung, für die er gedacht war; lade die Seite neu."),
                    (move(legal, 7), "Die Partie ist weitergegangen; hier ist die aktuelle Stellung.")):
                await alices.send(frame)
                answer = await alices.recv()
                assert refusal(answer) == reason and ply_of(answer) == 0, frame
            # Frames that are no move at all are ignored, and the socket stays open.
            for frame in ("", "d3", "[1]", '{"move": 3}', "{" * 5000, json.dumps({"move": legal * 100})):
                await alices.send(frame)
            assert await message_after(alices) is None
            await alices.send(move(legal, 0))  # and then a real move is played
            assert ply_of(await alices.recv()) == 1
            assert await message_after(bobs_screen, 5) is not None

    asyncio.run(story())
    game.refresh_from_db()
    assert game.ply == 1 and game.moves.count() == 1


def test_the_seat_is_checked_against_the_session_as_it_is_when_the_move_comes(live_site):
    """A visitor watching a public table sits down as a guest: the socket they opened
    before moves for them. Alice signs out in another tab: her open socket moves no more."""
    alice = make_user("alice")
    table = actions.open_table(alice, Variant(board="6x6"), level="easy", listed=True)  # Alice: Black
    game = table.game
    visitor = SessionStore()
    visitor.create()
    url = live_site.url.replace("http://", "ws://") + f"/ws/page/?game={game.public_id}"
    alices = Player(alice, live_site)

    async def story():
        async with websockets.connect(url, origin=live_site.url,
                                      additional_headers={"Cookie": f"sessionid={visitor.session_key}"}) as guests, \
                alices.socket(game) as alices_screen:
            await guests.recv()
            await alices_screen.recv()
            await asyncio.to_thread(sit_as_guest, table, visitor)  # what the guest form does
            shown = await playing_state(alices_screen)
            await alices_screen.send(move(legal_square(shown), 0))
            shown = await state_at(guests, 1)
            await guests.send(move(legal_square(shown), 1))
            answer = await state_at(guests, 2)
            assert refusal(answer) is None

            await asyncio.to_thread(lambda: SessionStore(session_key=alices.session).delete())  # signed out
            shown = await state_at(alices_screen, 2)
            await alices_screen.send(move(legal_square(shown), 2))
            assert refusal(await alices_screen.recv()) == "It is not your turn."

    asyncio.run(story())
    game.refresh_from_db()
    assert game.ply == 2 and [m.colour for m in game.moves.order_by("ply")] == ["black", "white"]


def sit_as_guest(table, session):
    """What the guest form does: a guest token in the visitor's session, and the seat."""
    session[GUEST_TOKEN_KEY] = "a-guest-token-of-this-visitor"
    session.save()
    actions.join(table, Viewer(guest_token=session[GUEST_TOKEN_KEY]), guest_name="Gus")


async def playing_state(socket):
    while True:
        html = await asyncio.wait_for(socket.recv(), timeout=10)
        if 'data-status="playing"' in html:
            return html
