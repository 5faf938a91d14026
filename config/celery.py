"""The Celery app: computer moves, move time-outs (each worker's clock) and the sweep of overdue games."""
import logging
import os
import time

from celery import Celery
from celery.signals import celeryd_after_setup, worker_process_init
from celery.worker.control import inspect_command

from config.broker import SweepOnConnect, use_redis_transport
from games.deadline_clock import DeadlineClock

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
log = logging.getLogger(__name__)

use_redis_transport()  # a worker that survives Redis going away (config.broker)
app = Celery("reversi")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.steps["consumer"].add(SweepOnConnect)
app.steps["consumer"].add(DeadlineClock)
app.autodiscover_tasks()


def engine_report():
    """Which engine this process's computer players run on, the memory its search tables
    take at most, the learned weights it holds, and a warning when that is not the
    compiled core."""
    from games.ai import core, learned

    answer = {"engine": core.engine_name(), "table_bytes": core.TABLE_BYTES + core.SEARCH_TABLE_BYTES,
              "weights": learned.loaded_weights()}
    warning = core.missing_core_warning()
    return {**answer, "warning": warning} if warning else answer


@inspect_command()
def engine(state):
    """engine_report of the worker's main process (asked by /healthz: at once, no queue)."""
    return engine_report()


@app.task(name="config.engine", ignore_result=False)  # a shell may wait for it
def engine_in_the_pool():
    """engine_report of a pool process, the one that makes the moves."""
    return engine_report()


@celeryd_after_setup.connect
def at_worker_start(**_):
    """In the worker's main process, its logging set up, before its pool starts: the
    pool's processes are forked with every shipped board's weights already loaded (and
    share their memory), so no move pays for reading them (README, "The compiled core")."""
    from games.ai import core, load_shipped_weights

    warning = core.missing_core_warning()
    if warning:
        log.warning(warning)
    started = time.monotonic()
    loaded = load_shipped_weights()
    log.info("computer players: the learned weights of %d boards and rule sets loaded in %.2f s",
             len(loaded), time.monotonic() - started)


@worker_process_init.connect
def at_pool_process_start(**_):
    """Nothing to do in a forked pool process (it has what its worker loaded); a pool
    that starts its processes afresh (spawn) loads them here, still before any task."""
    from games.ai import load_shipped_weights

    load_shipped_weights()
