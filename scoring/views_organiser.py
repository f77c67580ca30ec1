"""Standings for organisers and desk staff, mounted in the "organiser" namespace.

Desk staff see the standings and download them; only the organiser turns the public pages on
and off. Score entry for the desk is in ``views_desk``.
"""

from django.contrib import messages
from django.shortcuts import redirect
from django.views.decorators.http import require_POST, require_safe

from core.reports import PDF, XLSX
from tournaments.access import desk_view, organiser_view
from tournaments.models import StaffRole
from tournaments.services.events import set_public_pages

from .standings_page import standings_download, standings_page


@desk_view
@require_safe
def standings(request, tournament):
    can_publish = getattr(request, "tournament_role", None) == StaffRole.ORGANISER
    return standings_page(request, tournament, namespace="organiser", can_publish=can_publish)


@desk_view
@require_safe
def standings_pdf(request, tournament):
    return standings_download(request, tournament, PDF)


@desk_view
@require_safe
def standings_xlsx(request, tournament):
    return standings_download(request, tournament, XLSX)


@organiser_view
@require_POST
def public_pages_toggle(request, tournament):
    on = request.POST.get("public_pages") == "on"
    set_public_pages(tournament, on)
    messages.success(
        request,
        "Standings and the projector are now public."
        if on
        else "Public pages are off: only staff can see standings.",
    )
    return redirect("organiser:standings", tournament.slug)
