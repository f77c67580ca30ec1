"""Reads of events, their days and seasons: the overview, the day tabs, the public lists, and
whether play has started."""

from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Q

from tournaments.models import (
    Day,
    Entry,
    PlannedDay,
    Season,
    SeasonEvent,
    StaffRole,
    StandingsSettingChange,
    Table,
    Tournament,
)


def tournament_overview(tournament) -> dict:
    counts = Entry.objects.filter(tournament=tournament).aggregate(
        registered=Count("pk"),
        checked_in=Count("pk", filter=Q(status=Entry.CHECKED_IN)),
        withdrawn=Count("pk", filter=Q(status=Entry.WITHDRAWN)),
    )
    days = list(
        Day.objects.filter(tournament=tournament)
        .annotate(
            table_count=Count("tables", distinct=True),
            seat_count=Count("seats", distinct=True),
            planned_now=Exists(PlannedDay.objects.filter(day=OuterRef("pk"))),
        )
        .order_by("number")
    )
    place = SeasonEvent.objects.filter(tournament=tournament).select_related("season").first()
    return {"entry_counts": counts, "days": days, "season_place": place}


def first_started_day(tournament) -> int | None:
    """The number of the first day with a score, or None before play starts. One query."""
    return (
        Table.objects.with_scores()
        .filter(day__tournament=tournament)
        .order_by("day__number")
        .values_list("day__number", flat=True)
        .first()
    )


def play_started(tournament) -> bool:
    """Any score on any day: from then on nobody new joins the event (the two-day tournament
    rules). One query."""
    return first_started_day(tournament) is not None


def tournament_day(slug: str, day_number: int | None):
    """(tournament, day) for a command line; LookupError with a plain message when unknown."""
    tournament = Tournament.objects.select_related("rules").filter(slug=slug).first()
    if tournament is None:
        raise LookupError(f'There is no tournament with the slug "{slug}".')
    if day_number is None:
        return tournament, None
    day = (
        Day.objects.select_related("tournament__rules")
        .filter(tournament=tournament, number=day_number)
        .first()
    )
    if day is None:
        count = tournament.days.count()
        raise LookupError(
            f"{tournament.name} has no day {day_number}; it has {count} day"
            f"{'' if count == 1 else 's'}."
        )
    return tournament, day


def tournament_days(tournament) -> list[Day]:
    """The tournament's days, first day first (the day tabs and download links)."""
    return list(Day.objects.filter(tournament=tournament).order_by("number"))


def public_tournaments():
    """The tournaments whose public pages are on, for the public home page."""
    return Tournament.objects.filter(public_pages=True)


def events_free_for_a_season(user) -> list[Tournament]:
    """Events the user organises (a superuser: any) that are in no season yet, newest first.
    One query."""
    events = Tournament.objects.filter(season_event__isnull=True, practice_of__isnull=True)
    if not user.is_superuser:
        events = events.filter(staff__user=user, staff__role=StaffRole.ORGANISER)
    return list(events.distinct())


def seasons_for(user) -> list[Season]:
    """The seasons whose staff pages ``user`` may open (see ``access.may_see_season``): every
    season for a superuser; else those with events, every one of which they staff, and the
    empty ones they made. Two queries."""
    seasons = list(Season.objects.prefetch_related("season_events").order_by("name"))
    if getattr(user, "is_superuser", False):
        return seasons
    staffed = set(StaffRole.objects.filter(user=user).values_list("tournament_id", flat=True))

    def sees(season: Season) -> bool:
        events = {place.tournament_id for place in season.season_events.all()}
        return events <= staffed if events else season.created_by_id == user.pk

    return [season for season in seasons if sees(season)]


def public_seasons():
    """Seasons whose public page is on and whose every event is public. One query."""
    return (
        Season.objects.filter(public_pages=True, season_events__isnull=False)
        .exclude(season_events__tournament__public_pages=False)
        .distinct()
        .order_by("name")
    )


def standings_setting_history(tournament) -> list[StandingsSettingChange]:
    """Every change of the event's standings settings (tie-breaks), latest first. One query."""
    return list(StandingsSettingChange.objects.filter(tournament=tournament))


@dataclass(frozen=True)
class StaffLogin:
    """A login that runs the event, as its Staff page lists it. ``only_here``: it runs no
    other event and is no site administrator, so this event's organisers may change it."""

    user_id: int
    username: str
    role_label: str
    only_here: bool


def event_staff(tournament) -> list[StaffLogin]:
    """The logins that run the event, organisers first. Two queries."""
    staff = list(
        StaffRole.objects.filter(tournament=tournament)
        .select_related("user")
        .order_by("-role", "user__username")
    )
    elsewhere = set(
        StaffRole.objects.filter(user_id__in=[s.user_id for s in staff])
        .exclude(tournament=tournament)
        .values_list("user_id", flat=True)
    )
    return [
        StaffLogin(
            user_id=role.user_id,
            username=role.user.get_username(),
            role_label=role.get_role_display(),
            only_here=not (role.user_id in elsewhere or role.user.is_staff),
        )
        for role in staff
    ]


def practice_copy_of(tournament: Tournament) -> Tournament | None:
    """The event's practice copy (scoring.practice), if it has one. One query."""
    return Tournament.objects.filter(practice_of=tournament).first()
