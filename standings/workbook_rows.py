"""The rows a standings workbook lists beside the standings: every live score in play order,
and every seat of every day. Reads of their own (the standings read, standings.read, needs
neither), for the workbook and its tests."""

from __future__ import annotations

from django.db.models import Q

from scoring.models import LIVE_STATES, Score, SheetState
from tournaments.models import Seat, Tournament


def score_rows(tournament: Tournament, hidden_from: tuple[int, int] | None = None) -> list[tuple]:
    """Every player's score on every live sheet (entered or confirmed), in play order; with
    ``hidden_from`` (day, game), only those of the games before it.

    (day, table, game, engine used, player number, name, points, went out, state label).
    """
    states = dict(SheetState.choices)
    rows = (
        Score.objects.filter(sheet__state__in=LIVE_STATES, sheet__table__day__tournament=tournament)
        .order_by(
            "sheet__table__day__number",
            "sheet__table__number",
            "sheet__game__number",
            "entry__number",
        )
        .values_list(
            "sheet__table__day__number",
            "sheet__table__number",
            "sheet__game__number",
            "sheet__engine_used",
            "entry__number",
            "entry__player__name",
            "points",
            "sheet__went_out_id",
            "entry_id",
            "sheet__state",
        )
    )
    if hidden_from is not None:
        day, game = hidden_from
        rows = rows.filter(
            Q(sheet__table__day__number__lt=day)
            | Q(sheet__table__day__number=day, sheet__game__number__lt=game)
        )
    return [
        (day, table, game, engine, number, name, points, went_out == entry, states[state])
        for day, table, game, engine, number, name, points, went_out, entry, state in rows
    ]


def seating_rows(tournament: Tournament) -> list[tuple]:
    """(day, table, player number, name) for every seat of every day."""
    return list(
        Seat.objects.filter(day__tournament=tournament)
        .order_by("day__number", "table__number", "position")
        .values_list("day__number", "table__number", "entry__number", "entry__player__name")
    )
