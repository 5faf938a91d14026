"""Admin pages: follows, blocks, challenges and preferences to look at (their services
write them); notifications too, and a staff member may send a person a moderator's
message from here (told live like any notification)."""
from django.contrib import admin

from games.admin import ReadOnlyAdmin
from social import notifications
from social.models import Block, Challenge, Follow, Notification, Preferences


@admin.register(Follow)
class FollowAdmin(ReadOnlyAdmin):
    list_display = ["follower", "followed", "created_at"]
    search_fields = ["follower__username", "followed__username"]


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    list_display = ["blocker", "blocked", "created_at"]
    search_fields = ["blocker__username", "blocked__username"]


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ["challenger", "challenged", "status", "time_control", "rated", "created_at", "expires_at"]
    list_filter = ["status", "time_control", "rated"]
    search_fields = ["challenger__username", "challenged__username"]


@admin.register(Preferences)
class PreferencesAdmin(ReadOnlyAdmin):
    list_display = ["user", "mail_challenges", "mail_your_turn", "language"]
    search_fields = ["user__username"]


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    """Adding one here sends the person a moderator's message."""

    list_display = ["user", "kind", "read", "created_at"]
    list_filter = ["kind", "read"]
    search_fields = ["user__username"]
    fields = ["user", "text"]
    autocomplete_fields = []
    raw_id_fields = ["user"]

    def has_add_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff

    def save_model(self, request, obj, form, change):
        sent = notifications.moderator_message(obj.user_id, obj.text)
        if sent is not None:
            obj.pk = sent.pk
