from django.urls import path

from lobby.consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tables/<str:code>/", TableConsumer.as_asgi()),
]
