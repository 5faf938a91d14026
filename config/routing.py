"""Websocket URLs of every app, gathered in one place."""
from django.urls import path

from config.announcements import AnnouncementConsumer

websocket_urlpatterns = [
    path("ws/site/", AnnouncementConsumer.as_asgi()),
]
