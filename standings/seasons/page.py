"""The season pages (standings and a player's season) and downloads, for both the staff and
the public namespace: the views only check who may see them and call these."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from core.reports import FileFormat, report_response
from standings.page import with_params
from standings.seasons.read import (
    SeasonStandings,
    player_season,
    season_rank_label,
    season_standings,
)
from standings.seasons.report import season_report
from standings.seasons.tables import season_table
from tournaments.access import may_see_season


def visible_standings(request, season, *, public: bool) -> SeasonStandings:
    """The season's standings, or 404 on a public page of a season that is not public (to
    anyone who may not see its staff pages)."""
    result = season_standings(season, public=public)
    if public and not result.is_public and not may_see_season(request.user, season):
        raise Http404("No such season.")
    return result


def season_page(request, season, *, namespace: str, can_run: bool = False):
    result = visible_standings(request, season, public=namespace == "public")

    def player_url(player_id: int) -> str:
        return reverse(f"{namespace}:season_player", args=[season.slug, player_id])

    query = request.GET.get("q", "").strip()
    all_columns = request.GET.get("columns") == "all"
    return render(
        request,
        "standings/season.html",
        {
            "season": season,
            "result": result,
            "table": season_table(result, request, query, player_url),
            "query": query,
            "sort": request.GET.get("sort", ""),
            "organiser_page": namespace == "organiser",
            "can_run": can_run,
            "all_columns": all_columns,
            "columns_url": with_params(request, columns=None if all_columns else "all"),
            "pdf_url": reverse(f"{namespace}:season_pdf", args=[season.slug]),
            "xlsx_url": reverse(f"{namespace}:season_xlsx", args=[season.slug]),
            "public_url": reverse("public:season", args=[season.slug]),
        },
    )


def season_player_page(request, season, player_id: int, *, namespace: str):
    result = visible_standings(request, season, public=namespace == "public")
    sessions = player_season(result, player_id)
    row = result.row_of(player_id)
    if sessions is None or row is None:
        raise Http404("No such player in this season.")
    return render(
        request,
        "standings/season_player.html",
        {
            "season": season,
            "result": result,
            "row": row,
            "rank": season_rank_label(row),
            "average": "" if row.average is None else f"{float(row.average):.2f}",
            # Ranked by average, but too few sessions for the season's minimum yet.
            "short_of_minimum": season.best_of is None and row.attended < season.min_sessions,
            "sessions": sessions,
            "standings_url": reverse(f"{namespace}:season", args=[season.slug]),
        },
    )


def season_download(request, season, file_format: FileFormat, *, namespace: str):
    result = visible_standings(request, season, public=namespace == "public")
    return report_response(season_report(result), file_format)
