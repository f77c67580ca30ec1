"""Which tables of a day have gone quiet (domain/game_pace.py), for the desk's grid and the day
board: one query, the first entry of every game of the event, whatever its size."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Max, Min, Q
from django.utils import timezone

from core.formats import time_of_day
from domain.game_pace import Quiet, TableTimes, play_started, quiet_table, usual_game_time
from scoring.models import GameSheet, Source
from tournaments.models import Day


@dataclass(frozen=True)
class QuietTable:
    """What the desk reads about a quiet table."""

    quiet: Quiet

    @property
    def words(self) -> str:
        usual = _minutes(self.quiet.usual)
        if self.quiet.nothing_entered:
            return f"No game entered yet; a game usually takes {usual}"
        since = time_of_day(self.quiet.since)
        return f"Nothing entered since {since}; a game usually takes {usual}"


def _minutes(span: timedelta) -> str:
    minutes = max(1, round(span.total_seconds() / 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def quiet_tables(day: Day, games_left: dict[int, int], now=None) -> dict[int, QuietTable]:
    """The quiet tables of ``day`` by table id. ``games_left`` gives each table's games neither
    entered nor marked not played, as the caller counted them from the sheets it read. Nothing is
    quiet on a closed day."""
    if day.closed_at is not None:
        return {}
    rows = (
        GameSheet.objects.filter(table__day__tournament_id=day.tournament_id)
        .values("table_id", "table__day_id", "game_id")
        .annotate(
            first=Min("entered_at"),
            phone=Max("pk", filter=Q(source=Source.TABLE_LINK)),
        )
    )
    entered: dict[int, list] = {}
    from_phone: dict[int, bool] = {}
    day_of: dict[int, int] = {}
    for row in rows:
        table = row["table_id"]
        entered.setdefault(table, []).append(row["first"])
        from_phone[table] = from_phone.get(table, False) or row["phone"] is not None
        day_of[table] = row["table__day_id"]
    times = {table: TableTimes(entered[table], from_phone[table]) for table in entered}
    usual = usual_game_time(times.values())
    started = play_started(
        (min(times[t].entered) for t in times if day_of[t] == day.pk and times[t].from_phone),
        usual,
    )
    now = now or timezone.now()
    found = {}
    for table, left in games_left.items():
        quiet = quiet_table(
            times.get(table, TableTimes(())),
            games_left=left,
            usual=usual,
            play_started=started,
            now=now,
        )
        if quiet is not None:
            found[table] = QuietTable(quiet)
    return found
