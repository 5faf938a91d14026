"""Project configuration: settings, ASGI application, Celery app, URLs.

The Celery app is imported here so that `shared_task` binds to it whenever Django
starts (web server, worker or management command).
"""
from .celery import app as celery_app

__all__ = ("celery_app",)
