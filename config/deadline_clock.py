"""Each Celery worker's clock for move time-outs.

A player's deadline is a column of their game (games.models.Game.deadline), so a
move queues no task for its time-out: every CLOCK_INTERVAL seconds each worker
queues games.enforce_deadlines, which makes the computer move for every player past
their deadline (a claim in Redis keeps two workers from making the same one).
A deadline is therefore kept to within about a second, by any worker that is up,
including one started after the deadline passed. Wired in config.celery.
"""
import logging

from celery import bootsteps

log = logging.getLogger(__name__)

CLOCK_INTERVAL = 1.0


class DeadlineClock(bootsteps.StartStopStep):
    """Runs while the worker's consumer is connected (stopped and started again
    around a reconnection, like Celery's own heartbeat)."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def __init__(self, parent, **kwargs):
        self.timer = None
        super().__init__(parent, **kwargs)

    def start(self, consumer):
        self.timer = consumer.timer.call_repeatedly(CLOCK_INTERVAL, self.tick, (consumer.app,))

    def stop(self, consumer):
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    shutdown = stop

    @staticmethod
    def tick(app):
        try:
            # A tick that waited longer than the next one is of no use: expires.
            # retry=False: with the broker away the consumer reconnects and restarts
            # this clock; it must not block on publishing meanwhile.
            app.send_task("games.enforce_deadlines", ignore_result=True, expires=2 * CLOCK_INTERVAL,
                          retry=False)
        except Exception as error:  # the broker is away: the consumer is reconnecting
            log.debug("deadline clock: tick not queued (%s)", error)
