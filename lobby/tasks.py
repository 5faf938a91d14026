"""Celery: the lobby's list pushed again every minute (beat), so open lobby pages show
each table's age and lose the tables abandoned meanwhile (lobby.presence)."""
from celery import shared_task

from lobby.broadcast import broadcast_lobby


@shared_task(name="lobby.refresh_lobby")
def refresh_lobby():
    broadcast_lobby()
