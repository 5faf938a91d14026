"""Each Celery worker's clock for move time-outs.

A player's deadline is a column of their game (games.models.Game.deadline), so a
move queues no task for its time-out: a thread in every worker looks once every
CLOCK_INTERVAL seconds for players past their deadline and queues the time-out of
each (games.tasks.queue_due_time_outs; a claim in Redis keeps two workers from
queuing the same one). A deadline is therefore kept to within about a second, by
any worker that is up, including one started after the deadline passed; and a
worker's log shows a task only when somebody actually ran out of time.
Wired in config.celery.
"""
import logging
import threading

from celery import bootsteps

log = logging.getLogger(__name__)

CLOCK_INTERVAL = 1.0


class DeadlineClock(bootsteps.StartStopStep):
    """A daemon thread of the worker's main process, from the consumer's first start
    to the worker's shutdown. It reads the database and publishes, so it stays off
    the consumer's event loop (a busy database must not hold up task delivery)."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def __init__(self, parent, **kwargs):
        self.stopping = threading.Event()
        self.thread = None
        super().__init__(parent, **kwargs)

    def start(self, consumer):
        if self.thread is None:
            self.thread = threading.Thread(target=self.run, name="deadline-clock", daemon=True)
            self.thread.start()

    def shutdown(self, consumer):
        self.stopping.set()

    def run(self):
        from django.db import close_old_connections

        from games.tasks import queue_due_time_outs

        failing = False
        while not self.stopping.wait(CLOCK_INTERVAL):
            close_old_connections()  # as Celery does around every task: a broken connection is replaced
            try:
                queue_due_time_outs()
            except Exception as error:  # the database or Redis is away: the next tick tries again
                if not failing:
                    log.warning("deadline clock: time-outs not queued (%s); trying every second", error)
                failing = True
            else:
                if failing:
                    log.info("deadline clock: queuing time-outs again")
                failing = False
