"""The Celery app: computer moves, move time-outs (each worker's clock) and the sweep of overdue games."""
import os

from celery import Celery
from celery.worker.control import inspect_command

from config.broker import SweepOnConnect, use_redis_transport
from games.deadline_clock import DeadlineClock

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

use_redis_transport()  # a worker that survives Redis going away (config.broker)
app = Celery("reversi")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.steps["consumer"].add(SweepOnConnect)
app.steps["consumer"].add(DeadlineClock)
app.autodiscover_tasks()


@inspect_command()
def engine(state):
    """Which engine this worker's computer players run on, and the memory its search
    tables take at most (asked by /healthz)."""
    from games.ai import core

    return {"engine": core.engine_name(), "table_bytes": core.TABLE_BYTES + core.SEARCH_TABLE_BYTES}
