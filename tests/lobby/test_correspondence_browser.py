"""Correspondence as people meet it in Chromium, with real daphne and Celery: the player
to move is mailed their turn only while away from the site (with a page of it open
they are told there, by the page and the bell), and the table's line names no computer
taking over at the time limit, since none does in correspondence (docs/rules.md §11.3)."""
import time

import pytest
from playwright.sync_api import expect

from games import Variant
from games.access import Viewer
from games.models import Game
from games.services import play_move
from lobby import actions
from social.online import is_online
from tests.lobby.browser_people import LAPTOP, in_thread, person
from tests.people import make_user
from tests.servers import sent_mail

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def turn_mails_to(user):
    return [m for m in sent_mail() if m["To"] == user.email and m["Subject"].startswith("Your turn")]


def told(game_id, ply, seconds=15):
    """Until the turn mail's task has dealt with the turn at `ply`: it marks the game's
    `mailed_ply` whether it mailed or found the player told otherwise."""
    deadline = time.monotonic() + seconds
    while Game.objects.get(pk=game_id).mailed_ply != ply:
        assert time.monotonic() < deadline, f"the turn at ply {ply} was never dealt with"
        time.sleep(0.1)


def online(user, wanted, seconds=15):
    deadline = time.monotonic() + seconds
    while is_online(user.pk) != wanted:
        assert time.monotonic() < deadline, f"{user.username} never went {'on' if wanted else 'off'}line"
        time.sleep(0.1)


def move(game_id, user, ply):
    game = Game.objects.get(pk=game_id)
    play_move(game, game.board().legal_moves[0], expected_ply=ply, viewer=Viewer(user=user))


def test_a_player_with_the_table_open_gets_no_turn_mail_and_one_away_does(live_site, browser):
    # Names of their own: the mail of the whole test run is kept in one place.
    alice, bob = make_user("corinna", "Corinna"), make_user("konrad", "Konrad")
    errors = []
    table = in_thread(lambda: actions.open_table(alice, Variant(board="6x6"),
                                                 time_control=(Game.TimeControl.DAYS, 86400, 0)))
    page = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    page.goto(f"{live_site.url}/tables/{table.code}/")
    expect(page.locator(".table-meta")).to_contain_text("Days a move: 1")
    expect(page.locator(".table-meta")).not_to_contain_text("Computer")
    online(alice, True)

    in_thread(actions.join, table, Viewer(user=bob))  # Alice (Black) is to move, her table open
    told(table.game_id, 0)
    assert turn_mails_to(alice) == []

    page.context.close()
    online(alice, False)
    in_thread(move, table.game_id, alice, 0)  # Bob is to move, away
    told(table.game_id, 1)
    assert len(turn_mails_to(bob)) == 1
    in_thread(move, table.game_id, bob, 1)  # Alice is to move, away now
    told(table.game_id, 2)
    assert len(turn_mails_to(alice)) == 1
    assert errors == []
