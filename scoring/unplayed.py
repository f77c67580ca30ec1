"""Games a table did not play: the organiser or the desk marks one "not played" with a reason
(time ran out, say), or takes the mark back. A marked game has no scores; the day can be final
without it, and the event's rule (``unplayed_counts``) says what it counts in the standings.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.errors import ServiceError
from scoring.models import Game, UnplayedChange, UnplayedGame
from scoring.selectors import TableSheets, table_sheets
from scoring.submit import lock_tables
from tournaments.access import account_of, role_in
from tournaments.models import Table


def _refuse_unless_staff(user, table: Table) -> None:
    if role_in(user, table.day.tournament) is None:
        raise ServiceError("Only the tournament's organisers and desk staff can do that.")


def _locked_read(table: Table) -> TableSheets:
    """The table locked (as a save locks it, so a mark and a save of one game queue) and its
    sheets read under the lock; no scores, which a mark never looks at."""
    return table_sheets(lock_tables([table])[0], scores_for=())


def _reason(typed: str, ask: str) -> str:
    reason = " ".join(typed.split())
    if not reason:
        raise ServiceError(ask, field="reason")
    return reason


def _note(sheets: TableSheets, game: Game, action: str, reason: str, user) -> None:
    UnplayedChange.objects.create(
        table=sheets.table,
        game=game,
        action=action,
        reason=reason,
        actor=account_of(user),
        actor_label=user.get_username(),
        at=timezone.now(),
    )


@transaction.atomic
def mark_not_played(table: Table, game: Game, *, reason: str, user) -> UnplayedGame:
    """Record that ``table`` did not play ``game``; refused (nothing stored) on a closed day,
    for a game with live scores, or without a reason. The table's history keeps it."""
    _refuse_unless_staff(user, table)
    reason = _reason(reason, "Say why the game was not played, like \u201ctime ran out\u201d.")
    sheets = _locked_read(table)
    day = sheets.day
    if day.is_closed:
        raise ServiceError(f"Day {day.number} is closed: reopen it to change its games.")
    if game.number in sheets.live:
        raise ServiceError(
            f"Game {game.number} at table {table.number} has scores. If it was not played, "
            "mark the entry wrong first.",
            field="game",
        )
    if game.number in sheets.unplayed:
        raise ServiceError(
            f"Game {game.number} at table {table.number} is already marked not played.",
            field="game",
        )
    _note(sheets, game, UnplayedChange.MARKED, reason, user)
    return UnplayedGame.objects.create(
        table=sheets.table,
        game=game,
        reason=reason,
        marked_by=account_of(user),
        marked_by_label=user.get_username(),
        marked_at=timezone.now(),
    )


@transaction.atomic
def undo_not_played(table: Table, game: Game, *, reason: str, user) -> None:
    """Take back a "not played" mark, saying why: the table can enter the game again. The
    table's history keeps the mark and its undoing."""
    _refuse_unless_staff(user, table)
    reason = _reason(
        reason, "Say why the mark is taken back, like \u201cthey played it after all\u201d."
    )
    sheets = _locked_read(table)
    if sheets.day.is_closed:
        raise ServiceError(f"Day {sheets.day.number} is closed: reopen it to change its games.")
    if game.number not in sheets.unplayed:
        raise ServiceError(f"Game {game.number} at table {table.number} is not marked not played.")
    UnplayedGame.objects.filter(table=sheets.table, game=game).delete()
    _note(sheets, game, UnplayedChange.UNDONE, reason, user)
