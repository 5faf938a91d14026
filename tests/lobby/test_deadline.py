"""Time limits (games.deadlines), with no worker running: a move that comes after the
deadline and its grace is refused at once and its time-out queued, never computed in
the web process; every one who notices a due player (a late move, the sweep, each
worker's clock) queues the time-out through one claim, so it is queued once; a move
within the grace counts, also for the clocks; a computer move whose task was lost is
queued again by the sweep."""
import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games import Variant, deadlines
from games.access import Viewer
from games.models import Game, Move
from games.errors import OutOfTime
from games.services import play_move
from games.tasks import timeout_move as timeout_task
from lobby import actions
from tests import servers
from tests.people import signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob):
    """A running 6x6 table, no worker anywhere: Alice plays Black and is to move."""
    table = actions.open_table(alice, Variant(board="6x6"))
    actions.join(table, Viewer(user=bob))
    table.refresh_from_db()
    return table


def overdue_by(table, seconds):
    Game.objects.filter(pk=table.game_id).update(deadline=timezone.now() - timedelta(seconds=seconds))


def table_deadline(table):
    return Game.objects.get(pk=table.game_id).deadline


def post_move(client, table, ply=0):
    square = Game.objects.get(pk=table.game_id).board().legal_moves[0]
    return client.post(reverse("table_move", args=[table.code]), {"square": square, "ply": ply},
                        HTTP_HX_REQUEST="true")


def test_a_move_five_seconds_late_is_refused_at_once_and_its_time_out_queued(table, alice):
    overdue_by(table, settings.MOVE_TIME_GRACE + 5)
    response = post_move(signed_in(alice), table)
    assert response.status_code == 409
    page = response.content.decode()
    assert "Your time for this move ran out; the computer moves for you." in page
    assert 'id="game-state"' in page  # the board comes with the message
    # Nothing was searched in the web process: the time-out is queued, claimed once.
    assert not Move.objects.filter(game_id=table.game_id).exists()
    assert deadlines.queue_due_time_outs() == 0  # the late move's claim: no clock queues it again
    assert timeout_task(table.game_id, 0) == 1  # what the worker does with it
    move = Move.objects.get(game_id=table.game_id)
    assert (move.ply, move.colour, move.made_by) == (1, "black", "timeout")
    game = Game.objects.get(pk=table.game_id)
    assert (game.ply, game.turn) == (1, "white") and game.deadline > timezone.now()


def test_the_late_players_retry_and_a_second_tab_queue_nothing_more(table, alice):
    overdue_by(table, settings.MOVE_TIME_GRACE + 5)
    first, second = signed_in(alice), signed_in(alice)
    assert post_move(first, table).status_code == 409
    assert post_move(first, table).status_code == 409
    assert post_move(second, table).status_code == 409
    assert deadlines.queue_due_time_outs() == 0 and deadlines.claim(table.game_id, 0, table_deadline(table)) is False
    assert not Move.objects.filter(game_id=table.game_id).exists()


def test_a_move_sent_a_second_after_the_deadline_counts_and_no_clock_times_it_out(table, alice):
    # The grace holds for the clocks too: one rule, games.deadlines.due_at.
    overdue_by(table, 1)
    assert deadlines.queue_due_time_outs() == 0
    assert timeout_task(table.game_id, 0) is None
    response = post_move(signed_in(alice), table)
    assert response.status_code == 200
    assert Move.objects.get(game_id=table.game_id).made_by == "player"


@pytest.mark.django_db(transaction=True)  # the sweeps run on threads of their own, each with its connection
def test_overlapping_sweeps_queue_each_time_out_once(table):
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    from games.tasks import sweep_overdue

    overdue_by(table, settings.MOVE_TIME_GRACE + 5)

    # All at once: a claim lasts CLAIM_SECONDS, after which a sweep may rightly queue a
    # time-out that is still due again (its task was lost), so sweeps queued behind
    # each other on a loaded machine would not be overlapping.
    start = threading.Barrier(4)

    def sweep():
        try:
            start.wait()
            return sweep_overdue()
        finally:
            connection.close()

    # A live site's worker, if an earlier test started one, would make the queued time-out.
    with servers.workers_paused(), ThreadPoolExecutor(4) as pool:
        queued = list(pool.map(lambda _: sweep(), range(4)))
        assert sum(queued) == 1
        assert not Move.objects.filter(game_id=table.game_id).exists()  # no sweep computes a move itself


def test_the_service_refuses_a_late_move_in_german_too(table, alice):
    from django.utils import translation

    overdue_by(table, 60)
    game = Game.objects.get(pk=table.game_id)
    with translation.override("de"), pytest.raises(OutOfTime) as refused:
        play_move(game, game.board().legal_moves[0], expected_ply=0, viewer=Viewer(user=alice))
    assert "Zeit" in str(refused.value)
    assert not Move.objects.filter(game_id=table.game_id).exists()


def test_the_computer_is_not_held_to_a_deadline(table):
    # A time-out move arrives after the deadline by definition; only players are refused.
    overdue_by(table, 60)
    game = Game.objects.get(pk=table.game_id)
    play_move(game, game.board().legal_moves[0], expected_ply=0, made_by=Move.MadeBy.TIMEOUT)
    assert Move.objects.get(game_id=table.game_id).made_by == "timeout"


def test_the_sweep_queues_a_computer_move_whose_task_was_lost(alice):
    # A move saved while the broker was down has no task: the sweep queues one (right after
    # the worker reconnects every due computer move counts; otherwise one older than STUCK_AFTER).
    from games.tasks import STUCK_AFTER, sweep_overdue

    table = actions.open_table(alice, Variant(board="6x6"), computer_colours=["white"])
    game = Game.objects.get(pk=table.game_id)
    play_move(game, game.board().legal_moves[0], expected_ply=0, viewer=Viewer(user=alice))  # White (computer) to move
    assert sweep_overdue() == 0  # its task may still be on its way
    assert sweep_overdue(stuck_after=0) == 1
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=STUCK_AFTER + 1))
    assert sweep_overdue() == 1


def test_the_deadline_clock_queues_the_time_out_of_an_overdue_player_once(table):
    # What every worker's clock does each second (games.deadlines.run_clock); the task it
    # queues is the time-out move itself (games.tasks.timeout_move).
    queue_due_time_outs, move_timeout = deadlines.queue_due_time_outs, timeout_task

    assert queue_due_time_outs() == 0  # the deadline is a minute away
    overdue_by(table, settings.MOVE_TIME_GRACE + 1)
    assert queue_due_time_outs() == 1
    assert queue_due_time_outs() == 0  # claimed: another worker's clock, or the next tick, leaves it
    assert move_timeout(table.game_id, 0) == 1
    move = Move.objects.get(game_id=table.game_id)
    assert (move.ply, move.colour, move.made_by) == (1, "black", "timeout")
    assert move_timeout(table.game_id, 0) is None  # a second delivery changes nothing
    assert queue_due_time_outs() == 0  # Bob's new deadline is a minute away


def test_a_claim_is_on_one_deadline(table):
    # A later deadline at the same ply (there is none at a table today) would be a new claim.
    claim_time_out = deadlines.claim
    deadline = timezone.now()
    assert claim_time_out(table.game_id, 0, deadline) is True
    assert claim_time_out(table.game_id, 0, deadline) is False
    assert claim_time_out(table.game_id, 0, deadline + timedelta(seconds=60)) is True
