"""Score entry's writes for callers that want an exception when nothing is stored: the command
line, the demo, scripts and tests. Each save is scoring.submit's (the only place one happens)
and each desk decision scoring.review's; what they return is raised here when nothing was
stored, worded by scoring.presenters. Closing a day and renewing a table link live here too.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.errors import ServiceError
from scoring import review, submit
from scoring.models import GameSheet
from scoring.presenters import CurrentSheet, current_sheet_of, held_refusal
from scoring.submit import GameInput, Outcome, Refusal, Saved, lock_tables, own_entry_refusal
from tournaments.access import role_in
from tournaments.models import Day, StaffRole, Table, new_table_code, new_table_token

__all__ = [
    "CurrentSheet",
    "GameInput",
    "Outcome",
    "Refusal",
    "ScoresToCheck",
    "SheetRefused",
    "VersionConflict",
    "close_day",
    "confirm_card",
    "confirm_game",
    "import_games",
    "outcomes_or_raise",
    "own_entry_refusal",
    "regenerate_table_link",
    "reject_game",
    "reopen_day",
    "save_card",
    "save_games",
    "submit_game",
]


class SheetRefused(ServiceError):
    """Nothing was stored: every problem found, each tied to a field of one game.

    ``warnings`` are the "please check" notes found beside them (see ScoresToCheck), so a page
    can show them at once rather than after the problems are fixed."""

    def __init__(self, refusals: list[Refusal], warnings: list[Refusal] | None = None):
        self.refusals = refusals
        self.warnings = warnings or []
        super().__init__(" ".join(r.message for r in refusals))


class ScoresToCheck(ServiceError):
    """Nothing was stored: every score is possible, but some look like typos (more than the
    best hand anyone is dealt, a three-digit score among two-digit ones). Never a refusal: the
    person confirms them and saves again with ``rechecked=True``."""

    def __init__(self, warnings: list[Refusal]):
        self.warnings = warnings
        super().__init__(" ".join(w.message for w in warnings))


class VersionConflict(ServiceError):
    """Someone else saved first: nothing was stored, here is what each game says now."""

    def __init__(self, current: list[CurrentSheet]):
        self.current = current
        super().__init__(" ".join(c.message for c in current))


def outcomes_or_raise(saved: Saved) -> list[Outcome]:
    """What was stored; or, when nothing was, why, raised: ServiceError when the call was
    refused as a whole, VersionConflict, SheetRefused, ScoresToCheck."""
    if saved.denied:
        raise ServiceError(saved.denied)
    if saved.conflicts:
        raise VersionConflict([current_sheet_of(now) for now in saved.conflicts])
    if saved.refused:
        day = saved.sheets.day.number if saved.sheets is not None else 0
        held = [held_refusal(now, day) for now in saved.held]
        raise SheetRefused(saved.refusals + held, saved.warnings)
    if saved.warnings:
        raise ScoresToCheck(saved.warnings)
    return saved.outcomes


def submit_game(table, game, typed, base_version: int, **options) -> Outcome | None:
    """submit.submit_game, raising: None when nothing needed storing (identical, or sent twice)."""
    outcomes = outcomes_or_raise(submit.submit_game(table, game, typed, base_version, **options))
    return outcomes[0] if outcomes else None


def save_games(batches, **options) -> list[Outcome]:
    """submit.do_save_games, raising."""
    return outcomes_or_raise(submit.do_save_games(batches, **options))


def save_card(table, inputs, written_totals, user, device: str = "", **options) -> list[Outcome]:
    """review.save_card, raising."""
    return outcomes_or_raise(
        review.save_card(table, inputs, written_totals, user, device, **options)
    )


def import_games(batches, **options) -> list[Outcome]:
    """submit.import_games, raising."""
    return outcomes_or_raise(submit.import_games(batches, **options))


def _decided(saved: Saved) -> list[GameSheet]:
    """The sheets a desk decision changed, or why not, raised (a refusal as a ServiceError)."""
    if saved.refusals:
        raise ServiceError(" ".join(r.message for r in saved.refusals))
    return [outcome.sheet for outcome in outcomes_or_raise(saved)]


def confirm_game(table, game, base_version: int, user, device: str = "") -> GameSheet:
    """review.confirm_game, raising: the sheet confirmed."""
    return _decided(review.confirm_game(table, game, base_version, user, device))[0]


def confirm_card(table, shown: dict[int, int], user, device: str = "") -> list[GameSheet]:
    """review.confirm_card, raising: the sheets confirmed."""
    return _decided(review.confirm_card(table, shown, user, device))


def reject_game(table, game, base_version: int, user, reason: str = "", disputed=()) -> GameSheet:
    """review.reject_game, raising: the sheet marked wrong."""
    return _decided(review.reject_game(table, game, base_version, user, reason, disputed))[0]


# ---------------------------------------------------------------------------
# Days and links
# ---------------------------------------------------------------------------


def _require_organiser(user, tournament) -> None:
    if role_in(user, tournament) != StaffRole.ORGANISER:
        raise ServiceError("Only an organiser can do that.")


def close_day(day: Day, user) -> Day:
    """Close a day: its table links stop working. Returns the day."""
    return _set_closed(day, user, closed=True)


def reopen_day(day: Day, user) -> Day:
    """Reopen a closed day, with a new link and a new code for every table.

    The old links and codes stay dead: once a day closed they were declared finished, and may
    since have been left on score sheets, photographed or written to a log. Reopening is mostly
    for the desk to fix a card; a table that must enter scores again gets its new link and code
    from the table links page or a reprinted sheet.
    """
    return _set_closed(day, user, closed=False)


@transaction.atomic
def _set_closed(day: Day, user, *, closed: bool) -> Day:
    day = Day.objects.select_for_update().select_related("tournament").get(pk=day.pk)
    _require_organiser(user, day.tournament)
    if (day.closed_at is not None) == closed:
        raise ServiceError(
            f"Day {day.number} is already closed."
            if closed
            else f"Day {day.number} is open already."
        )
    day.closed_at = timezone.now() if closed else None
    day.save(update_fields=["closed_at"])
    if not closed:
        for table in Table.objects.select_for_update().filter(day=day).order_by("pk"):
            table.link_token = new_table_token()
            table.code = new_table_code()
            table.save(update_fields=["link_token", "code"])
    return day


@transaction.atomic
def regenerate_table_link(table: Table, user) -> Table:
    """Give a table a new private link and code; the old ones stop working at once."""
    table = lock_tables([table])[0]
    _require_organiser(user, table.day.tournament)
    table.link_token = new_table_token()
    table.code = new_table_code()
    table.save(update_fields=["link_token", "code"])
    return table
