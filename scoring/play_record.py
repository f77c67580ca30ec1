"""Scoring's answers to what tournaments asks about play (``tournaments.hooks.PlayRecord``).

Tournaments may not name scoring's models or the relations they add to its tables, so every
question about sheets goes through this one object, registered by ``ScoringConfig.ready``.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Exists, OuterRef, QuerySet

from scoring import selectors
from scoring.models import GameSheet, Score
from tournaments.models import Entry, Table


class SheetPlayRecord:
    """Play as the score sheets record it. Each answer is one query, or none (a queryset)."""

    def tables_with_scores(self, tables: QuerySet[Table]) -> QuerySet[Table]:
        # Any sheet at all, whatever its state: the roster locks at the first score typed, and
        # a rejected sheet was typed too. Exists keeps one row per table, where a join would
        # repeat a table once per sheet.
        return tables.filter(Exists(GameSheet.objects.filter(table=OuterRef("pk"))))

    def last_game_entered(self, table: Table) -> int:
        return selectors.last_game_entered(table)

    def finished_games(self, table: Table) -> set[int]:
        return selectors.finished_games(table)

    def scores_by_game(self, table: Table) -> dict[int, set[int]]:
        return selectors.scores_by_game(table)

    def scores_entered_since(self, entries: QuerySet[Entry], since: datetime) -> bool:
        # entered_at is each version's own: a correction typed after the merge is a new sheet
        # entered then, and counts as playing again as much as a first entry does.
        return Score.objects.filter(entry__in=entries, sheet__entered_at__gt=since).exists()

    def entry_games(self, entry: Entry) -> dict[int, list[dict]]:
        return selectors.entry_games(entry)
