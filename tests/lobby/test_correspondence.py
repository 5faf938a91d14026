"""Correspondence at tables on the live site (daphne, a Celery worker, Redis): the player
to move gets one e-mail a turn, sent by the worker after commit (read from the file the
worker's mail backend writes, tests/servers.py); days that run out lose the game, made by
the worker's clock from the deadline in the database."""
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import Variant
from games.access import Viewer
from games.models import Game
from games.services import play_move
from lobby import actions
from tests import servers
from tests.lobby.browser_people import in_thread
from tests.people import make_user
from tests.servers import sent_mail

pytestmark = pytest.mark.django_db(transaction=True)


def mail_to(address):
    return [message for message in sent_mail() if message["To"] == address]


def eventually(check, seconds=10):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return check()


def test_one_mail_a_turn_and_the_days_run_out(live_site):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    table = actions.open_table(alice, Variant(board="6x6"), time_control=(Game.TimeControl.DAYS, 86400, 0))
    actions.join(table, Viewer(user=bob))
    game = Game.objects.get(pk=table.game_id)
    assert eventually(lambda: len(mail_to("alice@example.com")) == 1)
    message = mail_to("alice@example.com")[0]
    assert message["Subject"] == "Your turn: 6×6 · 2 players"
    body = message.get_content()
    assert f"/tables/{table.code}/" in body and "It is your turn (Black)" in body
    game = play_move(game, game.board().legal_moves[0], expected_ply=0, viewer=Viewer(user=alice))
    assert eventually(lambda: len(mail_to("bob@example.com")) == 1)
    play_move(game, game.board().legal_moves[0], expected_ply=1, viewer=Viewer(user=bob))
    assert eventually(lambda: len(mail_to("alice@example.com")) == 2)
    # Alice lets her day run out (the test moves the deadline into the past): she loses on
    # time (before her first move the game would be aborted: tests/lobby/test_first_moves.py).
    worker = live_site.worker
    timeouts_before = len(servers.tasks_in_log(worker, "games.timeout_move")[1])
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert eventually(lambda: Game.objects.get(pk=game.pk).status == "finished")
    game.refresh_from_db()
    assert (game.ending, game.winner, game.flagged) == ("time", "white", ["black"])
    assert game.score["white"] > game.score["black"] and sum(game.score.values()) == 36
    # No second mail. Once the time-out's task has ended, any mail it queued waits ahead
    # of another game's turn mail queued now (the worker takes a queue's tasks in order):
    # once that one is sent and every turn mail the worker took has ended, it is there.
    assert eventually(lambda: len(servers.tasks_in_log(worker, "games.timeout_move")[1]) > timeouts_before)
    later = actions.open_table(make_user("carol", "Carol"), Variant(board="6x6"),
                               time_control=(Game.TimeControl.DAYS, 86400, 0))
    actions.join(later, Viewer(user=make_user("dave", "Dave")))
    assert eventually(lambda: len(mail_to("carol@example.com")) == 1)
    assert eventually(lambda: set(servers.tasks_in_log(worker, "games.turn_mail")[0])
                      <= set(servers.tasks_in_log(worker, "games.turn_mail")[1]))
    assert len(mail_to("alice@example.com")) == 2 and len(mail_to("bob@example.com")) == 1


def test_the_mail_task_delivered_twice_sends_once(alice, bob):
    from django.core import mail

    from games.tasks import turn_mail

    # The test delivers the task itself: the live site's worker (the test before started
    # it) would take the queued one meanwhile.
    with servers.workers_paused():
        table = in_thread(lambda: actions.open_table(alice, Variant(board="6x6"),
                                                     time_control=(Game.TimeControl.DAYS, 86400, 0)))
        in_thread(actions.join, table, Viewer(user=bob))
        mail.outbox.clear()
        Game.objects.filter(pk=table.game_id).update(mailed_ply=None)
        assert [turn_mail(table.game_id, 0) for _ in range(3)] == [True, False, False]
        assert [m.to for m in mail.outbox] == [["alice@example.com"]]


def test_the_table_line_names_the_computer_only_where_it_takes_a_turn(alice):
    """60 seconds a move: it moves for a player out of time; a computer seat: it plays;
    in correspondence (and on a clock) no computer takes over a turn (docs/rules.md §11.3)."""
    from tests.people import signed_in

    def line(**options):
        table = in_thread(lambda: actions.open_table(alice, Variant(board="6x6"), **options))
        html = signed_in(alice).get(f"/tables/{table.code}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
        return " ".join(html.split('class="table-meta">', 1)[1].split("</p>", 1)[0].split())

    assert "Computer bei Zeitablauf: Normal" in line()
    days = (Game.TimeControl.DAYS, 86400, 0)
    assert "Computer" not in line(time_control=days)
    assert "Computer" not in line(time_control=(Game.TimeControl.CLOCK, 180, 2))
    assert "Computer: Normal" in line(time_control=days, computer_colours=["white"])
