"""The Celery queues (config.settings, README.md "Queues"): each task lands on its queue,
the urgent worker of `make run` takes time-outs and tables only, and a time-out is made
at once while the visitors' queue holds a backlog of Hard games.

Against the real Celery configuration, real workers started as config.runsite starts
them, and a Redis of this module's own (so no other worker of the session takes
these tasks; the session's workers are paused for their deadline clocks)."""
import json
import shutil
import sys
import tempfile
import time
from datetime import timedelta

import pytest
import redis as redis_py
from celery import Celery, current_app
from django.conf import settings
from django.utils import timezone

import config.celery
from config.embedded_redis import EmbeddedRedis
from config.runsite import worker_parts
from config.settings import celery_redis_url
from games import Variant, scheduling
from games.access import Viewer
from games.models import Game, Move
from games.creation import create_computer_game
from lobby import actions
from tests import servers

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("transactional_db")]


class ComputerOpens:
    """A random source for which the visitor plays White: the computer opens."""

    def choice(self, options):
        return options[1]


@pytest.fixture(scope="module")
def broker():
    """A Redis of this module's own, and the site's Celery app (its real configuration)
    sending to it, for scheduling's current_app."""
    folder = tempfile.mkdtemp(prefix="queues-")
    redis = EmbeddedRedis(f"unix://{folder}/redis.sock").start()
    app = Celery("reversi-queues-test")
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.broker_url = celery_redis_url(redis.url)
    app.set_current()
    try:
        with servers.web_beating(redis.url):  # a web process serves: the workers' clocks flag
            yield redis
    finally:
        config.celery.app.set_current()
        app.close()
        redis.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def empty_broker(broker):
    client = redis_py.Redis.from_url(broker.url)
    client.flushdb()
    yield broker
    client.flushdb()
    client.close()


def queued(url):
    """{queue: [task names]} of what waits in Redis."""
    client = redis_py.Redis.from_url(url)
    try:
        return {queue: [json.loads(item)["headers"]["task"] for item in client.lrange(queue, 0, -1)]
                for queue in settings.CELERY_TASK_QUEUES if client.llen(queue)}
    finally:
        client.close()


def start_workers(log_dir, url, names):
    """The workers of config.runsite named `names`, on the Redis at `url`."""
    celery = [sys.executable, "-m", "celery", "-A", "config"]
    env = servers.server_env(REDIS_URL=url)
    started = []
    for part in worker_parts(celery, env):
        if part.name in names:
            command = [*part.command, "--without-mingle", "--without-gossip"]
            process = servers.Process(f"queues-{part.name}", command, env, log_dir)
            started.append(process)
            servers.wait_for(lambda: "ready." in process.output(), process, f"{part.name} to be ready")
    return started


def wait_until(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return time.monotonic()
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds} s: {what}")


def test_each_task_is_routed_to_its_queue(empty_broker):
    scheduling.computer_move(1, 0)
    scheduling.computer_move(2, 0, at_table=True)
    scheduling.timeout_move(3, 0)
    scheduling.credit_downtime()
    scheduling.analyse_game(4)
    scheduling.send("games.sweep_overdue", ())
    scheduling.send("lobby.announce", ("a notice",))
    assert queued(empty_broker.url) == {
        "timeouts": ["games.sweep_overdue", "games.credit_downtime", "games.timeout_move"],  # newest first
        "tables": ["lobby.announce", "games.table_move"],
        "visitors": ["games.computer_move"],
        "analysis": ["games.analyse_game"],
    }


def test_the_urgent_worker_takes_tables_and_time_outs_but_no_visitors_game(empty_broker, tmp_path, alice, bob):
    with servers.workers_paused():
        visitors_game = create_computer_game(Viewer(guest_token="queues-visitor"), Variant(board="6x6"), "easy",
                                             rng=ComputerOpens())
        table = actions.open_table(alice, Variant(board="6x6"), level="easy", host_colour="white",
                                 computer_colours=["black"])
        overdue = actions.open_table(bob, Variant(board="6x6"), level="easy", host_colour="black")
        actions.join(overdue, Viewer(user=alice))
        Game.objects.filter(pk=overdue.game_id).update(deadline=timezone.now() - timedelta(seconds=10))
        assert set(queued(empty_broker.url)) == {"visitors", "tables"}
        workers = start_workers(tmp_path, empty_broker.url, {"urgent-worker"})
        try:
            wait_until(lambda: Move.objects.filter(game_id=table.game_id, made_by="computer").exists(), 30,
                       "the computer's move at the table")
            wait_until(lambda: Move.objects.filter(game_id=overdue.game_id, made_by="timeout").exists(), 30,
                       "the time-out at the other table")
            # It says which queues it takes (its answer comes through Redis, as its tasks do):
            # the visitors' is not one of them.
            answers = current_app.control.inspect(timeout=10, limit=1).active_queues() or {}
            assert [sorted(queue["name"] for queue in queues) for queues in answers.values()] == [
                ["tables", "timeouts"]], answers
            # It empties its own queues (its sweep on connecting may have queued more) and
            # leaves the visitors' task where it was.
            wait_until(lambda: set(queued(empty_broker.url)) == {"visitors"}, 30, "the urgent queues emptied")
            assert Game.objects.get(pk=visitors_game.pk).ply == 0  # not its queue
            left = queued(empty_broker.url)  # (the worker's sweep on connecting queued it once more)
            assert set(left["visitors"]) == {"games.computer_move"}
        finally:
            for worker in workers:
                worker.stop()


def test_a_time_out_is_made_at_once_while_the_visitors_queue_holds_a_backlog(empty_broker, tmp_path, alice, bob):
    backlog = 12  # Hard on 10x10 thinks 2 s a move: 12 s of work for a worker of two processes
    with servers.workers_paused():
        games = [create_computer_game(Viewer(guest_token=f"flood-{number}"), Variant(board="10x10"), "hard",
                                      rng=ComputerOpens()) for number in range(backlog)]
        assert len(queued(empty_broker.url)["visitors"]) == backlog
        table = actions.open_table(alice, Variant(board="6x6"), level="easy", host_colour="black")
        actions.join(table, Viewer(user=bob))
        workers = start_workers(tmp_path, empty_broker.url, {"urgent-worker"})
        workers += start_workers(tmp_path, empty_broker.url, {"worker"})
        try:
            wait_until(lambda: Game.objects.filter(pk__in=[g.pk for g in games], ply__gt=0).count() >= 2, 30,
                       "the worker to be busy with the backlog")
            due = timezone.now() - timedelta(seconds=settings.MOVE_TIME_GRACE)
            Game.objects.filter(pk=table.game_id).update(deadline=due)
            started = time.monotonic()
            made = wait_until(lambda: Move.objects.filter(game_id=table.game_id, made_by="timeout").exists(), 30,
                              "the time-out")
            late = made - started
            waiting = Game.objects.filter(pk__in=[g.pk for g in games], ply=0).count()
            print(f"time-out made {late:.2f} s after it fell due, {waiting} visitors' games still waiting")
            assert waiting > 0, "the backlog was gone before the time-out: nothing was shown"
            assert late < 5  # the clock ticks every second; an Easy 6x6 move is quick
        finally:
            for worker in workers:
                worker.stop()
