"""Read-only admin pages of tables and rematch offers."""
from django.contrib import admin

from games.admin import ReadOnlyAdmin
from lobby.models import Rematch, Table


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["code", "host", "game", "created_at"]
    search_fields = ["code", "host__username", "game__public_id"]
    list_select_related = ["host", "game"]


@admin.register(Rematch)
class RematchAdmin(ReadOnlyAdmin):
    list_display = ["table", "game", "status", "new_game", "updated_at"]
    list_filter = ["status"]
    search_fields = ["table__code", "game__public_id"]
    list_select_related = ["table", "game", "new_game"]
