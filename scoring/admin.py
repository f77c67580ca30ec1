from django.contrib import admin

from core.admin import ReadOnlyAdminMixin
from scoring.models import AuditEvent, Game, GameSheet, Score


@admin.register(Game)
class GameAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Games are built from the rules when a day is seated."""

    list_display = ["day", "number", "scheduled_engine"]
    list_filter = ["day__tournament"]


class ScoreInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Score
    extra = 0
    raw_id_fields = ["entry"]


@admin.register(GameSheet)
class GameSheetAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """A score changed here would leave no audit record: organisers correct scores on the
    table's card, which keeps the old and new values, who, when and why."""

    list_display = ["table", "game", "version", "state", "engine_used", "source", "entered_at"]
    list_filter = ["state", "source", "table__day__tournament"]
    raw_id_fields = ["table", "game", "went_out", "entered_by", "confirmed_by"]
    inlines = [ScoreInline]


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The audit trail is append-only, even for a superuser."""

    list_display = ["at", "table", "game", "action", "actor_label", "source"]
    list_filter = ["action", "source"]
