"""Standings and the projector board for players and spectators, in the "public" namespace.

Every view here is a ``public_view``: read-only (GET and HEAD only), and 404 when the organiser
has closed the public pages.
"""

from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render

from core.compression import compress_public_page
from core.reports import PDF, XLSX
from tournaments.access import public_view

from .standings import TIE_LEGEND, WITHDRAWN_LEGEND, Standings
from .standings_columns import (
    CLUB_COLUMNS,
    Output,
    club_lines,
    html_cells,
    html_header,
    player_columns,
)
from .standings_page import standings_download, standings_or_400, standings_page

PROJECTOR_ROWS = 15
PROJECTOR_SECONDS = 30


@compress_public_page
@public_view
def standings(request, tournament):
    return standings_page(request, tournament, namespace="public", can_publish=False)


@public_view
def standings_pdf(request, tournament):
    return standings_download(request, tournament, PDF)


@public_view
def standings_xlsx(request, tournament):
    return standings_download(request, tournament, XLSX)


def _int_param(request, name: str, default: int, low: int, high: int) -> int:
    try:
        return min(max(int(request.GET.get(name, default)), low), high)
    except ValueError:
        return default


def _board_table(result: Standings, screen: int, pages: Paginator) -> dict:
    """Headings and rows of the screen shown: a page of players, or the clubs after them."""
    lines: list[tuple[str, Any]]  # (row class, row)
    if screen > pages.num_pages:
        columns = CLUB_COLUMNS.for_output(Output.PROJECTOR)
        lines = [("", line) for line in club_lines(result)]
    else:
        columns = player_columns(result.day_numbers).for_output(Output.PROJECTOR)
        lines = [
            ("withdrawn" if row.rank is None else "", row) for row in pages.page(screen).object_list
        ]
    return {
        "headings": html_header(columns, Output.PROJECTOR),
        "rows": [(css, html_cells(columns, row, Output.PROJECTOR)) for css, row in lines],
    }


@compress_public_page
@public_view
def projector(request, tournament):
    """A wall board: one screen of rows at a time, moving to the next screen by itself."""
    result = standings_or_400(request, tournament)
    if isinstance(result, HttpResponse):
        return result
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
    return render(
        request,
        "scoring/projector.html",
        {
            "tournament": tournament,
            "result": result,
            "board": _board_table(result, screen, pages),
            "board_id": "board-clubs" if showing_clubs else "board-players",
            "empty_text": "No players yet.",
            "showing_clubs": showing_clubs,
            "screen": screen,
            "screens": screens,
            "seconds": seconds,
            "legend": f"{TIE_LEGEND} {WITHDRAWN_LEGEND}",
            "next_url": screen_url(screen % screens + 1),
            "previous_url": screen_url((screen - 2) % screens + 1),
        },
    )
