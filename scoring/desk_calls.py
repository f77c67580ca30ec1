"""A table calls the desk, and the desk answers (domain.desk_calls decides what is refused).

The writes lock the table's row, so two phones at one table pressing at once make one call. The
reads take one query for a whole day, for the desk's grid and the day board.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from core.errors import ServiceError
from core.formats import time_of_day
from domain.desk_calls import BUTTON, DESK_WORDS, Call, age_words, call_refusal
from scoring.models import DeskCall
from tournaments.access import account_of
from tournaments.models import Day, Table


@dataclass(frozen=True)
class OpenCall:
    """A call as the desk and the table read it."""

    pk: int
    table_id: int
    table_number: int
    reason: str
    called_at: datetime
    now: datetime

    @property
    def words(self) -> str:
        return DESK_WORDS[self.reason]

    @property
    def button(self) -> str:
        return BUTTON[self.reason]

    @property
    def age(self) -> str:
        return age_words(self.called_at, self.now)

    @property
    def minutes(self) -> int:
        return int((self.now - self.called_at).total_seconds() // 60)

    @property
    def at(self) -> str:
        return time_of_day(self.called_at)


@transaction.atomic
def call_the_desk(table: Table, reason: str, *, now: datetime | None = None) -> DeskCall:
    """A new call from ``table``, or ServiceError saying why not (nothing stored)."""
    now = now or timezone.now()
    locked = Table.objects.select_for_update().select_related("day").get(pk=table.pk)
    if locked.day.closed_at is not None:
        raise ServiceError("This day is closed: please go to the desk.")
    calls = DeskCall.objects.filter(table=locked)
    waiting = [Call(c.reason, c.called_at) for c in calls.filter(answered_at__isnull=True)]
    last = calls.aggregate(last=Max("called_at"))["last"]
    refusal = call_refusal(reason, waiting, last, now)
    if refusal:
        raise ServiceError(refusal, field="reason")
    return DeskCall.objects.create(table=locked, reason=reason, called_at=now)


@transaction.atomic
def answer_call(day: Day, call_id: int, *, by) -> OpenCall:
    """The desk has gone over: the call leaves the board. A call of another day (or event) is
    not found; one answered already says by whom."""
    call = (
        DeskCall.objects.select_for_update()
        .select_related("table")
        .filter(pk=call_id, table__day=day)
        .first()
    )
    if call is None:
        raise ServiceError("There is no such call on this day.")
    if call.answered_at is not None:
        raise ServiceError(
            f"{call.answered_by_label} answered table {call.table.number}'s call at "
            f"{time_of_day(call.answered_at)}."
        )
    call.answered_at = timezone.now()
    call.answered_by = account_of(by)
    call.answered_by_label = by.get_username()
    call.save(update_fields=["answered_at", "answered_by", "answered_by_label"])
    return _open_call(call, call.table.number, call.answered_at)


def _open_call(call: DeskCall, table_number: int, now: datetime) -> OpenCall:
    return OpenCall(call.pk, call.table_id, table_number, call.reason, call.called_at, now)


def open_calls(day: Day, now: datetime | None = None) -> list[OpenCall]:
    """The day's calls the desk has not answered, oldest first. One query; none on a closed
    day, whose tables cannot call."""
    if day.closed_at is not None:
        return []
    now = now or timezone.now()
    calls = DeskCall.objects.filter(table__day=day, answered_at__isnull=True).select_related(
        "table"
    )
    return [_open_call(call, call.table.number, now) for call in calls]


def table_open_calls(table: Table, now: datetime | None = None) -> list[OpenCall]:
    """The table's own calls waiting for the desk, for its page."""
    now = now or timezone.now()
    calls = DeskCall.objects.filter(table=table, answered_at__isnull=True)
    return [_open_call(call, table.number, now) for call in calls]


def calls_by_table(calls: list[OpenCall]) -> dict[int, list[OpenCall]]:
    found: dict[int, list[OpenCall]] = {}
    for call in calls:
        found.setdefault(call.table_id, []).append(call)
    return found
