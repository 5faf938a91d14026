"""Websocket URLs of every app, gathered in one place."""
from django.urls import path

from config.announcements import AnnouncementConsumer
from games.routing import websocket_urlpatterns as game_sockets
from lobby.routing import websocket_urlpatterns as lobby_sockets

websocket_urlpatterns = [
    path("ws/site/", AnnouncementConsumer.as_asgi()),
    *game_sockets,
    *lobby_sockets,
]
