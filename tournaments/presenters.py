"""What the organiser pages show, worked out once so templates only display it.

Templates carry no role checks and no status values: they read the booleans, labels and CSS
class names made here. No queries: everything is computed from what the views already read.
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import Entry, StaffRole


def can_manage(request) -> bool:
    """Only organisers change players, settings, seating and confirmed scores; desk staff
    enter and check scores and help at the door."""
    return getattr(request, "tournament_role", None) == StaffRole.ORGANISER


@dataclass(frozen=True)
class EntryStatus:
    """An entry's status as the pages show it: its badge and what the page may offer."""

    label: str
    css_class: str
    withdrawn: bool
    checked_in: bool


def entry_status(entry: Entry) -> EntryStatus:
    return EntryStatus(
        label=entry.get_status_display(),
        css_class=f"status-{entry.status}",
        withdrawn=entry.status == Entry.WITHDRAWN,
        checked_in=entry.status == Entry.CHECKED_IN,
    )


def with_status(entries):
    """The entries, each given ``shown_status`` (an :class:`EntryStatus`) for the page."""
    for entry in entries:
        entry.shown_status = entry_status(entry)
    return entries


def entries_named(entries, query: str) -> list:
    """The entries whose name contains ``query`` (any case); all of them for no query."""
    if not query:
        return list(entries)
    needle = query.casefold()
    return [entry for entry in entries if needle in entry.player.name.casefold()]


def chart_tables(tables) -> list[tuple[int, list[tuple[int, str]]]]:
    """(table number, [(player number, name), ...]) for the seating chart, from tables whose
    seats are already loaded."""
    return [
        (table.number, [(s.entry.number, s.entry.player.name) for s in table.seats.all()])
        for table in tables
    ]
