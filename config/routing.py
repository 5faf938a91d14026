"""Websocket URLs of every app, gathered in one place, and a refusal for any other path."""
from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from chat.routing import websocket_urlpatterns as chat_sockets
from lobby.announcements import AnnouncementConsumer
from games.routing import websocket_urlpatterns as game_sockets
from lobby.routing import websocket_urlpatterns as lobby_sockets
from social.routing import websocket_urlpatterns as social_sockets


class NoSuchSocket(AsyncWebsocketConsumer):
    """Closes the handshake (403): without it Channels' router raises on a path with no
    route, a 500 handshake and a traceback in the log for every probe."""

    async def connect(self):
        await self.close()


websocket_urlpatterns = [
    path("ws/site/", AnnouncementConsumer.as_asgi()),
    *game_sockets,
    *lobby_sockets,
    *social_sockets,
    *chat_sockets,
    re_path(r"", NoSuchSocket.as_asgi()),
]
