"""Read-only admin pages of profiles, ratings, rating changes and sign-in throttles."""
from django.contrib import admin

from accounts.models import LoginThrottle, Profile, Rating, RatingChange
from games.admin import ReadOnlyAdmin


@admin.register(Profile)
class ProfileAdmin(ReadOnlyAdmin):
    list_display = ["user", "display_name"]
    search_fields = ["user__username", "display_name"]
    list_select_related = ["user"]


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ["user", "category", "mu", "sigma", "games", "wins", "losses", "draws", "updated_at"]
    list_filter = ["category"]
    search_fields = ["user__username"]
    list_select_related = ["user"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["user", "game", "category", "rank", "before", "after", "created_at"]
    list_filter = ["category"]
    search_fields = ["user__username", "game__public_id"]
    list_select_related = ["user", "game"]


@admin.register(LoginThrottle)
class LoginThrottleAdmin(ReadOnlyAdmin):
    list_display = ["key", "failures", "window_start"]
