from django.contrib.auth import views as auth_views
from django.urls import path, register_converter

from accounts import views


class UsernameConverter:
    """What Django's username validator allows; anything else (a NUL byte that
    PostgreSQL refuses, say) is a 404 before the view looks it up."""

    regex = r"[\w.@+-]{1,150}"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(UsernameConverter, "username")

urlpatterns = [
    path("login/", views.SignInView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("players/<username:username>/", views.player, name="player"),
    path("ratings/", views.ratings_help, name="ratings_help"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:category>/", views.leaderboard, name="leaderboard_category"),
    path("password/change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("password/reset/", views.ResetPasswordView.as_view(), name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", views.SetPasswordView.as_view(), name="password_reset_confirm"),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
