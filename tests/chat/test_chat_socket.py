"""Chat over the table page's socket, in-process (the real ASGI application: origin
check, session auth, the session's Redis as channel layer): the two rooms kept apart,
what a forged frame can do (nothing), refusals that store nothing, and mutes and
deletions reaching open pages."""
import json

import pytest
from asgiref.sync import sync_to_async

from chat import moderation, preferences
from chat.models import Message
from games import Variant
from games.access import Viewer
from lobby import actions
from tests.lobby.test_sockets import ORIGIN, connect, cookie_for, receive_until
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@sync_to_async
def playing_table(listed=True, players_chat=True, rated=False):
    alice, bob, carol = make_user("alice", "Alice"), make_user("bob", "Bob"), make_user("carol", "Carol")
    table = actions.open_table(alice, Variant(board="6x6"), listed=listed, rated=rated, players_chat=players_chat)
    actions.join(table, Viewer(user=bob))  # the last seat: the game starts
    return table, alice, bob, carol


async def page(table, user=None, lang="en"):
    headers = [ORIGIN] + ([await sync_to_async(cookie_for)(user)] if user is not None else [])
    communicator, connected, _ = await connect(f"/ws/page/?table={table.code}&lang={lang}", *headers)
    assert connected
    await receive_until(communicator, 'id="chat-rooms"')
    return communicator


async def say(communicator, text=None, phrase=None, **forged):
    frame = {"chat_phrase": phrase} if phrase is not None else {"chat_text": text}
    await communicator.send_to(text_data=json.dumps({**frame, **forged}))
    return await receive_until(communicator, 'id="chat-notice"')


async def everything_until(communicator, text):
    """Every message this page gets until one containing `text`, joined."""
    seen = []
    while True:
        html = await communicator.receive_from(timeout=5)
        seen.append(html)
        if text in html:
            return "".join(seen)


async def test_players_and_spectators_chat_in_rooms_apart_while_the_game_is_on():
    table, alice, bob, carol = await playing_table()
    alice_page, bob_page, carol_page = await page(table, alice), await page(table, bob), await page(table, carol)

    assert 'data-sent="true"' in await say(alice_page, "Good luck, Bob!")
    await receive_until(bob_page, "Good luck, Bob!")
    await say(carol_page, "Black should take the corner")
    seen_by_carol = await everything_until(carol_page, "Black should take the corner")
    assert "Good luck, Bob!" not in seen_by_carol  # the spectator never gets the players' message
    await say(bob_page, "Thanks, you too")
    seen_by_alice = await everything_until(alice_page, "Thanks, you too")
    assert "corner" not in seen_by_alice  # nor a player the spectators' (nobody is coached)
    rooms = await sync_to_async(lambda: dict(Message.objects.values_list("text", "room")))()
    assert rooms == {"Good luck, Bob!": "players", "Black should take the corner": "spectators",
                     "Thanks, you too": "players"}
    for communicator in (alice_page, bob_page, carol_page):
        await communicator.disconnect()


async def test_a_forged_frame_posts_as_the_sessions_person_in_their_own_room_only():
    table, alice, bob, carol = await playing_table()
    carol_page = await page(table, carol)
    bob_page = await page(table, bob)
    alice_id = await sync_to_async(lambda: alice.pk)()
    await say(carol_page, "I am Alice", author=alice_id, author_id=alice_id, room="players", table="X", game=1)
    message = await sync_to_async(Message.objects.get)(text="I am Alice")
    assert (message.author_id, message.room, message.author_name) == (carol.pk, "spectators", "Carol")
    await say(bob_page, "only players read this")  # Bob's page gets his own message, never Carol's forgery
    assert "I am Alice" not in await everything_until(bob_page, "only players read this")
    await carol_page.disconnect()
    await bob_page.disconnect()


async def test_nobody_chats_into_a_private_table_they_are_not_at():
    table, alice, bob, carol = await playing_table(listed=False)
    headers = [ORIGIN, await sync_to_async(cookie_for)(carol)]
    stranger, connected, _ = await connect(f"/ws/page/?table={table.code}", *headers)
    if connected:  # accepted, then closed at once: no table, no chat
        output = await stranger.receive_output(timeout=5)
        assert output["type"] == "websocket.close"
        await stranger.send_to(text_data=json.dumps({"chat_text": "let me in"}))
    assert not await sync_to_async(Message.objects.exists)()


async def test_refused_messages_are_told_in_place_in_the_pages_language_and_store_nothing():
    table, alice, bob, carol = await playing_table()
    alice_page = await page(table, alice, lang="de")
    assert "Schreib zuerst eine Nachricht." in await say(alice_page, "   ")
    assert "höchstens 280 Zeichen" in await say(alice_page, "x" * 281)
    assert "Steuerzeichen" in await say(alice_page, "hi\x00\x07\x1b[2J")
    assert not await sync_to_async(Message.objects.exists)()
    for n in range(5):
        assert 'data-sent="true"' in await say(alice_page, f"message {n}")
    refusal = await say(alice_page, "one too many")
    assert "Du schreibst zu schnell" in refusal and 'data-sent' not in refusal
    assert await sync_to_async(Message.objects.count)() == 5
    await alice_page.disconnect()


