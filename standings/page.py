"""The standings page and its downloads, as the organiser's and the public's views both serve them.

The role views decide who may ask and what the page offers them (the organiser's navigation,
the switch for the public pages); everything here reads through ``standings.read.standings``
and never writes.
"""

from __future__ import annotations

import hashlib
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.urls import reverse

from core.reports import FileFormat, report_response
from standings.forms import hidden_finish_form
from standings.late import late_legend
from standings.race import race_chart
from standings.read import (
    DEFAULT_VIEW_NOTE,
    TIE_LEGEND,
    CutError,
    Standings,
    last_changed,
    requested_standings,
    short_legend,
    staff_note,
)
from standings.report import standings_report
from standings.tables import ClubTable, standings_table

PER_PAGE = 100
REFRESH_SECONDS = 30


def standings_or_400(request, tournament, *, public: bool) -> Standings | HttpResponse:
    """The standings at the cut the query string asks for (``public``: never past a hidden
    finish), or a plain 400 saying what is wrong."""
    try:
        return requested_standings(tournament, request.GET, public=public)
    except CutError as error:
        return HttpResponseBadRequest(str(error), content_type="text/plain; charset=utf-8")


def standings_download(
    request, tournament, file_format: FileFormat, *, public: bool
) -> HttpResponse:
    result = standings_or_400(request, tournament, public=public)
    if isinstance(result, HttpResponse):
        return result
    return report_response(standings_report(result), file_format)


MAX_PICKS = 5


def picked_players(request, result: Standings) -> tuple[list[int], str]:
    """Player numbers the viewer added to the race chart (``?pick=``), and what was wrong with
    any that could not be drawn, in words to show next to the field."""
    numbers = {row.record.player_number: row for row in result.rows}
    picked, problems = [], []
    for raw in request.GET.getlist("pick")[: MAX_PICKS * 2]:
        raw = raw.strip().lstrip("#")
        if not raw:
            continue
        if not raw.isdigit() or int(raw) not in numbers:
            problems.append(f'There is no Player ID "{raw[:20]}" in these standings.')
        elif numbers[int(raw)].rank is None:
            problems.append(f"Player {raw} has withdrawn and is not in the race.")
        elif int(raw) not in picked:
            picked.append(int(raw))
    if len(picked) > MAX_PICKS:
        problems.append(f"The chart shows up to {MAX_PICKS} extra players; the first are shown.")
    return picked[:MAX_PICKS], " ".join(problems)


def _other_paging_url(request, show_all: bool) -> str:
    """This page with the other choice of "100 a page" or "every player", from the first page."""
    params = request.GET.copy()
    params.pop("page", None)
    if show_all:
        params.pop("per_page", None)
    else:
        params["per_page"] = "all"
    return f"?{params.urlencode()}"


def _player_url(tournament):
    """Player number -> their public page, without a URL reversal per row."""
    template = reverse("public:player", args=[tournament.slug, 1])
    head = template[: template.rindex("/1/")]
    return lambda number: f"{head}/{number}/"


def with_params(request, **changes) -> str:
    """This page's address with some parameters set (None removes one)."""
    params = request.GET.copy()
    for key, value in changes.items():
        params.pop(key, None)
        if value is not None:
            params[key] = value
    return f"?{params.urlencode()}"


def _every_game_url(request) -> str:
    """This page with "all days, all games" chosen: every game entered, not the default view."""
    params = request.GET.copy()
    params["after_day"], params["after_game"] = "", ""
    params.pop("page", None)
    return f"?{params.urlencode()}"


def _version(changed, result) -> str:
    """What the refresh script compares: a new score, a new state or new tie-breaks (which may
    change at any time) change it. Behind a hidden finish the time of the last save would tell
    that a hidden game was saved, so the version is the shown totals instead."""
    stamp = changed.isoformat() if changed else ""
    if result.hidden_from:
        shown = [(row.record.entry_id, row.total, row.record.games_played) for row in result.rows]
        stamp = hashlib.sha256(repr(shown).encode()).hexdigest()[:16]
    return f"{stamp}|{result.status_line}|{' '.join(result.tournament.rules.tie_breaks)}"


