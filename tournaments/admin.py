from django.contrib import admin

from core.admin import ReadOnlyAdminMixin
from tournaments.models import (
    Day,
    Entry,
    KeepApart,
    Player,
    RulePreset,
    RuleSet,
    Season,
    SeasonEvent,
    Seat,
    StaffRole,
    Table,
    Tournament,
)


class RuleSetInline(ReadOnlyAdminMixin, admin.StackedInline):
    """Shown only: a rule change goes through the event's rules page (or the ``rules``
    command), which adds or removes days and rebuilds the schedules with it."""

    model = RuleSet
    can_delete = False


class StaffRoleInline(admin.TabularInline):
    model = StaffRole
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "start_date", "public_pages"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RuleSetInline, StaffRoleInline]

    def has_add_permission(self, request):
        # An event needs its rules and days: "New tournament" on My tournaments makes all three.
        return False


@admin.register(RulePreset)
class RulePresetAdmin(admin.ModelAdmin):
    list_display = [
        "key",
        "name",
        "top_double",
        "days",
        "games_per_day",
        "first_engine",
        "max_table_size",
        "double_blank_value",
    ]


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Names are corrected on the player's page, which refuses a duplicate in the event."""

    list_display = ["name", "club"]
    search_fields = ["name", "club"]


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Entries, check-in and withdrawals go through the registration pages, which refuse late
    joins and keep the seating figures right."""

    list_display = ["number", "player", "tournament", "status", "pinned_table"]
    list_filter = ["tournament", "status"]
    search_fields = ["player__name"]
    list_select_related = ["player", "tournament"]
    raw_id_fields = ["player"]


@admin.register(KeepApart)
class KeepApartAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["tournament", "first", "second"]
    raw_id_fields = ["first", "second"]


class TableInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Table
    extra = 0
    readonly_fields = ["link_token"]


@admin.register(Day)
class DayAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Days are seated, closed and reopened on the organiser pages (or the commands)."""

    list_display = ["tournament", "number", "date", "seed", "seated_at", "closed_at"]
    list_filter = ["tournament"]
    inlines = [TableInline]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Seats change only through seating, moves and swaps, which keep the repeat counts."""

    list_display = ["entry", "table", "position", "left_after_game"]
    list_filter = ["day__tournament", "day"]
    raw_id_fields = ["entry", "table", "day"]


class SeasonEventInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = SeasonEvent


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Seasons change through the ``season`` command and the season pages, whose services keep
    the order and the seating figures of later events right."""

    list_display = [
        "name",
        "slug",
        "best_of",
        "min_sessions",
        "avoid_earlier_pairings",
        "public_pages",
    ]
    search_fields = ["name", "slug"]
    inlines = [SeasonEventInline]
