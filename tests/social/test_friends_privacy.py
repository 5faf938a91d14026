"""What followers learn of a person's table: following needs no consent, so a table the
follower could not find by themselves (an unlisted table, its game not public) shows as
"at a private table", without its link or code, on the Friends page and in the bell's
"started a game"; a listed table or a public game keeps its link."""
import pytest
import redis as redis_py
from django.conf import settings
from django.urls import reverse

from games import Variant, endings, services
from games.access import Viewer
from games.models import Game
from lobby import actions
from social import relations
from social.friends import friends_of
from social.models import Notification
from tests.people import make_user, signed_in
from tests.presence_marks import page_open as socket_open

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def nobody_online():
    """Presence lives in Redis, outside the test database's rollback."""
    yield
    client = redis_py.Redis.from_url(settings.REDIS_URL)
    keys = list(client.scan_iter("reversi:online:*"))
    if keys:
        client.delete(*keys)
    client.close()


def table_at(stage, host, guest, listed):
    table = actions.open_table(host, Variant(board="6x6"), listed=listed)
    if stage in ("playing", "finished"):
        actions.join(table, Viewer(user=guest))
    if stage == "finished":
        endings.resign(Game.objects.get(pk=table.game_id), Viewer(user=guest))
    table.game.refresh_from_db()
    assert table.game.status == stage
    return table


def page_open(user, path):
    socket_open(user.pk, path, channel=f"specific.test!{user.pk}{path}")


@pytest.mark.parametrize(("stage", "listed", "state"), [
    ("waiting", False, "private"), ("waiting", True, "playing"),
    ("playing", False, "private"), ("playing", True, "playing"),
    ("finished", False, "private"), ("finished", True, "watching"),
])
def test_a_follower_gets_a_tables_link_only_if_they_could_watch_it_anyway(alice, bob, carol, stage, listed, state):
    relations.follow(alice, bob)
    table = table_at(stage, bob, carol, listed)
    page_open(bob, table.get_absolute_url())

    [row] = friends_of(alice)
    assert (row["state"], row["link"]) == (state, table.get_absolute_url() if listed else "")
    page = signed_in(alice).get(reverse("social:friends")).content.decode()
    if listed:
        assert f'href="{table.get_absolute_url()}"' in page
    else:
        assert "at a private table" in page and table.code not in page
        page = signed_in(alice).get(reverse("social:friends"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
        assert "an einem privaten Tisch" in page and table.code not in page


def test_a_shared_finished_game_and_a_follower_at_the_same_table_keep_the_link(alice, bob, carol):
    relations.follow(alice, bob)
    relations.follow(carol, bob)
    table = table_at("playing", bob, carol, listed=False)
    page_open(bob, table.get_absolute_url())
    assert friends_of(carol)[0]["link"] == table.get_absolute_url()  # she sits there herself
    assert friends_of(alice)[0]["link"] == ""

    endings.resign(Game.objects.get(pk=table.game_id), Viewer(user=carol))
    services.set_public(Game.objects.get(pk=table.game_id), Viewer(user=bob), True)
    [row] = friends_of(alice)
    assert (row["state"], row["link"]) == ("watching", table.get_absolute_url())


def test_playing_at_a_private_table_is_not_hidden_behind_a_listed_one_watched(alice, bob, carol):
    relations.follow(alice, bob)
    private = table_at("playing", bob, carol, listed=False)
    listed = table_at("playing", make_user("dave"), carol, listed=True)
    page_open(bob, listed.get_absolute_url())
    page_open(bob, private.get_absolute_url())
    [row] = friends_of(alice)
    assert (row["state"], row["link"]) == ("private", "")


@pytest.mark.parametrize("listed", [False, True])
def test_followers_hear_of_a_friends_game_only_if_they_may_watch_it(alice, bob, carol, listed,
                                                                   django_capture_on_commit_callbacks):
    relations.follow(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):  # the start's push, and what follows it
        table = table_at("playing", bob, carol, listed)
    told = list(Notification.objects.filter(user=alice).values_list("url", flat=True))
    assert told == ([table.get_absolute_url()] if listed else [])
