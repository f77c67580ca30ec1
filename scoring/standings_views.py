"""Standings pages, downloads and the projector board, for organisers and for the public.

Every view reads through ``scoring.standings.standings``. Public views are read-only (GET and
HEAD only, like every ``public_view``) and 404 when the organiser has closed the public pages;
the desk's standings views are read-only too.
"""
from urllib.parse import urlencode

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from tournaments.access import desk_view, organiser_view, public_view
from tournaments.models import StaffRole
from tournaments.services.events import set_public_pages

from .standings import (
    TIE_LEGEND, WITHDRAWN_LEGEND, WITHDRAWN_MARK, CutError, parse_cut, rank_label, standings,
)
from .standings_pdf import render_standings_pdf
from .standings_xlsx import standings_workbook
from .tables import ClubTable, club_rows, standings_table

PER_PAGE = 100
PROJECTOR_ROWS = 15
PROJECTOR_SECONDS = 30


def _int_param(request, name: str, default: int, low: int, high: int) -> int:
    try:
        return min(max(int(request.GET.get(name, default)), low), high)
    except ValueError:
        return default


def _standings_or_400(request, tournament):
    try:
        return standings(tournament, parse_cut(tournament.rules, request.GET)), None
    except CutError as error:
        return None, HttpResponseBadRequest(str(error), content_type="text/plain; charset=utf-8")


def _standings_page(request, tournament, namespace: str):
    result, error = _standings_or_400(request, tournament)
    if error:
        return error
    query = request.GET.get("q", "").strip()
    show_all = request.GET.get("per_page") == "all"
    table = standings_table(result, request, query, None if show_all else PER_PAGE)
    cut_query = urlencode(result.cut.as_params())
    other_paging = request.GET.copy()
    other_paging.pop("page", None)
    if show_all:
        other_paging.pop("per_page", None)
    else:
        other_paging["per_page"] = "all"
    rules = tournament.rules

    def url(name):
        address = reverse(f"{namespace}:{name}", args=[tournament.slug])
        return f"{address}?{cut_query}" if cut_query else address

    return render(request, "scoring/standings.html", {
        "tournament": tournament,
        "result": result,
        "table": table,
        "clubs": ClubTable(club_rows(result)),
        "query": query,
        "show_all": show_all,
        "per_page": PER_PAGE,
        "per_page_url": f"?{other_paging.urlencode()}",
        "legend": TIE_LEGEND,
        "organiser_page": namespace == "organiser",
        "can_publish": getattr(request, "tournament_role", None) == StaffRole.ORGANISER,
        "day_choices": range(1, rules.days + 1),
        "game_choices": range(1, rules.games_per_day + 1),
        "pdf_url": url("standings_pdf"),
        "xlsx_url": url("standings_xlsx"),
        "projector_url": reverse("public:projector", args=[tournament.slug]),
    })


def _filename(result, extension: str) -> str:
    cut = "-".join(f"{k.replace('_', '-')}-{v}" for k, v in result.cut.as_params().items())
    return f"{result.tournament.slug}-standings{'-' + cut if cut else ''}.{extension}"


def _pdf(request, tournament):
    result, error = _standings_or_400(request, tournament)
    if error:
        return error
    return HttpResponse(
        render_standings_pdf(result), content_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{_filename(result, "pdf")}"'},
    )


def _xlsx(request, tournament):
    result, error = _standings_or_400(request, tournament)
    if error:
        return error
    return HttpResponse(
        standings_workbook(result),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        headers={"Content-Disposition": f'attachment; filename="{_filename(result, "xlsx")}"'},
    )


@desk_view
@require_safe
def organiser_standings(request, tournament):
    return _standings_page(request, tournament, "organiser")


@desk_view
@require_safe
def organiser_pdf(request, tournament):
    return _pdf(request, tournament)


@desk_view
@require_safe
def organiser_xlsx(request, tournament):
    return _xlsx(request, tournament)


@organiser_view
@require_POST
def public_pages_toggle(request, tournament):
    on = request.POST.get("public_pages") == "on"
    set_public_pages(tournament, on)
    messages.success(
        request,
        "Standings and the projector are now public." if on else
        "Public pages are off: only staff can see standings.",
    )
    return redirect("organiser:standings", tournament.slug)


@public_view
def public_standings(request, tournament):
    return _standings_page(request, tournament, "public")


@public_view
def public_pdf(request, tournament):
    return _pdf(request, tournament)


@public_view
def public_xlsx(request, tournament):
    return _xlsx(request, tournament)


@public_view
def projector(request, tournament):
    """A wall board: one screen of rows at a time, moving to the next screen by itself."""
    result, error = _standings_or_400(request, tournament)
    if error:
        return error
    rows = _int_param(request, "rows", PROJECTOR_ROWS, 5, 40)
    seconds = _int_param(request, "seconds", PROJECTOR_SECONDS, 2, 600)
    pages = Paginator(result.rows, rows)
    # Club standings get the last screen of the cycle; the board then starts again at page 1.
    screens = pages.num_pages + (1 if result.clubs else 0)
    screen = (_int_param(request, "page", 1, 1, 10**6) - 1) % screens + 1

    def screen_url(number):
        params = {**result.cut.as_params(), "page": number}
        if rows != PROJECTOR_ROWS:
            params["rows"] = rows
        if seconds != PROJECTOR_SECONDS:
            params["seconds"] = seconds
        return f"{request.path}?{urlencode(params)}"

    showing_clubs = screen > pages.num_pages
    player_rows = [] if showing_clubs else [
        (rank_label(row) or WITHDRAWN_MARK, row) for row in pages.page(screen).object_list
    ]
    return render(request, "scoring/projector.html", {
        "tournament": tournament,
        "result": result,
        "rows": player_rows,
        "clubs": club_rows(result) if showing_clubs else [],
        "showing_clubs": showing_clubs,
        "screen": screen,
        "screens": screens,
        "seconds": seconds,
        "legend": f"{TIE_LEGEND} {WITHDRAWN_LEGEND}",
        "next_url": screen_url(screen % screens + 1),
        "previous_url": screen_url((screen - 2) % screens + 1),
    })
