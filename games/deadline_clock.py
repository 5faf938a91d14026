"""Each Celery worker runs the move-deadline clock (games.deadlines.run_clock) in a
daemon thread of its main process, from the consumer's first start to the worker's
shutdown. Wired in config.celery."""
import threading

from celery import bootsteps


class DeadlineClock(bootsteps.StartStopStep):
    requires = ("celery.worker.consumer.tasks:Tasks",)

    def __init__(self, parent, **kwargs):
        self.stopping = threading.Event()
        self.thread = None
        super().__init__(parent, **kwargs)

    def start(self, consumer):
        if self.thread is None:
            from games.deadlines import run_clock

            self.thread = threading.Thread(target=run_clock, args=(self.stopping,), name="deadline-clock",
                                           daemon=True)
            self.thread.start()

    def shutdown(self, consumer):
        self.stopping.set()
