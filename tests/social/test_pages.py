"""The pages around people: follow and block buttons on a player page, the bell's page
(the last 100, read once seen), a moderator's message sent from the admin, the
settings on the profile page; in German too."""
import pytest
from django.urls import reverse

from social import notifications, relations
from social.models import Follow, Notification, Preferences
from tests.people import make_user, signed_in

pytestmark = pytest.mark.django_db


def test_alice_follows_bob_twice_then_unfollows_and_blocks_him(alice, bob):
    client = signed_in(alice)
    for _ in range(2):  # a double click follows once
        assert client.post(reverse("social:follow", args=["bob"])).status_code == 302
    assert Follow.objects.filter(follower=alice, followed=bob).count() == 1
    page = client.get(reverse("player", args=["bob"]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'id="unfollow"' in page and "Nicht mehr folgen" in page and 'id="challenge"' in page
    client.post(reverse("social:block", args=["bob"]))
    assert not Follow.objects.exists() and relations.blocks(alice, bob)
    page = client.get(reverse("player", args=["bob"])).content.decode()
    assert f'<a href="{reverse("social:friends")}"' in page  # Friends in the header
    assert 'id="unblock"' in page and 'id="challenge"' not in page and 'id="follow"' not in page
    assert client.get(reverse("social:follow", args=["bob"])).status_code == 405  # only POST, with CSRF


def test_a_visitor_sees_no_buttons_and_is_sent_to_sign_in(bob):
    from django.test import Client

    page = Client().get(reverse("player", args=["bob"])).content.decode()
    assert 'id="follow"' not in page and "online-state" not in page  # presence is for signed-in people
    assert f'href="{reverse("social:friends")}"' not in page  # no Friends in a visitor's header
    assert Client().post(reverse("social:follow", args=["bob"])).status_code == 302
    assert not Follow.objects.exists()


def test_the_bells_page_lists_the_last_hundred_and_marks_them_read(alice):
    for number in range(105):
        notifications.moderator_message(alice.pk, f"message {number}")
    client = signed_in(alice)
    home = client.get("/").content.decode()
    assert 'data-count="105"' in home
    page = client.get(reverse("social:notifications"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert page.count('class="notification unread"') == 100 and "message 104" in page and "message 4<" not in page
    assert "Benachrichtigungen" in page
    assert 'data-count=' not in client.get("/").content.decode()


def test_staff_send_a_moderators_message_from_the_admin(alice):
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    answer = signed_in(staff).post(reverse("admin:social_notification_add"),
                                   {"user": alice.pk, "text": "Please be kind at the tables."})
    assert answer.status_code == 302
    message = Notification.objects.get(user=alice)
    assert message.kind == Notification.Kind.MODERATOR and notifications.text_of(message) == message.text


def test_settings_on_the_profile_page_are_saved(alice):
    client = signed_in(alice)
    page = client.get(reverse("profile"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "E-Mail und Herausforderungen" in page
    client.post(reverse("social:settings"), {"mail_challenges": "on", "challenge_boards": ["8x8", "6x6"]})
    prefs = Preferences.objects.get(user=alice)
    assert prefs.mail_challenges and not prefs.mail_your_turn and prefs.challenge_boards == ["8x8", "6x6"]
    client.post(reverse("social:settings"), {"challenge_boards": ["nonsense"]})
    assert Preferences.objects.get(user=alice).challenge_boards == ["8x8", "6x6"]  # refused, nothing changed


def test_staff_read_every_social_list_and_write_only_moderators_messages(alice, bob):
    from django.apps import apps
    from django.contrib import admin

    from games.models import Game
    from social import challenges
    from games.creation import build_variant

    relations.follow(alice, bob)
    relations.block(bob, make_user("carol"))
    challenges.send(alice, bob, build_variant(board="8x8", players=2), time_control=(Game.TimeControl.MOVE, 0, 0),
                    colour="black", rated=False)
    Preferences.objects.create(user=alice)
    staff = make_user("sam")
    staff.is_staff = True
    staff.save()
    client = signed_in(staff)
    for model in apps.get_app_config("social").get_models():
        assert admin.site.is_registered(model), model
        name = f"admin:social_{model._meta.model_name}"
        row = model.objects.first()
        assert client.get(reverse(f"{name}_changelist")).status_code == 200, model
        assert client.post(reverse(f"{name}_delete", args=[row.pk]), {"post": "yes"}).status_code == 403, model
        if model is not Notification:
            assert client.get(reverse(f"{name}_add")).status_code == 403, model