def shown_last_change(tournament, result: Standings, changed=None):
    """When the scores last changed (``changed``, when the caller has read it), as a page may
    say it: not behind a hidden finish."""
    if result.hidden_from:
        return None
    return changed if changed is not None else last_changed(tournament)


def _cut_choices(result: Standings) -> dict:
    """The "after day / after game" menus, with the view's cut chosen."""
    rules = result.tournament.rules
    return {
        "day_choices": [(day, day == result.cut.day) for day in range(1, rules.days + 1)],
        "game_choices": [
            (game, game == result.cut.game) for game in range(1, rules.games_per_day + 1)
        ],
    }


def _kept_choices(request, result: Standings) -> dict:
    """The flight menu, and what the page's forms send again so that a new choice keeps the
    others: the sort, and the cut and flight of the race chart's form."""
    return {
        "flight_choices": _flight_choices(result),
        "sort": request.GET.get("sort", ""),
        "cut_params": [
            (k, request.GET[k]) for k in ("after_day", "after_game", "flight") if k in request.GET
        ],
    }


def _flight_choices(result: Standings) -> list[tuple[str, str, bool]]:
    """(value, words, chosen) of the flight menu: every player first, then each flight; none
    for an event without flights."""
    flights = result.tournament.rules.flights
    if not flights:
        return []
    every = ("", "All players", not result.flight)
    return [every, *((name, f"Flight {name}", name == result.flight) for name in flights)]


def standings_page(request, tournament, *, namespace: str, can_publish: bool) -> HttpResponse:
    """The page in the URL namespace given: its download links stay in that namespace, and
    the public one never shows past a hidden finish."""
    result = standings_or_400(request, tournament, public=namespace == "public")
    if isinstance(result, HttpResponse):
        return result
    query = request.GET.get("q", "").strip()
    picked, pick_error = picked_players(request, result)
    changed = last_changed(tournament)
    all_columns = request.GET.get("columns") == "all"
    show_all = request.GET.get("per_page") == "all"
    cut_query = urlencode(result.params)

    def url(name):
        address = reverse(f"{namespace}:{name}", args=[tournament.slug])
        return f"{address}?{cut_query}" if cut_query else address

    return render(
        request,
        "standings/standings.html",
        {
            "tournament": tournament,
            "result": result,
            "table": standings_table(
                result, request, query, None if show_all else PER_PAGE, _player_url(tournament)
            ),
            "clubs": ClubTable(result),
            "query": query,
            "show_all": show_all,
            "per_page": PER_PAGE,
            "per_page_url": _other_paging_url(request, show_all),
            "legend": TIE_LEGEND + short_legend(result) + late_legend(result),
            "organiser_page": namespace == "organiser",
            "can_publish": can_publish,
            "public_pages": tournament.public_pages,
            **_cut_choices(result),
            **_kept_choices(request, result),
            "pdf_url": url("standings_pdf"),
            "xlsx_url": url("standings_xlsx"),
            "projector_url": reverse("public:projector", args=[tournament.slug])
            + (f"?{urlencode({'flight': result.flight})}" if result.flight else ""),
            "race_chart": race_chart(result, picked),
            "picked": picked,
            "pick_error": pick_error,
            "last_changed": shown_last_change(tournament, result, changed),
            "staff_note": staff_note(tournament) if namespace == "organiser" else "",
            "hidden_finish": hidden_finish_form(tournament) if can_publish else None,
            "refresh_seconds": getattr(settings, "STANDINGS_REFRESH_SECONDS", REFRESH_SECONDS),
            "version": _version(changed, result),
            "all_columns": all_columns,
            "columns_url": with_params(request, columns=None if all_columns else "all"),
            "unpick_url": with_params(request, pick=None),
            "every_game_url": _every_game_url(request),
            "default_view_note": DEFAULT_VIEW_NOTE.format(cut=result.cut_label),
        },
    )
