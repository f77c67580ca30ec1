"""Who may see and do what. Every organiser, desk and public view goes through here."""

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from tournaments.models import Season, SeasonEvent, StaffRole, Tournament


class CommandLine:
    """Whoever runs a management command at the laptop. They hold the database itself, so they
    act as an organiser of every event; services name them explicitly instead of taking a
    missing user to mean it."""

    pk = None
    is_authenticated = True
    is_active = True
    is_superuser = True

    def get_username(self) -> str:
        return "command line"

    def __str__(self) -> str:
        return "the command line"


COMMAND_LINE = CommandLine()


def account_of(actor):
    """The user row to store as who did something: None for the command line or a table link."""
    return None if actor is None or isinstance(actor, CommandLine) else actor


def role_in(user, tournament: Tournament) -> str | None:
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    if user.is_superuser:
        return StaffRole.ORGANISER
    return (
        StaffRole.objects.filter(tournament=tournament, user=user)
        .values_list("role", flat=True)
        .first()
    )


def tournaments_for(user):
    queryset = Tournament.objects.all()
    if user.is_superuser:
        return queryset
    return queryset.filter(staff__user=user).distinct()


def staff_view(*, organiser_only: bool):
    """Wrap a view taking (request, tournament, ...): login, then a role in that tournament.

    Desk staff may enter and confirm scores; only organisers change settings, seating or
    confirmed scores. A user with no role sees 404, so slugs of private events do not leak.
    """

    def decorator(view):
        @login_required
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            tournament = get_object_or_404(Tournament.objects.select_related("rules"), slug=slug)
            role = role_in(request.user, tournament)
            if role is None:
                raise Http404("No such tournament.")
            if organiser_only and role != StaffRole.ORGANISER:
                raise PermissionDenied("Only an organiser can do that.")
            request.tournament_role = role
            return view(request, tournament, *args, **kwargs)

        return wrapper

    return decorator


organiser_view = staff_view(organiser_only=True)
desk_view = staff_view(organiser_only=False)


def public_view(view):
    """Wrap a read-only view taking (request, tournament, ...) for events with public pages on.

    Public pages never change anything, so only GET and HEAD reach them.
    """

    @wraps(view)
    @require_safe
    def wrapper(request, slug, *args, **kwargs):
        tournament = get_object_or_404(Tournament.objects.select_related("rules"), slug=slug)
        if not tournament.public_pages and role_in(request.user, tournament) is None:
            raise Http404("No such tournament.")
        if tournament.is_practice:  # staff try the table links, never the public pages
            raise Http404("A practice event has no public pages.")
        return view(request, tournament, *args, **kwargs)

    return wrapper


def may_see_season(user, season) -> bool:
    """Staff pages of a season: a superuser, or someone with a role in every one of its events
    (a season's standings show every event's scores). Two queries."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    events = set(SeasonEvent.objects.filter(season=season).values_list("tournament_id", flat=True))
    staffed = set(
        StaffRole.objects.filter(user=user, tournament_id__in=events).values_list(
            "tournament_id", flat=True
        )
    )
    if not events:
        # A new season, before its first event: only whoever made it (superusers above).
        return season.created_by_id is not None and season.created_by_id == user.pk
    return staffed == events


def may_run_season(user, season) -> bool:
    """Changing a season (its events, its public page): a superuser, or an organiser of every
    one of its events. Two queries."""
    if not may_see_season(user, season):
        return False
    if user.is_superuser:
        return True
    events = SeasonEvent.objects.filter(season=season).values("tournament_id")
    return not (
        StaffRole.objects.filter(user=user, tournament_id__in=events)
        .exclude(role=StaffRole.ORGANISER)
        .exists()
    )


def season_staff_view(view):
    """Wrap a view taking (request, season, ...): login, then :func:`may_see_season`; anyone
    else sees 404, so a season's slug does not leak."""

    @login_required
    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        season = get_object_or_404(Season, slug=slug)
        if not may_see_season(request.user, season):
            raise Http404("No such season.")
        return view(request, season, *args, **kwargs)

    return wrapper


def season_public_view(view):
    """Wrap a read-only view taking (request, season, ...); the view itself checks that the
    season is public (it needs the season's events to know), so only GET and HEAD here."""

    @wraps(view)
    @require_safe
    def wrapper(request, slug, *args, **kwargs):
        return view(request, get_object_or_404(Season, slug=slug), *args, **kwargs)

    return wrapper


def season_organiser_view(view):
    """Like :func:`season_staff_view`, and then :func:`may_run_season` (403 for other staff)."""

    @season_staff_view
    @wraps(view)
    def wrapper(request, season, *args, **kwargs):
        if not may_run_season(request.user, season):
            raise PermissionDenied("Only an organiser of every event in the season can do that.")
        return view(request, season, *args, **kwargs)

    return wrapper
