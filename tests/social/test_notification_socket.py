"""The notification socket every page of a signed-in person opens: the header's live
part on connect and whenever something happens to them, presence while it is open,
and nothing for visitors or foreign pages."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.models import Game
from games.creation import build_variant
from social import challenges, relations
from social.online import is_online
from social.friends import friends_of, shown_online
from tests.lobby.test_sockets import HOST, cookie_for
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
ORIGIN = (b"origin", b"http://127.0.0.1")


async def socket_of(user, page="/", origin=ORIGIN):
    headers = [HOST, origin] + ([await sync_to_async(cookie_for)(user)] if user else [])
    communicator = WebsocketCommunicator(application, f"/ws/page/?site=1&lang=en&path={page}", headers=headers)
    connected, _code = await communicator.connect(timeout=5)
    return communicator, connected


async def test_bob_sees_alices_challenge_arrive_live_and_goes_offline_when_his_page_closes():
    alice, bob = await sync_to_async(lambda: (make_user("alice", "Alice"), make_user("bob", "Bob")))()
    bobs_page, connected = await socket_of(bob, "/lobby/")
    assert connected
    first = await bobs_page.receive_from(timeout=5)
    assert 'id="bell"' in first and "challenges you" not in first
    assert await sync_to_async(is_online)(bob.pk)
    await sync_to_async(challenges.send)(alice, bob, build_variant(board="8x8", players=2),
                                         time_control=(Game.TimeControl.MOVE, 0, 0), colour="random", rated=False)
    pushed = await bobs_page.receive_from(timeout=5)
    assert "Alice challenges you" in pushed and 'data-count="1"' in pushed
    await bobs_page.disconnect()  # returns once the socket's disconnect (which marks him gone) has ended
    assert not await sync_to_async(is_online)(bob.pk)


async def test_presence_lists_friends_with_what_they_do_and_hides_across_a_block():
    alice, bob, carol = await sync_to_async(lambda: [make_user(n, n.title()) for n in ("alice", "bob", "carol")])()
    await sync_to_async(relations.follow)(alice, bob)
    await sync_to_async(relations.follow)(alice, carol)
    bobs_page, _ = await socket_of(bob, "/rules/")
    await bobs_page.receive_from(timeout=5)
    rows = await sync_to_async(friends_of)(alice)
    assert [(row["user"].username, row["state"]) for row in rows] == [("bob", "idle"), ("carol", "offline")]
    assert await sync_to_async(shown_online)(alice, bob)
    await sync_to_async(relations.block)(bob, alice)
    assert not await sync_to_async(shown_online)(alice, bob)
    assert await sync_to_async(friends_of)(alice) == [{"user": carol, "state": "offline", "link": ""}]
    await bobs_page.disconnect()


async def test_a_visitor_gets_the_site_stream_alone_and_a_foreign_page_no_socket():
    bob = await sync_to_async(make_user)("bob")
    visitor, connected = await socket_of(None)
    assert connected  # a visitor's site stream: the announcements only
    await visitor.disconnect()
    foreign, connected = await socket_of(bob, origin=(b"origin", b"http://evil.example"))
    assert not connected
    assert not await sync_to_async(is_online)(bob.pk)


async def test_a_signed_in_page_still_gets_the_sites_announcements():
    from lobby.announcements import announce_now

    bob = await sync_to_async(make_user)("bob")
    page, _ = await socket_of(bob)
    await page.receive_from(timeout=5)
    await sync_to_async(announce_now)("The site restarts in five minutes")
    assert "The site restarts in five minutes" in await page.receive_from(timeout=5)
    await page.disconnect()


async def test_followers_hear_once_that_a_friend_started_a_game():
    from games import Variant
    from games.access import Viewer
    from lobby import actions
    from social.models import Notification

    alice, bob, carol = await sync_to_async(lambda: [make_user(n, n.title()) for n in ("alice", "bob", "carol")])()
    await sync_to_async(relations.follow)(alice, bob)
    alices_page, _ = await socket_of(alice)
    await alices_page.receive_from(timeout=5)

    def bob_and_carol_sit_down():
        table = actions.open_table(bob, Variant(board="6x6"), listed=True)
        actions.join(table, Viewer(user=carol))
        return table
    table = await sync_to_async(bob_and_carol_sit_down)()
    pushed = await alices_page.receive_from(timeout=5)
    assert 'data-count="1"' in pushed
    told = await sync_to_async(lambda: list(Notification.objects.filter(user=alice)))()
    assert [(n.kind, n.url) for n in told] == [("friend", f"/tables/{table.code}/")]
    assert await sync_to_async(Notification.objects.filter(user__in=[bob, carol]).count)() == 0
    await alices_page.disconnect()
