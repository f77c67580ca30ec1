"""Standings for organisers and desk staff, mounted in the "organiser" namespace.

Desk staff see the standings and download them; only the organiser turns the public pages on
and off. The day board (tables as tiles) and score entry for the desk are in ``scoring``.
"""

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from core.errors import ServiceError
from core.reports import PDF, XLSX
from standings.forms import HiddenFinishForm
from standings.page import standings_download, standings_page
from standings.read import staff_note
from standings.seasons.page import season_download, season_page, season_player_page
from tournaments.access import (
    desk_view,
    may_run_season,
    organiser_view,
    season_organiser_view,
    season_staff_view,
)
from tournaments.models import StaffRole
from tournaments.services.events import set_hidden_finish, set_public_pages
from tournaments.services.seasons import set_season_public


@desk_view
@require_safe
def standings(request, tournament):
    can_publish = getattr(request, "tournament_role", None) == StaffRole.ORGANISER
    return standings_page(request, tournament, namespace="organiser", can_publish=can_publish)


@desk_view
@require_safe
def standings_pdf(request, tournament):
    return standings_download(request, tournament, PDF, public=False)


@desk_view
@require_safe
def standings_xlsx(request, tournament):
    return standings_download(request, tournament, XLSX, public=False)


@organiser_view
@require_POST
def public_pages_toggle(request, tournament):
    on = request.POST.get("public_pages") == "on"
    # Back to the page the switch was on: the overview's or the standings' (a fixed choice, never
    # an address taken from the request).
    back = (
        "organiser:tournament" if request.POST.get("from") == "overview" else "organiser:standings"
    )
    try:
        set_public_pages(tournament, on)
    except ServiceError as refusal:
        messages.error(request, str(refusal))
        return redirect(back, tournament.slug)
    messages.success(
        request,
        "Standings and the projector are now public."
        if on
        else "Public pages are off: only staff can see standings.",
    )
    return redirect(back, tournament.slug)


@organiser_view
@require_POST
def hidden_finish(request, tournament):
    """Hide the public standings after a game, or reveal them (the "reveal" button)."""
    back = f"{reverse('organiser:standings', args=[tournament.slug])}#hidden-finish"
    if request.POST.get("reveal"):
        changed = set_hidden_finish(tournament, None, None, by=request.user)
        messages.success(request, REVEALED if changed else "Nothing was hidden.")
        return redirect(back)
    form = HiddenFinishForm(tournament.rules, request.POST)
    if not form.is_valid():
        messages.error(request, f"Nothing changed. {form.first_error()}")
        return redirect(back)
    try:
        changed = set_hidden_finish(
            tournament, form.cleaned_data["day"], form.cleaned_data["game"], by=request.user
        )
    except ServiceError as error:
        messages.error(request, f"Nothing changed. {error}")
        return redirect(back)
    note = staff_note(tournament)
    messages.success(request, note if changed else f"Nothing changed. {note}")
    return redirect(back)


REVEALED = "The standings are revealed: public pages and the projector show every game again."


# --- Seasons ---------------------------------------------------------------------------------


@season_staff_view
@require_safe
def season(request, season):
    return season_page(
        request, season, namespace="organiser", can_run=may_run_season(request.user, season)
    )


@season_staff_view
@require_safe
def season_player(request, season, player_id):
    return season_player_page(request, season, player_id, namespace="organiser")


@season_staff_view
@require_safe
def season_pdf(request, season):
    return season_download(request, season, PDF, namespace="organiser")


@season_staff_view
@require_safe
def season_xlsx(request, season):
    return season_download(request, season, XLSX, namespace="organiser")


@season_organiser_view
@require_POST
def season_public_toggle(request, season):
    on = request.POST.get("public_pages") == "on"
    set_season_public(season, on)
    messages.success(
        request,
        "The season page is now public (while every event in it is public)."
        if on
        else "The season page is now for staff only.",
    )
    return redirect("organiser:season", season.slug)
