"""Where tournaments hands over to the app that records play, without importing it.

Tournaments sits below scoring and never imports it, not even through a relation: scoring's
tables point at tournaments' tables, and no query here follows them back. What tournaments
must announce (a day was seated) is a signal; what it must ask (has play started, how far has
a table got, whose scores each game holds) is the :class:`PlayRecord` that scoring registers
once when it starts (``ScoringConfig.ready``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from django.core.exceptions import ImproperlyConfigured
from django.dispatch import Signal

if TYPE_CHECKING:
    from datetime import datetime

    from django.db.models import QuerySet

    from domain.movement import SessionScore
    from tournaments.models import Day, Entry, Table

# Sent with ``day=`` after a day's tables are stored (inside the seating transaction), so the
# day's games exist from the moment it is seated and no page has to create them.
day_seated = Signal()


class PlayRecord(Protocol):
    """What tournaments asks of the app that records play."""

    def tables_with_scores(self, tables: QuerySet[Table]) -> QuerySet[Table]:
        """``tables`` narrowed to those with a score sheet entered, still a queryset (so a
        caller may filter it further or use it as a subquery in one SQL statement). Play has
        started on a day, and in an event, as soon as one of its tables has one."""
        ...

    def last_game_entered(self, table: Table) -> int:
        """The highest game number the table has entered and not had rejected (0 when none)."""
        ...

    def finished_games(self, table: Table) -> set[int]:
        """The games the table has entered (not rejected) or marked not played: a player
        joining late plays from the game after the last of them, and one leaving from the next
        day on must have no game still to play here."""
        ...

    def scores_by_game(self, table: Table) -> dict[int, set[int]]:
        """Each game the table has a live sheet for, with the entries it holds a score for (a
        withdrawal checks the game chosen against them)."""
        ...

    def scores_entered_since(self, entries: QuerySet[Entry], since: datetime) -> bool:
        """Whether a score sheet entered after ``since`` holds a score of one of ``entries``
        (whatever its state since): a merge is undone only until either person plays again."""
        ...

    def entry_games(self, entry: Entry) -> dict[int, list[dict]]:
        """A player's games for their page: day number -> [{"game", "points", "confirmed",
        "out"}] in game order."""
        ...


@dataclass(frozen=True)
class SessionResults:
    """A session's results at its tables, as a movement reads them."""

    # Each player's total for the session (as the standings count it) and tie-break record.
    scores: dict[int, SessionScore]
    # By table number: the games not entered yet, and those entered and not yet confirmed.
    not_entered: dict[int, list[int]] = field(default_factory=dict)
    to_confirm: dict[int, list[int]] = field(default_factory=dict)


class SessionTotals(Protocol):
    """What a movement asks of the app that adds up the standings."""

    def session_results(self, day: Day) -> SessionResults:
        """The session's totals at its tables and what it still waits for."""
        ...


_play_record: PlayRecord | None = None
_session_totals: SessionTotals | None = None


def record_play_with(record: PlayRecord) -> None:
    """Register the app that records play; ``ScoringConfig.ready`` calls this once."""
    global _play_record
    _play_record = record


def play_record() -> PlayRecord:
    if _play_record is None:
        raise ImproperlyConfigured(
            "No app records play (tournaments.hooks.record_play_with was never called): "
            "add scoring to INSTALLED_APPS."
        )
    return _play_record


def total_sessions_with(totals: SessionTotals) -> None:
    """Register the app that adds up a session; ``StandingsConfig.ready`` calls this once."""
    global _session_totals
    _session_totals = totals


def session_totals() -> SessionTotals:
    if _session_totals is None:
        raise ImproperlyConfigured(
            "No app adds up a session (tournaments.hooks.total_sessions_with was never "
            "called): add standings to INSTALLED_APPS."
        )
    return _session_totals
