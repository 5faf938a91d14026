"""Mail when away: a correspondence turn's mail carries an unsubscribe link (a signed
token that lives LIFETIME) that works without signing in: it opens a page that asks
first (a mail scanner's GET changes nothing), whose button stops the next ones, as a
mail client's one-click POST does (List-Unsubscribe-Post, RFC 8058); a challenge is
mailed only to people who opted in and are not online."""
import re
import time
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.test import Client

from games import Variant
from games.access import Viewer
from games.models import Game
from games.creation import build_variant
from games.services import play_move
from games.tasks import turn_mail
from lobby import actions
from social import challenges, preferences, unsubscribe
from social.mail import send_if_away
from social.models import Notification, Preferences
from tests.lobby.browser_people import in_thread
from tests.presence_marks import page_closed, page_open

# The tests send the mail themselves: a live worker would take the queued turn mail first.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_workers_paused")]


def correspondence(alice, bob):
    table = in_thread(lambda: actions.open_table(alice, Variant(board="6x6"),
                                                 time_control=(Game.TimeControl.DAYS, 86400, 0)))
    in_thread(actions.join, table, Viewer(user=bob))
    return table


def confirm_page(client, link, language="en"):
    """The page a mail's unsubscribe link opens (GET: nothing changes) and its form's CSRF token."""
    answer = client.get(urlsplit(link).path, HTTP_ACCEPT_LANGUAGE=language)
    html = answer.content.decode()
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    return answer, html, found.group(1) if found else None


def test_the_turn_mail_unsubscribe_link_asks_first_and_works_without_signing_in(alice, bob):
    table = correspondence(alice, bob)
    mail.outbox.clear()
    Game.objects.filter(pk=table.game_id).update(mailed_ply=None)
    assert turn_mail(table.game_id, 0)
    [message] = mail.outbox
    body = message.body
    link = re.search(r"http://\S+/social/unsubscribe/\S+/", body).group(0)
    assert message.extra_headers["List-Unsubscribe"] == f"<{link}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert Notification.objects.filter(user=alice, kind="turn").count() == 1  # told on the bell too

    browser = Client(enforce_csrf_checks=True)
    answer, html, csrf = confirm_page(browser, link, "de")
    assert answer.status_code == 200 and csrf
    assert "Keine E-Mail mehr, wenn du in einer Fernpartie am Zug bist?" in html
    assert Preferences.objects.get_or_create(user=alice)[0].mail_your_turn  # a mail scanner's GET changes nothing

    answer = browser.post(urlsplit(link).path, {"csrfmiddlewaretoken": csrf}, HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 200
    assert "keine E-Mail mehr" in answer.content.decode()
    assert not Preferences.objects.get(user=alice).mail_your_turn

    game = Game.objects.get(pk=table.game_id)
    in_thread(play_move, game, game.board().legal_moves[0], expected_ply=0, viewer=Viewer(user=alice))
    game.refresh_from_db()
    mail.outbox.clear()
    preferences.save(bob, mail_your_turn=False)
    Game.objects.filter(pk=game.pk).update(mailed_ply=None)
    assert not turn_mail(game.pk, 1)  # Bob opted out too: nothing sent
    assert mail.outbox == []


def test_a_post_without_the_page_s_csrf_token_changes_nothing(alice):
    path = urlsplit(unsubscribe.link(alice.pk, "turn")).path
    assert Client(enforce_csrf_checks=True).post(path, {"confirm": "1"}).status_code == 403
    assert Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "Yes"}).status_code == 403
    assert Preferences.objects.get_or_create(user=alice)[0].mail_your_turn


def test_a_mail_client_s_one_click_unsubscribe_needs_no_csrf_token(alice):
    """RFC 8058: the mail client POSTs List-Unsubscribe=One-Click to the header's link."""
    preferences.save(alice, mail_challenges=True)
    path = urlsplit(unsubscribe.link(alice.pk, "challenges")).path
    answer = Client(enforce_csrf_checks=True).post(path, "List-Unsubscribe=One-Click",
                                                   content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200
    assert not Preferences.objects.get(user=alice).mail_challenges
    assert Preferences.objects.get(user=alice).mail_your_turn  # only the kind the link names


def test_a_link_older_than_its_lifetime_is_refused_in_the_page_s_language(alice):
    issued = time.time() - unsubscribe.LIFETIME.total_seconds() - 60
    expired = unsubscribe.token(alice.pk, "turn", issued=issued)
    fresh = unsubscribe.token(alice.pk, "turn", issued=issued + 120)
    for method in ("get", "post"):
        answer = getattr(Client(), method)(f"/social/unsubscribe/{expired}/", HTTP_ACCEPT_LANGUAGE="de")
        assert answer.status_code == 400
        assert "Dieser Link ist abgelaufen" in answer.content.decode()
        answer = Client().post(f"/social/unsubscribe/{expired}/", "List-Unsubscribe=One-Click",
                               content_type="application/x-www-form-urlencoded", HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 400 and "This link has expired" in answer.content.decode()
    assert Preferences.objects.get_or_create(user=alice)[0].mail_your_turn
    answer, _html, _csrf = confirm_page(Client(), f"/social/unsubscribe/{fresh}/")
    assert answer.status_code == 200  # a day short of its lifetime it still opens


def test_a_forged_or_altered_token_changes_nothing(alice):
    good = unsubscribe.token(alice.pk, "turn")
    for bad in (good[:-2] + "xx", unsubscribe.token(alice.pk, "everything"), "nonsense"):
        for method in ("get", "post"):
            answer = getattr(Client(), method)(f"/social/unsubscribe/{bad}/", HTTP_ACCEPT_LANGUAGE="de")
            assert answer.status_code == 400
            assert "Dieser Link ist ungültig" in answer.content.decode()
        answer = Client().post(f"/social/unsubscribe/{bad}/", "List-Unsubscribe=One-Click",
                               content_type="application/x-www-form-urlencoded")
        assert answer.status_code == 400
    assert not Preferences.objects.filter(user=alice).exists()


def test_a_challenge_is_mailed_only_to_the_opted_in_who_are_away(alice, bob):
    sent = challenges.send(alice, bob, build_variant(board="8x8", players=2),
                           time_control=(Game.TimeControl.MOVE, 0, 0), colour="black", rated=False)
    notification = Notification.objects.get(user=bob)
    mail.outbox.clear()
    assert not send_if_away(notification.pk, "challenges")  # not opted in
    preferences.save(bob, mail_challenges=True)
    page_open(bob.pk, "/")
    assert not send_if_away(notification.pk, "challenges")  # online: told live
    page_closed(bob.pk, "/")
    assert send_if_away(notification.pk, "challenges")
    [message] = mail.outbox
    assert message.subject == "Alice challenges you: 8×8 · 2 players"
    assert f"/social/challenges/{sent.pk}/" in message.body and "/social/unsubscribe/" in message.body
    link = re.search(r"http://\S+/social/unsubscribe/\S+/", message.body).group(0)
    assert message.extra_headers["List-Unsubscribe"] == f"<{link}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