async def test_script_in_chat_reaches_the_other_page_as_text():
    table, alice, bob, carol = await playing_table()
    alice_page, bob_page = await page(table, alice), await page(table, bob)
    await say(alice_page, '<script>alert(1)</script><img src=x onerror=alert(2)> https://evil.example')
    html = await receive_until(bob_page, "alert(1)")
    assert "<script>" not in html and "<img" not in html and "&lt;script&gt;" in html
    assert "href" not in html.split("chat-text", 1)[1].split("</span>", 1)[0]  # no link made
    await alice_page.disconnect()
    await bob_page.disconnect()


async def test_a_guest_sends_phrases_only_and_each_reader_sees_them_in_their_language():
    alice = await sync_to_async(make_user)("alice", "Alice")
    table = await sync_to_async(actions.open_table)(alice, Variant(board="6x6"), listed=True)
    guest_client = await sync_to_async(__import__("django.test", fromlist=["Client"]).Client)()
    await sync_to_async(guest_client.post)(f"/tables/{table.code}/guest/", {"name": "Gus"})
    guest_cookie = (b"cookie", f"sessionid={guest_client.cookies['sessionid'].value}".encode())
    guest, connected, _ = await connect(f"/ws/page/?table={table.code}&lang=en", ORIGIN, guest_cookie)
    assert connected
    await receive_until(guest, 'id="chat-rooms"')
    alice_page = await page(table, alice, lang="de")
    assert "Sign in to write your own" in await say(guest, "buy cheap stuff")
    assert 'data-sent="true"' in await say(guest, phrase="good_luck")
    html = await receive_until(alice_page, "Viel Glück")
    assert "Gus" in html
    message = await sync_to_async(Message.objects.get)()
    assert (message.phrase, message.text, message.author_id, message.room) == ("good_luck", "", None, "players")
    assert "Choose one of the phrases" in await say(guest, phrase="<b>hi</b>")
    await guest.disconnect()
    await alice_page.disconnect()


async def test_a_deleted_message_vanishes_and_a_mute_hides_its_author_for_the_muter_only():
    table, alice, bob, carol = await playing_table()
    alice_page, bob_page = await page(table, alice), await page(table, bob)
    await say(bob_page, "rude words")
    await receive_until(alice_page, "rude words")
    message = await sync_to_async(Message.objects.get)(text="rude words")
    await sync_to_async(moderation.delete_message)(message.pk)
    deletion = await receive_until(alice_page, f'id="chat-message-{message.pk}"')
    assert 'hx-swap-oob="delete"' in deletion

    await sync_to_async(preferences.mute)(alice, bob)
    panel = await receive_until(alice_page, 'id="chat-rooms"')  # Alice's rooms again, without Bob
    assert "rude words" not in panel
    await say(bob_page, "can you hear me")
    await say(alice_page, "quiet now")
    assert "can you hear me" not in await everything_until(alice_page, "quiet now")
    assert "quiet now" in await everything_until(bob_page, "quiet now")  # Bob still reads Alice
    await alice_page.disconnect()
    await bob_page.disconnect()


async def test_a_silenced_account_reads_but_cannot_write():
    table, alice, bob, carol = await playing_table()
    alice_page = await page(table, alice)
    await sync_to_async(moderation.silence_account)(alice.pk, None)
    assert "silenced your account" in await receive_until(alice_page, 'id="chat-silenced"')
    assert "silenced your account" in await say(alice_page, "let me talk")
    assert not await sync_to_async(Message.objects.exists)()
    await alice_page.disconnect()


async def test_a_rated_table_opened_with_chat_off_has_no_players_chat():
    table, alice, bob, carol = await playing_table(rated=True, players_chat=False)
    alice_page = await page(table, alice)
    assert "chat is off at this table" in await say(alice_page, "hello?")
    carol_page = await page(table, carol)
    assert 'data-sent="true"' in await say(carol_page, "spectators still talk")
    assert await sync_to_async(Message.objects.count)() == 1
    await alice_page.disconnect()
    await carol_page.disconnect()


async def test_once_the_game_is_over_the_spectators_read_the_players_chat_too():
    from tests.accounts.rated_play import play

    table, alice, bob, carol = await playing_table()
    alice_page, carol_page = await page(table, alice), await page(table, carol)
    await say(alice_page, "may the best win")
    await sync_to_async(play)(table.game)
    rooms = await receive_until(carol_page, 'id="chat-log-players"')  # the finished game's rooms, both
    assert "may the best win" in rooms and 'id="chat-log-spectators"' in rooms
    await say(carol_page, "well played both")
    assert "well played both" in await everything_until(alice_page, "well played both")
    await alice_page.disconnect()
    await carol_page.disconnect()
