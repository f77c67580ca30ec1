"""A session's results at its tables, for a movement (``tournaments.hooks.SessionTotals``).

Each player's total is the day column of the one standings read, so a movement moves players
by the totals the standings show, credits for games not played and late arrivals included;
the tie-break record (games gone out, worst game) is the session's own.
"""

from __future__ import annotations

from collections import defaultdict

from domain.movement import SessionScore
from scoring.models import GameSheet, Score, SheetState, UnplayedGame
from standings.read import Cut, standings
from tournaments.hooks import SessionResults
from tournaments.models import Day, Table, Tournament


class StandingsSessionTotals:
    def session_results(self, day: Day) -> SessionResults:
        tournament = Tournament.objects.select_related("rules").get(pk=day.tournament_id)
        result = standings(tournament, Cut(day=day.number))
        column = result.day_numbers.index(day.number)
        outs: dict[int, int] = defaultdict(int)
        worst: dict[int, int] = {}
        confirmed = Score.objects.filter(sheet__table__day=day, sheet__state=SheetState.CONFIRMED)
        for entry_id, points, out in confirmed.values_list("entry_id", "points", "sheet__went_out"):
            outs[entry_id] += out == entry_id
            worst[entry_id] = max(points, worst.get(entry_id, points))
        scores = {
            row.record.entry_id: SessionScore(
                row.record.day_totals[column],
                outs[row.record.entry_id],
                worst.get(row.record.entry_id),
            )
            for row in result.rows
        }
        not_entered, to_confirm = _unsettled(day, tournament.rules.games_per_day)
        return SessionResults(scores=scores, not_entered=not_entered, to_confirm=to_confirm)


def _unsettled(day: Day, games: int) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """By table: the games neither entered nor marked not played, and those entered and
    waiting for the desk."""
    sheets = GameSheet.objects.filter(
        table__day=day, state__in=[SheetState.ENTERED, SheetState.CONFIRMED]
    ).values_list("table__number", "game__number", "state")
    state = {(table, game): kind for table, game, kind in sheets}
    unplayed = set(
        UnplayedGame.objects.filter(table__day=day).values_list("table__number", "game__number")
    )
    not_entered: dict[int, list[int]] = {}
    to_confirm: dict[int, list[int]] = {}
    for table in Table.objects.filter(day=day).values_list("number", flat=True):
        for game in range(1, games + 1):
            kind = state.get((table, game))
            if kind is None and (table, game) not in unplayed:
                not_entered.setdefault(table, []).append(game)
            elif kind == SheetState.ENTERED:
                to_confirm.setdefault(table, []).append(game)
    return not_entered, to_confirm
