"""Writes for seasons: create one, add and remove its events, open its public page.

An event is in at most one season. Adding or removing an event changes the "earlier sessions"
of the events after it, so their stored repeat figures are refreshed in the same transaction.
"""

from django.db import transaction
from django.db.models import Max

from core.errors import ServiceError
from domain.season_ranking import MAX_MIN_SESSIONS, min_sessions_problem
from tournaments.models import Season, SeasonEvent, Tournament
from tournaments.services.events import slug_problem
from tournaments.services.seating import refresh_repeat_counts


def season_by_slug(slug: str) -> Season:
    season = Season.objects.filter(slug=slug).first()
    if season is None:
        raise ServiceError(f'There is no season with the slug "{slug}".', field="slug")
    return season


def _check_best_of(best_of: int | None) -> None:
    if best_of is not None and best_of < 1:
        raise ServiceError(
            f"Best of {best_of} sessions cannot rank anyone: give 1 or more, or leave it empty "
            "to rank by the average per game.",
            field="best_of",
        )
    if best_of is not None and best_of > MAX_MIN_SESSIONS:
        # The same bound as the minimum of sessions: above it a typo, and PostgreSQL's small
        # integer column would refuse it with an error page.
        raise ServiceError(
            f"Best of {best_of} sessions is more than a season holds: give 1 to "
            f"{MAX_MIN_SESSIONS}, or leave it empty to rank by the average per game.",
            field="best_of",
        )


def _check_min_sessions(min_sessions: int) -> None:
    problem = min_sessions_problem(min_sessions)
    if problem:
        raise ServiceError(problem, field="min_sessions")


@transaction.atomic
def create_season(
    *,
    slug: str,
    name: str,
    best_of: int | None = None,
    min_sessions: int = 1,
    avoid_earlier_pairings: bool = True,
    public_pages: bool = False,
    created_by=None,
) -> Season:
    """A new season; ``created_by`` alone (and superusers) sees it until its first event is
    added (None: superusers only, as for one made on the command line)."""
    name = " ".join((name or "").split())
    problem = slug_problem(slug)
    if problem:
        raise ServiceError(problem.replace("the event", "the season"), field="slug")
    if Season.objects.filter(slug=slug).exists():
        # Not "taken by another season": a private season's name is nobody else's to learn.
        raise ServiceError(
            f'The short name "{slug}" cannot be used for a new season; choose another.',
            field="slug",
        )
    if not name:
        raise ServiceError("Give the season a name, such as Spring season 2027.", field="name")
    _check_best_of(best_of)
    _check_min_sessions(min_sessions)
    return Season.objects.create(
        slug=slug,
        name=name,
        best_of=best_of,
        min_sessions=min_sessions,
        avoid_earlier_pairings=avoid_earlier_pairings,
        public_pages=public_pages,
        created_by=created_by,
    )


def set_season_ranking(season: Season, *, best_of: int | None, min_sessions: int) -> None:
    """How the season ranks: best N sessions, or the average per game over players with at
    least ``min_sessions`` sessions. Only the standings read these, so they may change at any
    time; nothing is stored when either is refused."""
    _check_best_of(best_of)
    _check_min_sessions(min_sessions)
    Season.objects.filter(pk=season.pk).update(best_of=best_of, min_sessions=min_sessions)
    season.best_of, season.min_sessions = best_of, min_sessions


def _events_or_refuse(season: Season, slugs: list[str]) -> list[Tournament]:
    if not slugs:
        raise ServiceError("Name at least one event to add.", field="events")
    if len(set(slugs)) != len(slugs):
        raise ServiceError("Each event can be added once; one is named twice.", field="events")
    found = {
        t.slug: t
        for t in Tournament.objects.filter(slug__in=slugs).select_related("season_event__season")
    }
    for slug in slugs:
        event = found.get(slug)
        if event is None:
            raise ServiceError(f'There is no tournament with the slug "{slug}".', field="events")
        if event.is_practice:
            raise ServiceError(
                f"{event.name} is a practice event: it counts in no season.", field="events"
            )
        place = getattr(event, "season_event", None)
        if place is not None and place.season_id == season.pk:
            raise ServiceError(
                f"{event.name} is already in {season.name} (event {place.position}).",
                field="events",
            )
        if place is not None:
            raise ServiceError(
                f"{event.name} is already in the season {place.season.name}; an event belongs "
                "to one season. Remove it from there first.",
                field="events",
            )
    return [found[slug] for slug in slugs]


@transaction.atomic
def add_events(season: Season, slugs: list[str], *, position: int | None = None) -> list[int]:
    """Add events in the order given, at the end or from ``position`` on (later events move
    down); returns their positions. Nothing is added when any of them cannot be."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    events = _events_or_refuse(season, slugs)
    last = SeasonEvent.objects.filter(season=season).aggregate(n=Max("position"))["n"] or 0
    if position is None:
        position = last + 1
    if not 1 <= position <= last + 1:
        raise ServiceError(
            f"{season.name} has {last} event{'' if last == 1 else 's'}: the position must be "
            f"1 to {last + 1}.",
            field="position",
        )
    _shift(season, from_position=position, by=len(events))
    SeasonEvent.objects.bulk_create(
        SeasonEvent(season=season, tournament=event, position=position + i)
        for i, event in enumerate(events)
    )
    # The first added event and every event after it now have other earlier sessions.
    refresh_repeat_counts(events[0], 1)
    return [position + i for i in range(len(events))]


def _shift(season: Season, *, from_position: int, by: int) -> None:
    """Move the events at ``from_position`` and after by ``by`` places, one row at a time in an
    order that never puts two of them on one position."""
    rows = SeasonEvent.objects.filter(season=season, position__gte=from_position)
    for row in rows.order_by("-position" if by > 0 else "position"):
        row.position += by
        row.save(update_fields=["position"])


@transaction.atomic
def remove_event(season: Season, slug: str) -> None:
    season = Season.objects.select_for_update().get(pk=season.pk)
    place = (
        SeasonEvent.objects.filter(season=season, tournament__slug=slug)
        .select_related("tournament")
        .first()
    )
    if place is None:
        raise ServiceError(f'{season.name} has no event with the slug "{slug}".', field="events")
    event, position = place.tournament, place.position
    place.delete()
    _shift(season, from_position=position + 1, by=-1)
    refresh_repeat_counts(event, 1)  # its own figures no longer count the season
    following = SeasonEvent.objects.filter(season=season, position=position).first()
    if following is not None:
        refresh_repeat_counts(following.tournament, 1)


def set_season_public(season: Season, on: bool) -> None:
    Season.objects.filter(pk=season.pk).update(public_pages=on)
    season.public_pages = on
