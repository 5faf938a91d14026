from django.urls import path

from accounts.urls import UsernameConverter  # noqa: F401  (registers "username")
from social import views

app_name = "social"
urlpatterns = [
    path("friends/", views.friends_page, name="friends"),
    path("notifications/", views.notifications_page, name="notifications"),
    path("settings/", views.settings_save, name="settings"),
    path("unsubscribe/<str:token>/", views.unsubscribe_page, name="unsubscribe"),
    path("players/<username:username>/follow/", views.relation, {"action": "follow"}, name="follow"),
    path("players/<username:username>/unfollow/", views.relation, {"action": "unfollow"}, name="unfollow"),
    path("players/<username:username>/block/", views.relation, {"action": "block"}, name="block"),
    path("players/<username:username>/unblock/", views.relation, {"action": "unblock"}, name="unblock"),
    path("players/<username:username>/challenge/", views.challenge_new, name="challenge_new"),
    path("challenges/<int:challenge_id>/", views.challenge_page, name="challenge"),
    path("challenges/<int:challenge_id>/accept/", views.answer, {"action": "accept"}, name="accept"),
    path("challenges/<int:challenge_id>/decline/", views.answer, {"action": "decline"}, name="decline"),
    path("challenges/<int:challenge_id>/cancel/", views.answer, {"action": "cancel"}, name="cancel"),
    path("challenges/<int:challenge_id>/seen/", views.answer_seen, name="answer_seen"),
]
