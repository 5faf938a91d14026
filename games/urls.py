from django.urls import path

from games import event_views, views

urlpatterns = [
    path("play/", views.play, name="play"),
    path("play/<game_id:public_id>/", views.game_page, name="play_game"),
    path("play/<game_id:public_id>/move/", views.move, name="play_move"),
    path("play/<game_id:public_id>/undo/", views.undo, name="play_undo"),
    path("play/<game_id:public_id>/level/", views.level, name="play_level"),
    path("play/<game_id:public_id>/again/", views.play_again, name="play_again"),
    path("games/<game_id:public_id>/events", event_views.game_events, name="game_events"),
]
