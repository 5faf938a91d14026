"""The one websocket of a page (/ws/page/, infra.page_socket) with the streams of every
app, and a refusal for any other path."""
from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from chat.consumers import TableChatConsumer
from games.consumers import GameConsumer
from games.converters import GameIdConverter
from infra.page_socket import Stream, page_socket
from lobby.announcements import AnnouncementConsumer
from lobby.consumers import LobbyConsumer
from lobby.models import CODE_ALPHABET, CODE_LENGTH
from social.consumers import NotificationConsumer


class NoSuchSocket(AsyncWebsocketConsumer):
    """Closes the handshake (403): without it Channels' router raises on a path with no
    route, a 500 handshake and a traceback in the log for every probe."""

    async def connect(self):
        await self.close()


def site_stream(scope):
    """Every page's: the site's announcements, and a signed-in person's notifications."""
    user = scope.get("user")
    return NotificationConsumer if getattr(user, "is_authenticated", False) else AnnouncementConsumer


# In this order: a game's position is a page's first frame (static/js/moves.js), and
# its person is online (the site stream) before the lobby's list reads the count.
PAGE_STREAMS = [
    Stream("game", GameConsumer, pattern=GameIdConverter.regex, argument="public_id",
           takes=("move", "action", "pong")),
    Stream("site", site_stream),
    Stream("table", TableChatConsumer, pattern=f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}", argument="code",
           takes=("chat_text", "chat_phrase")),
    Stream("lobby", LobbyConsumer),
]

websocket_urlpatterns = [
    path("ws/page/", page_socket(PAGE_STREAMS)),
    re_path(r"", NoSuchSocket.as_asgi()),
]
