"""The Celery app: computer moves, move time-outs (each worker's clock) and the sweep of overdue games."""
import os

from celery import Celery

from config.broker import SweepOnConnect, use_redis_transport
from config.deadline_clock import DeadlineClock

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

use_redis_transport()  # a worker that survives Redis going away (config.broker)
app = Celery("reversi")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.steps["consumer"].add(SweepOnConnect)
app.steps["consumer"].add(DeadlineClock)
app.autodiscover_tasks()
