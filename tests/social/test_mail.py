"""Mail when away: a correspondence turn's mail carries a one-click unsubscribe link
(a signed token) that works without signing in and stops the next ones; a challenge
is mailed only to people who opted in and are not online."""
import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.test import Client

from games import Variant
from games.access import Viewer
from games.models import Game
from games.services import build_variant, play_move
from games.tasks import turn_mail
from lobby import actions
from social import challenges, preferences, presence, unsubscribe
from social.mail import send_if_away
from social.models import Notification, Preferences
from tests.lobby.browser_people import in_thread

# The tests send the mail themselves: a live worker would take the queued turn mail first.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_workers_paused")]


def correspondence(alice, bob):
    table = in_thread(lambda: actions.open_table(alice, Variant(board="6x6"),
                                                 time_control=(Game.TimeControl.DAYS, 86400, 0)))
    in_thread(actions.join, table, Viewer(user=bob))
    return table


def test_the_turn_mail_unsubscribe_link_works_without_signing_in(alice, bob):
    table = correspondence(alice, bob)
    mail.outbox.clear()
    Game.objects.filter(pk=table.game_id).update(mailed_ply=None)
    assert turn_mail(table.game_id, 0)
    [message] = mail.outbox
    body = message.body
    link = re.search(r"http://\S+/social/unsubscribe/\S+/", body).group(0)
    assert message.extra_headers["List-Unsubscribe"] == f"<{link}>"
    assert Notification.objects.filter(user=alice, kind="turn").count() == 1  # told on the bell too

    answer = Client().get(urlsplit(link).path, HTTP_ACCEPT_LANGUAGE="de")
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


def test_a_forged_or_altered_token_changes_nothing(alice):
    good = unsubscribe.token(alice.pk, "turn")
    for bad in (good[:-2] + "xx", unsubscribe.token(alice.pk, "everything"), "nonsense"):
        assert Client().get(f"/social/unsubscribe/{bad}/").status_code == 400
    assert not Preferences.objects.filter(user=alice).exists()


def test_a_challenge_is_mailed_only_to_the_opted_in_who_are_away(alice, bob):
    sent = challenges.send(alice, bob, build_variant(board="8x8", players=2),
                           time_control=(Game.TimeControl.MOVE, 0, 0), colour="black", rated=False)
    notification = Notification.objects.get(user=bob)
    mail.outbox.clear()
    assert not send_if_away(notification.pk, "challenges")  # not opted in
    preferences.save(bob, mail_challenges=True)
    presence.arrive(bob.pk, presence.member("test-channel", "/"))
    assert not send_if_away(notification.pk, "challenges")  # online: told live
    presence.depart(bob.pk, presence.member("test-channel", "/"))
    assert send_if_away(notification.pk, "challenges")
    [message] = mail.outbox
    assert message.subject == "Alice challenges you: 8×8 · 2 players"
    assert f"/social/challenges/{sent.pk}/" in message.body and "/social/unsubscribe/" in message.body
