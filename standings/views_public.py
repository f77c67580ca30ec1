"""Standings and the projector board for players and spectators, in the "public" namespace.

Every view here is a ``public_view``: read-only (GET and HEAD only), and 404 when the organiser
has closed the public pages.
"""

from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from core.compression import compress_public_page
from core.reports import PDF, XLSX
from standings.columns import (
    CLUB_COLUMNS,
    Output,
    club_lines,
    html_cells,
    html_header,
    player_columns,
)
from standings.page import (
    shown_last_change,
    standings_download,
    standings_or_400,
    standings_page,
)
from standings.player_story import player_story
from standings.race import race_chart
from standings.read import (
    Standings,
    marks_legend,
    public_standings,
    rank_label,
)
from standings.seasons.page import season_download, season_page, season_player_page
from standings.tables import NOBODY_RANKED
from tournaments.access import public_view, season_public_view

PROJECTOR_ROWS = 15
PROJECTOR_SECONDS = 30


@compress_public_page
@public_view
def standings(request, tournament):
    return standings_page(request, tournament, namespace="public", can_publish=False)


@compress_public_page
@public_view
def player(request, tournament, number):
    """One player's event: their table each day, each game, their rank as it went."""
    result = public_standings(tournament)
    story = player_story(result, number)
    if story is None:
        raise Http404("No player with that number in this event.")
    return render(
        request,
        "standings/player.html",
        {
            "tournament": tournament,
            "result": result,
            "story": story,
            "rank": rank_label(story.row) or "withdrawn",
            "standings_url": reverse("public:standings", args=[tournament.slug]),
        },
    )


@public_view
def standings_pdf(request, tournament):
    return standings_download(request, tournament, PDF, public=True)


@public_view
def standings_xlsx(request, tournament):
    return standings_download(request, tournament, XLSX, public=True)


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
        columns = player_columns(
            result.day_numbers, result.tournament.rules.sessions_per_day
        ).for_output(Output.PROJECTOR)
        lines = [
            ("withdrawn" if row.rank is None else "", row) for row in pages.page(screen).object_list
        ]
    return {
        "headings": html_header(columns, Output.PROJECTOR),
        "rows": [(css, html_cells(columns, row, Output.PROJECTOR)) for css, row in lines],
    }


def _screens(result: Standings, pages: Paginator) -> list[str]:
    """The board's cycle: each page of players, the clubs, then the race chart."""
    screens = ["players"] * pages.num_pages
    if result.clubs:
        screens.append("clubs")
    if any(row.rank is not None for row in result.rows):
        screens.append("chart")
    return screens or ["players"]


@compress_public_page
@public_view
def projector(request, tournament):
    """A wall board: one screen at a time (players, clubs, the race), moving on by itself."""
    result = standings_or_400(request, tournament, public=True)
    if isinstance(result, HttpResponse):
        return result
    rows = _int_param(request, "rows", PROJECTOR_ROWS, 5, 40)
    seconds = _int_param(request, "seconds", PROJECTOR_SECONDS, 2, 600)
    pages = Paginator(result.rows, rows)
    cycle = _screens(result, pages)
    screen = (_int_param(request, "page", 1, 1, 10**6) - 1) % len(cycle) + 1
    kind = cycle[screen - 1]
    # A default (mid-day) view is not carried to the next screen: it moves on by itself as
    # the tables finish.
    cut: dict[str, object] = {} if result.default_view else {**result.cut.as_params()}
    if result.flight:
        cut["flight"] = result.flight  # a board of one flight stays on it

    def screen_url(number):
        params = {**cut, "page": number}
        if rows != PROJECTOR_ROWS:
            params["rows"] = rows
        if seconds != PROJECTOR_SECONDS:
            params["seconds"] = seconds
        return f"{request.path}?{urlencode(params)}"

    return render(
        request,
        "standings/projector.html",
        {
            "tournament": tournament,
            "result": result,
            "board": _board_table(result, screen, pages) if kind != "chart" else None,
            "chart": race_chart(result) if kind == "chart" else "",
            "board_id": f"board-{kind}",
            "empty_text": NOBODY_RANKED,
            "showing": kind,
            "screen": screen,
            "screens": len(cycle),
            "seconds": seconds,
            "last_changed": shown_last_change(tournament, result),
            "legend": marks_legend(result, brief=True),
            "next_url": screen_url(screen % len(cycle) + 1),
            "previous_url": screen_url((screen - 2) % len(cycle) + 1),
        },
    )


# --- Seasons: public only while the season and every event in it are (see season_page) -------


@compress_public_page
@season_public_view
def season(request, season):
    return season_page(request, season, namespace="public")


@compress_public_page
@season_public_view
def season_player(request, season, player_id):
    return season_player_page(request, season, player_id, namespace="public")


@season_public_view
def season_pdf(request, season):
    return season_download(request, season, PDF, namespace="public")


@season_public_view
def season_xlsx(request, season):
    return season_download(request, season, XLSX, namespace="public")
