"""Reports, staff decisions, mutes, the chat switch and the review's players' chat,
through the site's pages as a person and a moderator use them (Django's test client,
CSRF checks on)."""
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat import moderation, posting, preferences
from chat.models import ChatSetting, Message, Mute, Report, Silence
from games.access import Viewer
from lobby.models import Table
from tests.accounts.rated_play import play, rated_table
from tests.people import make_user

pytestmark = pytest.mark.django_db


def csrf_client(user=None):
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client


def post_with_csrf(client, url, data, page="/chat/settings/", **extra):
    client.get(page)
    return client.post(url, {**data, "csrfmiddlewaretoken": client.cookies["csrftoken"].value}, **extra)


def htmx_post(client, url, data):
    client.get("/chat/settings/")
    return client.post(url, data, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


@pytest.fixture
def table(alice, bob):
    return rated_table(alice, bob, rated=False)


def say(table, user, text):
    return posting.post(table.game, Viewer(user=user), text=text)


def test_a_report_is_one_click_and_a_reason_and_counts_once(table, alice, bob):
    message = say(table, bob, "you are bad at this")
    client = csrf_client(alice)
    answer = htmx_post(client, reverse("chat_report", args=[message.pk]), {"reason": "abuse"})
    assert answer.status_code == 200 and "Reported. Thank you." in answer.content.decode()
    htmx_post(client, reverse("chat_report", args=[message.pk]), {"reason": "abuse"})  # a double click
    assert Report.objects.filter(message=message).count() == 1
    refused = htmx_post(client, reverse("chat_report", args=[message.pk]), {"reason": "because"})
    assert Report.objects.count() == 1 and refused.status_code in (200, 400)


def test_a_spectator_cannot_reach_the_players_messages_during_the_game(table, bob, carol):
    message = say(table, bob, "secret plan")
    assert htmx_post(csrf_client(carol), reverse("chat_report", args=[message.pk]), {"reason": "spam"}).status_code == 404
    assert htmx_post(csrf_client(carol), reverse("chat_mute", args=[message.pk]), {}).status_code == 404
    assert not Report.objects.exists() and not Mute.objects.exists()


def test_without_javascript_a_report_asks_for_the_reason_on_a_page_of_its_own(table, alice, bob):
    message = say(table, bob, "<b>spam</b> http://spam.example")
    client = csrf_client(alice)
    page = client.get(reverse("chat_report", args=[message.pk]), {"reason": "spam"})
    html = page.content.decode()
    assert "&lt;b&gt;spam&lt;/b&gt;" in html and 'href="http://spam.example"' not in html
    answer = post_with_csrf(client, reverse("chat_report", args=[message.pk]),
                            {"reason": "spam", "next": table.get_absolute_url()})
    assert answer.status_code == 302 and answer.url == table.get_absolute_url()
    assert Report.objects.get().reason == "spam"


def test_staff_see_the_report_with_its_context_and_three_upheld_in_a_week_silence_for_a_day(table, alice, bob):
    staff = make_user("sam", "Sam")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    say(table, alice, "hi Bob")
    reported = [say(table, bob, f"insult {n}") for n in range(4)]
    for message in reported:
        moderation.report(message, alice, "abuse")
    admin = csrf_client(staff)
    report = Report.objects.get(message=reported[1])
    page = admin.get(reverse("admin:chat_report_change", args=[report.pk])).content.decode()
    assert "hi Bob" in page and "<strong>Bob: insult 1</strong>" in page and "insult 2" in page

    listing = reverse("admin:chat_report_changelist")
    ids = [str(pk) for pk in Report.objects.filter(message__in=reported[:3]).values_list("pk", flat=True)]
    post_with_csrf(admin, listing, {"action": "uphold", "_selected_action": ids}, page=listing)
    assert Message.objects.filter(pk__in=[m.pk for m in reported[:3]], deleted_at=None).count() == 0
    silence = Silence.objects.get(user=bob)
    assert silence.automatic and timedelta(hours=23) < silence.until - timezone.now() <= timedelta(days=1)
    moderation.decide(Report.objects.get(message=reported[3]).pk, True, staff)  # a fourth: still one silence
    assert Silence.objects.filter(user=bob).count() == 1
    with pytest.raises(posting.ChatRefusal, match="three of your messages"):
        say(table, bob, "let me speak")


def test_old_upheld_reports_do_not_add_up_to_a_silence(table, alice, bob):
    staff = make_user("sam", "Sam")
    for n in range(3):
        moderation.report(say(table, bob, f"rude {n}"), alice, "abuse")
    first, *rest = Report.objects.order_by("id")
    moderation.decide(first.pk, True, staff)
    Report.objects.filter(pk=first.pk).update(decided_at=timezone.now() - timedelta(days=8))
    for report in rest:
        moderation.decide(report.pk, True, staff)
    assert not Silence.objects.exists()


def test_a_mute_is_for_good_and_undone_on_the_settings_page(table, alice, bob):
    message = say(table, bob, "blah")
    client = csrf_client(alice)
    assert htmx_post(client, reverse("chat_mute", args=[message.pk]), {}).status_code == 204
    htmx_post(client, reverse("chat_mute", args=[message.pk]), {})
    assert Mute.objects.filter(muter=alice, muted=bob).count() == 1
    assert "blah" not in client.get(table.get_absolute_url()).content.decode()
    assert "blah" in csrf_client(bob).get(table.get_absolute_url()).content.decode()  # for the muter only
    settings_page = client.get(reverse("chat_settings")).content.decode()
    assert "Bob" in settings_page
    post_with_csrf(client, reverse("chat_settings"), {"unmute": bob.pk})
    assert not Mute.objects.exists()
    assert "blah" in client.get(table.get_absolute_url()).content.decode()


def test_the_chat_switch_hides_every_chat_and_is_remembered(table, alice, bob):
    say(table, bob, "hello there")
    client = csrf_client(alice)
    post_with_csrf(client, reverse("chat_switch"), {"on": "0", "next": table.get_absolute_url()})
    assert ChatSetting.objects.get(user=alice).chat_on is False
    page = csrf_client(alice).get(table.get_absolute_url()).content.decode()  # another browser: still off
    assert "hello there" not in page and "Your chat is off" in page
    with pytest.raises(posting.ChatRefusal):
        posting.post(table.game, Viewer(user=alice), text="hi", chat_on=preferences.chat_on(alice, None))
    post_with_csrf(client, reverse("chat_switch"), {"on": "1"})
    assert "hello there" in client.get(table.get_absolute_url()).content.decode()


def test_without_javascript_the_form_posts_the_message_and_a_refusal_comes_back_on_the_page(table, alice):
    client = csrf_client(alice)
    url = reverse("chat_send", args=[table.code])
    answer = post_with_csrf(client, url, {"chat_text": "posted as a form"}, page=table.get_absolute_url())
    assert answer.status_code == 302 and Message.objects.get().text == "posted as a form"
    answer = post_with_csrf(client, url, {"chat_text": ""}, page=table.get_absolute_url())
    assert "Type a message first." in client.get(answer.url).content.decode()
    assert Message.objects.count() == 1
    assert Client(enforce_csrf_checks=True).post(url, {"chat_text": "no token"}).status_code == 403


def test_the_review_shows_the_players_chat_beside_the_moves_once_the_game_is_over(table, alice, bob, carol):
    say(table, alice, "good luck")
    posting.post(table.game, Viewer(user=carol), text="spectator remark")
    review = reverse("review", args=[table.game.public_id])
    assert "good luck" not in csrf_client(carol).get(review).content.decode()  # not during the game
    game = play(table.game)
    assert game.is_over
    html = csrf_client(carol).get(review).content.decode()
    assert 'id="review-chat"' in html and "good luck" in html and "before the first move" in html
    assert "spectator remark" not in html
    german = csrf_client(carol).get(review, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Chat der Spieler" in german


def test_a_rated_table_can_be_opened_with_chat_off_and_a_casual_one_cannot(alice):
    client = csrf_client(alice)
    form = {"board": "6x6", "players": "2", "seat": "black", "level": "normal", "time_control": "move",
            "blocked": "0", "handicap": "0"}
    post_with_csrf(client, reverse("table_new"), {**form, "rated": "on", "chat_off": "on"}, page=reverse("table_new"))
    assert Table.objects.get().players_chat is False
    answer = post_with_csrf(client, reverse("table_new"), {**form, "chat_off": "on"}, page=reverse("table_new"))
    assert answer.status_code == 400 and "Only a rated table can be opened with chat off." in answer.content.decode()
    assert Table.objects.count() == 1


def test_a_block_hides_the_chat_both_ways_and_unblocking_shows_it_again(table, alice, bob):
    from social import relations

    say(table, bob, "from bob")
    say(table, alice, "from alice")
    relations.block(alice, bob)
    assert "from bob" not in csrf_client(alice).get(table.get_absolute_url()).content.decode()
    assert "from alice" not in csrf_client(bob).get(table.get_absolute_url()).content.decode()
    relations.unblock(alice, bob)
    assert "from bob" in csrf_client(alice).get(table.get_absolute_url()).content.decode()
