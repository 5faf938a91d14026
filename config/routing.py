"""Websocket URLs of every app, gathered in one place."""
from django.urls import path

from config.announcements import AnnouncementConsumer
from games.routing import websocket_urlpatterns as game_sockets

websocket_urlpatterns = [
    path("ws/site/", AnnouncementConsumer.as_asgi()),
    *game_sockets,
]
