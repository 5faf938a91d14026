from django.urls import path, register_converter

from lobby.consumers import LobbyConsumer
from lobby.models import CODE_ALPHABET, CODE_LENGTH


class TableCodeConverter:
    """A table's code exactly as its page writes it in the socket's URL; anything else
    (a NUL byte that PostgreSQL refuses, say) finds no route and is refused."""

    regex = f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(TableCodeConverter, "table_code")

# A table page's socket (/ws/tables/<code>/, lobby.consumers.TableConsumer with the
# table's chat) is routed by the chat app: chat/routing.py.
websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
