"""Celery: every minute (beat), the lobby's hosts checked: a waiting table whose host
came or went is pushed again (its row says whether the host is here), one whose host
has been away too long leaves the list (lobby.host_presence), and the counts follow."""
from celery import shared_task

from lobby.broadcast import lobby_changed
from lobby.hosts import hosts_changed


@shared_task(name="lobby.refresh_lobby")
def refresh_lobby():
    lobby_changed(hosts_changed())
