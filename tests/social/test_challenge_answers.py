"""The answer to a challenge in its challenger's header: shown until they have seen it.
The first page that shows it says so; the pages that showed it keep it, pages opened
after that do not. An accepted challenge is not shown at the table it points to, and
reaching that table counts as having seen it."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import Variant
from games.models import Game
from social import challenges
from social.live import live_context
from tests.people import signed_in

pytestmark = pytest.mark.django_db


def challenge(challenger, challenged):
    return challenges.send(challenger, challenged, Variant(board="8x8"), time_control=(Game.TimeControl.MOVE, 0, 0),
                           colour="black", rated=False)


def answers(user, page="/", opened=None):
    return [(item["challenge"].pk, item["status"]) for item in live_context(user, page, opened)["answered"]]


def test_a_declined_challenge_is_shown_until_seen_then_only_on_the_pages_that_showed_it(alice, bob):
    sent = challenge(alice, bob)
    lobby_opened = timezone.now()
    challenges.decline(sent.pk, bob)
    assert answers(alice, "/lobby/", lobby_opened) == [(sent.pk, "declined")]  # pushed to the open lobby page
    client = signed_in(alice)
    assert client.post(reverse("social:answer_seen", args=[sent.pk])).status_code == 204  # the lobby page showed it
    assert answers(alice, "/lobby/", lobby_opened) == [(sent.pk, "declined")]  # kept where it was seen
    assert answers(alice, "/play/") == []  # a page opened later: gone
    assert "declined your challenge" not in client.get(reverse("play")).content.decode()


def test_seen_is_the_challengers_to_say_and_an_open_challenge_is_not_seen_before_its_answer(alice, bob, carol):
    sent = challenge(alice, bob)
    assert signed_in(carol).post(reverse("social:answer_seen", args=[sent.pk])).status_code == 204
    assert signed_in(alice).post(reverse("social:answer_seen", args=[sent.pk])).status_code == 204
    assert signed_in(alice).get(reverse("social:answer_seen", args=[sent.pk])).status_code == 405
    challenges.decline(sent.pk, bob)
    assert answers(alice) == [(sent.pk, "declined")]  # neither marked it before it was answered


def test_an_accepted_challenge_is_not_shown_at_its_table_and_reaching_the_table_sees_it(alice, bob):
    sent = challenge(bob, alice)
    challenges.accept(sent.pk, alice)
    sent.refresh_from_db()
    table = reverse("table", args=[sent.table_code])
    assert answers(bob, "/rules/") == [(sent.pk, "accepted")]
    assert answers(bob, table) == []
    client = signed_in(bob)
    page = client.get(table).content.decode()
    assert "accepted your challenge" not in page
    assert answers(bob, "/lobby/") == []  # he was at the table
    assert answers(bob, "/rules/", timezone.now() - timedelta(minutes=1)) == [(sent.pk, "accepted")]
