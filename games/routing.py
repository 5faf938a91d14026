from django.urls import path

from games.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<game_id:public_id>/", GameConsumer.as_asgi()),
]
