"""The admin: every model of ours has a list page that staff can read, and nobody can
add, change or delete a row there (but for a moderator's message: staff add a
notification, tests/social/test_pages.py)."""
import pytest
from django.contrib import admin
from django.urls import reverse

from accounts.models import LoginThrottle
from chat.models import ChatSetting, Message, Mute, Report, Silence
from games.models import GameAnalysis
from games import Variant, events
from games.models import Game
from lobby.models import Rematch
from social import challenges, preferences, relations
from social.models import Notification
from tests.accounts.rated_play import play, rated_table
from tests.people import make_user, signed_in

pytestmark = pytest.mark.django_db

OURS = ("games", "lobby", "accounts", "chat", "social")
ADDED_BY_STAFF = {Notification}


def our_models():
    from django.apps import apps

    return [model for label in OURS for model in apps.get_app_config(label).get_models()]


@pytest.fixture
def rows(alice, bob):
    """One row at least in each table of ours, made the way the site makes them."""
    table = rated_table(alice, bob)
    game = play(table.game)
    Rematch.objects.create(table=table, game=game)
    GameAnalysis.objects.create(game=game, total=game.ply)
    events.record_state(game)  # as each change's push stores it, after commit
    LoginThrottle.objects.create(key="0" * 64, failures=1, window_start=game.finished_at)
    message = Message.objects.create(game=game, room="players", author=bob, author_name="Bob", text="gg alice")
    Report.objects.create(message=message, reporter=alice, reason="abuse")
    Mute.objects.create(muter=alice, muted=bob)
    Silence.objects.create(user=bob)
    ChatSetting.objects.create(user=alice, chat_on=False)
    carol, dave = make_user("carol", "Carol"), make_user("dave", "Dave")
    relations.follow(alice, bob)
    relations.block(carol, dave)
    challenges.send(alice, carol, Variant(), time_control=(Game.TimeControl.MOVE, 0, 0), colour="random",
                    rated=False)  # notifies Carol
    preferences.save(alice, mail_challenges=True)
    return game


def test_every_model_of_ours_is_registered():
    assert [m for m in our_models() if not admin.site.is_registered(m)] == []


def test_staff_see_every_list_and_each_row_but_cannot_add_change_or_delete(rows):
    staff = make_user("sam", "Sam")
    staff.is_staff = True
    staff.save()
    client = signed_in(staff)
    for model in our_models():
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        row = model.objects.first()
        assert row is not None, model
        listing = client.get(reverse(f"{name}_changelist"))
        assert listing.status_code == 200, model
        assert reverse(f"{name}_change", args=[row.pk]) in listing.content.decode(), model
        if admin.site.get_model_admin(model).search_fields:
            assert client.get(reverse(f"{name}_changelist"), {"q": "alice"}).status_code == 200, model
        page = client.get(reverse(f"{name}_change", args=[row.pk]))
        assert page.status_code == 200 and 'name="_save"' not in page.content.decode(), model
        if model not in ADDED_BY_STAFF:
            assert client.get(reverse(f"{name}_add")).status_code == 403, model
        assert client.post(reverse(f"{name}_change", args=[row.pk]), {}).status_code == 403, model
        assert client.post(reverse(f"{name}_delete", args=[row.pk]), {"post": "yes"}).status_code == 403, model
        assert model.objects.filter(pk=row.pk).exists(), model


def test_a_player_who_is_not_staff_is_sent_to_sign_in(rows, alice):
    response = signed_in(alice).get(reverse("admin:games_game_changelist"))
    assert response.status_code == 302 and reverse("admin:login") in response["Location"]
