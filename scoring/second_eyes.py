"""Games whose live sheet one login both entered and confirmed: a desk volunteer keying a paper
card nobody entered on a phone confirms it at once, and the desk could confirm its own keying.

The app does not stop it (a small club has one person at the desk); it shows the organiser
those games on the day's scores page, so that a second person can look at the cards."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F

from scoring.models import GameSheet, SheetState
from tournaments.models import Day


@dataclass(frozen=True)
class SelfConfirmed:
    table: int
    game: int
    username: str


def confirmed_by_whoever_entered(day: Day) -> list[SelfConfirmed]:
    """The day's confirmed games entered and confirmed by the same login, by table and game.
    One query."""
    rows = (
        GameSheet.objects.filter(
            table__day=day,
            state=SheetState.CONFIRMED,
            entered_by__isnull=False,
            confirmed_by=F("entered_by"),
        )
        .order_by("table__number", "game__number")
        .values_list("table__number", "game__number", "entered_by__username")
    )
    return [SelfConfirmed(table, game, username) for table, game, username in rows]
