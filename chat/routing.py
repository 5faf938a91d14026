from django.urls import path

from chat.consumers import TableChatConsumer
from lobby import routing as lobby_routing  # noqa: F401  (registers the table_code converter)

websocket_urlpatterns = [
    path("ws/tables/<table_code:code>/", TableChatConsumer.as_asgi()),
]
