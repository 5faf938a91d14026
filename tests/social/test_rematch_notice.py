"""A finished game's player asks for a rematch: the other players get a notification on
the bell that links to the table, once, however often the button is pressed; a player
who blocked the asker is not told."""
import pytest
from django.test import TestCase

from games.access import Viewer
from lobby import rematch
from social import notifications, relations
from social.models import Notification
from tests.accounts.rated_play import play, rated_table

pytestmark = pytest.mark.django_db


def asked(table, user, game):
    # The notification is made after the rematch's commit, as in a request.
    with TestCase.captureOnCommitCallbacks(execute=True):
        rematch.accept(table, Viewer(user=user), game.public_id)


def test_the_others_are_told_once_and_the_notice_links_to_the_table(alice, bob, carol):
    table = rated_table(alice, bob, carol, board="8x8", players=3, rated=False)
    old = play(table.game)
    asked(table, alice, old)
    asked(table, alice, old)  # a double click
    asked(table, bob, old)  # a second acceptance asks nobody again
    for person in (bob, carol):
        [notice] = Notification.objects.filter(user=person)
        assert notice.kind == Notification.Kind.REMATCH and notice.url == table.get_absolute_url()
        assert notifications.text_of(notice) == "A rematch is offered at your table."
    assert not Notification.objects.filter(user=alice).exists()


def test_a_player_who_blocked_the_asker_is_not_told(alice, bob):
    table = rated_table(alice, bob, rated=False)
    old = play(table.game)
    relations.block(bob, alice)
    asked(table, alice, old)
    assert not Notification.objects.filter(kind=Notification.Kind.REMATCH).exists()
