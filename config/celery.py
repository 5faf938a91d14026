"""The Celery app: computer moves, move time-outs (each worker's clock) and the sweep of overdue games."""
import logging
import os

from celery import Celery
from celery.signals import celeryd_after_setup
from celery.worker.control import inspect_command

from config.broker import SweepOnConnect, use_redis_transport
from config.deadline_clock import DeadlineClock

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
log = logging.getLogger(__name__)

use_redis_transport()  # a worker that survives Redis going away (config.broker)
app = Celery("reversi")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.steps["consumer"].add(SweepOnConnect)
app.steps["consumer"].add(DeadlineClock)
app.autodiscover_tasks()


@inspect_command()
def engine(state):
    """Which engine this worker's computer players run on, the memory its search tables
    take at most, and a warning when that is not the compiled core (asked by /healthz)."""
    from games.ai import core

    answer = {"engine": core.engine_name(), "table_bytes": core.TABLE_BYTES + core.SEARCH_TABLE_BYTES}
    warning = core.missing_core_warning()
    return {**answer, "warning": warning} if warning else answer


@celeryd_after_setup.connect
def at_worker_start(**_):
    """In the worker's main process, its logging set up, before its pool starts."""
    from games.ai import core

    warning = core.missing_core_warning()
    if warning:
        log.warning(warning)
