from django.contrib import admin

from .models import AuditEvent, Game, GameSheet, Score


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["day", "number", "scheduled_engine"]
    list_filter = ["day__tournament"]


class ScoreInline(admin.TabularInline):
    model = Score
    extra = 0
    raw_id_fields = ["entry"]


@admin.register(GameSheet)
class GameSheetAdmin(admin.ModelAdmin):
    list_display = ["table", "game", "version", "state", "engine_used", "source", "entered_at"]
    list_filter = ["state", "source", "table__day__tournament"]
    raw_id_fields = ["table", "game", "went_out", "entered_by", "confirmed_by"]
    inlines = [ScoreInline]


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Read-only: the audit trail is append-only, even for a superuser."""

    list_display = ["at", "table", "game", "action", "actor_label", "source"]
    list_filter = ["action", "source"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
