"""The Celery app: computer moves, move time-outs and the sweep of overdue games."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("reversi")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
