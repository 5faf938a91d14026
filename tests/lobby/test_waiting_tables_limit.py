"""A person has at most WAITING_TABLES_PER_PERSON tables waiting for players at once:
one more is refused, in the page's language, until one of theirs starts or closes; two
opened at the same moment never pass the limit together. A challenge's table starts at
once and waits for nobody: it is not counted."""
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
from django.db import connection
from django.urls import reverse

from games import Variant
from games.access import Viewer
from games.models import Game
from games.errors import GameError
from lobby import actions
from lobby.models import Table
from social import challenges
from tests.people import signed_in

pytestmark = pytest.mark.django_db
ENGLISH = "You have 3 tables waiting for players already"
GERMAN = "Du hast schon 3 Tische, die auf Mitspieler warten"


def open_by_form(client, **headers):
    return client.post(reverse("table_new"), {"board": "8x8", "players": 2, "blocked": 0, "handicap": 0,
                                              "handicap_colour": "white", "seat": "black", "level": "normal",
                                              "listed": "on"}, headers=headers)


def test_a_fourth_waiting_table_is_refused_in_the_pages_language_until_one_starts(alice, bob):
    client = signed_in(alice)
    for _ in range(3):
        assert open_by_form(client).status_code == 302
    refused = open_by_form(client)
    assert refused.status_code == 400 and ENGLISH in refused.content.decode()
    german = open_by_form(client, **{"Accept-Language": "de"})
    assert german.status_code == 400 and GERMAN in german.content.decode()
    assert Table.objects.filter(host=alice).count() == 3

    actions.join(Table.objects.filter(host=alice).first(), Viewer(user=bob))  # it starts: no longer waiting
    assert open_by_form(client).status_code == 302
    assert Table.objects.filter(host=alice).count() == 4


def test_a_challenge_accepted_opens_its_table_whatever_the_challenger_has_waiting(alice, bob):
    for _ in range(3):
        actions.open_table(alice, Variant(board="6x6"), listed=True)
    sent = challenges.send(alice, bob, Variant(board="8x8"), time_control=(Game.TimeControl.MOVE, 0, 0),
                           colour="black", rated=False)
    accepted = challenges.accept(sent.pk, bob)
    assert Table.objects.get(code=accepted.table_code).game.status == "playing"


@pytest.mark.django_db(transaction=True)
def test_two_tables_opened_at_the_same_moment_do_not_pass_the_limit_together(alice):
    for _ in range(2):
        actions.open_table(alice, Variant(board="6x6"), listed=True)
    both = Barrier(2)

    def open_one():
        try:
            both.wait()
            actions.open_table(alice, Variant(board="6x6"), listed=True)
            return "opened"
        except GameError as refused:
            return str(refused)
        finally:
            connection.close()

    with ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(lambda _n: open_one(), range(2)))
    assert outcomes.count("opened") == 1 and any(ENGLISH in outcome for outcome in outcomes)
    assert Table.objects.filter(host=alice).count() == 3


def test_tables_left_waiting_longer_than_the_lobby_lists_them_do_not_count(alice):
    from django.utils import timezone

    from lobby.listing import LOBBY_WAITING_FOR

    client = signed_in(alice)
    for _ in range(3):
        assert open_by_form(client).status_code == 302
    assert open_by_form(client).status_code == 400
    Table.objects.filter(host=alice).update(created_at=timezone.now() - LOBBY_WAITING_FOR)  # forgotten
    assert open_by_form(client).status_code == 302
