"""When a table's game is finished, read once for every page that asks: the day grid, the
day board and the standings' "after game" view.

A game is finished when the desk confirmed it or it was marked not played (scoring.unplayed):
a game not played holds back no table, no day and no standings.
"""

from __future__ import annotations

from collections.abc import Collection

from django.db.models import Exists, OuterRef

from scoring.models import LIVE_STATES, GameSheet, SheetState, UnplayedGame
from tournaments.models import Day, Table

# A day-grid cell of a game the table did not play (scoring.unplayed).
NOT_PLAYED = "not_played"
FINISHED = frozenset({SheetState.CONFIRMED, NOT_PLAYED})


def game_states(
    day_ids: Collection[int], table_ids: Collection[int] | None = None
) -> dict[int, dict[int, str]]:
    """Table id -> game number -> "entered", "confirmed" or NOT_PLAYED, for every table of the
    days given (each table a key, with no games when it has none): 3 queries, 2 when the
    caller has read the tables (``table_ids``).

    A mark wins over nothing only: a game is marked not played only while it has no live
    sheet (scoring.unplayed), so the two never meet."""
    tables = table_ids
    if tables is None:
        tables = list(Table.objects.filter(day_id__in=day_ids).values_list("pk", flat=True))
    states: dict[int, dict[int, str]] = {pk: {} for pk in tables}
    for table_id, number, state in GameSheet.objects.filter(
        table__day_id__in=day_ids, state__in=LIVE_STATES
    ).values_list("table_id", "game__number", "state"):
        states[table_id][number] = state
    for table_id, number in UnplayedGame.objects.filter(table__day_id__in=day_ids).values_list(
        "table_id", "game__number"
    ):
        states[table_id].setdefault(number, NOT_PLAYED)
    return states


def finished_games(states: dict[int, str]) -> set[int]:
    """The numbers of a table's games that are finished (FINISHED), from ``game_states``."""
    return {number for number, state in states.items() if state in FINISHED}


def latest_day_in_play(tournament) -> tuple[int, int] | None:
    """(number, id) of the latest day with a finished game (confirmed, or marked not played),
    or None before the first: 1 query."""
    confirmed = GameSheet.objects.filter(game__day=OuterRef("pk"), state=SheetState.CONFIRMED)
    marked = UnplayedGame.objects.filter(game__day=OuterRef("pk"))
    return (
        Day.objects.filter(tournament=tournament)
        .filter(Exists(confirmed) | Exists(marked))
        .order_by("-number")
        .values_list("number", "pk")
        .first()
    )
