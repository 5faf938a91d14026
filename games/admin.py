"""Read-only admin pages of games, seats, moves, events and analyses: for looking, never for
changing; every change of a game goes through games.writer."""
from django.contrib import admin

from games.models import Game, GameAnalysis, GameEvent, Move, Seat


class ReadOnlyAdmin(admin.ModelAdmin):
    """Any staff member may look; nobody adds, changes or deletes here (the site's
    services are the one writer of each table)."""

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff

    def has_module_permission(self, request):
        return self.has_view_permission(request)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["public_id", "kind", "status", "ply", "turn", "winner", "rated", "created_at"]
    list_filter = ["kind", "status", "ending", "rated", "level"]
    search_fields = ["public_id", "seats__user__username", "seats__guest_name"]
    date_hierarchy = "created_at"


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["game", "colour", "user", "guest_name", "is_computer", "left_at"]
    list_filter = ["colour", "is_computer"]
    search_fields = ["game__public_id", "user__username", "guest_name"]
    list_select_related = ["game", "user"]


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ["game", "ply", "colour", "square", "made_by", "created_at"]
    list_filter = ["made_by", "colour"]
    search_fields = ["game__public_id"]
    list_select_related = ["game"]


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    list_display = ["game", "version", "type", "created_at"]
    list_filter = ["type"]
    search_fields = ["game__public_id"]
    list_select_related = ["game"]


@admin.register(GameAnalysis)
class GameAnalysisAdmin(ReadOnlyAdmin):
    list_display = ["game", "status", "done", "total"]
    list_filter = ["status"]
    search_fields = ["game__public_id"]
    list_select_related = ["game"]
