"""The standings page and its downloads, as the organiser's and the public's views both serve them.

The role views decide who may ask and what the page offers them (the organiser's navigation,
the switch for the public pages); everything here reads through ``scoring.standings.standings``
and never writes.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.urls import reverse

from core.reports import FileFormat, report_response

from .standings import TIE_LEGEND, CutError, Standings, parse_cut, standings
from .standings_report import standings_report
from .standings_tables import ClubTable, standings_table

PER_PAGE = 100


def standings_or_400(request, tournament) -> Standings | HttpResponse:
    """The standings at the cut the query string asks for, or a plain 400 saying what is wrong."""
    try:
        return standings(tournament, parse_cut(tournament.rules, request.GET))
    except CutError as error:
        return HttpResponseBadRequest(str(error), content_type="text/plain; charset=utf-8")


def standings_download(request, tournament, file_format: FileFormat) -> HttpResponse:
    result = standings_or_400(request, tournament)
    if isinstance(result, HttpResponse):
        return result
    return report_response(standings_report(result), file_format)


def _other_paging_url(request, show_all: bool) -> str:
    """This page with the other choice of "100 a page" or "every player", from the first page."""
    params = request.GET.copy()
    params.pop("page", None)
    if show_all:
        params.pop("per_page", None)
    else:
        params["per_page"] = "all"
    return f"?{params.urlencode()}"


def standings_page(request, tournament, *, namespace: str, can_publish: bool) -> HttpResponse:
    """The page in the URL namespace given: its download links stay in that namespace."""
    result = standings_or_400(request, tournament)
    if isinstance(result, HttpResponse):
        return result
    query = request.GET.get("q", "").strip()
    show_all = request.GET.get("per_page") == "all"
    cut_query = urlencode(result.cut.as_params())
    rules = tournament.rules

    def url(name):
        address = reverse(f"{namespace}:{name}", args=[tournament.slug])
        return f"{address}?{cut_query}" if cut_query else address

    return render(
        request,
        "scoring/standings.html",
        {
            "tournament": tournament,
            "result": result,
            "table": standings_table(result, request, query, None if show_all else PER_PAGE),
            "clubs": ClubTable(result),
            "query": query,
            "show_all": show_all,
            "per_page": PER_PAGE,
            "per_page_url": _other_paging_url(request, show_all),
            "legend": TIE_LEGEND,
            "organiser_page": namespace == "organiser",
            "can_publish": can_publish,
            "public_pages": tournament.public_pages,
            "day_choices": [(day, day == result.cut.day) for day in range(1, rules.days + 1)],
            "game_choices": [
                (game, game == result.cut.game) for game in range(1, rules.games_per_day + 1)
            ],
            "pdf_url": url("standings_pdf"),
            "xlsx_url": url("standings_xlsx"),
            "projector_url": reverse("public:projector", args=[tournament.slug]),
        },
    )
