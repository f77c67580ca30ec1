"""What the score-entry pages show for a sheet's state, worked out once so templates only
display it: badge labels, CSS class names and what a page may offer. No queries."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .models import SheetState
from .selectors import NOT_PLAYED


@dataclass(frozen=True)
class Badge:
    label: str
    css_class: str


# The desk's day grid: one cell per table and game.
GRID_BADGES = {
    SheetState.ENTERED: Badge("entered", "entered"),
    SheetState.CONFIRMED: Badge("confirmed", "confirmed"),
}
GRID_EMPTY = Badge("empty", "empty")
GRID_NOT_PLAYED = Badge("not played", "not-played")

# The scorekeeper's table page: one row per game.
TABLE_PAGE_CONFIRMED = Badge("confirmed", "confirmed")
TABLE_PAGE_WAITING = Badge("waiting for the desk", "entered")
TABLE_PAGE_EMPTY = Badge("not entered", "empty")
TABLE_PAGE_NOT_PLAYED = Badge("not played", "not-played")


def grid_cell(cell: dict, review_url) -> dict:
    """A day-grid cell with its ``badge`` and ``css_class``; a game waiting for the desk also
    gets ``review_url`` (``review_url(game number)`` gives it)."""
    state = cell["state"]
    badge = GRID_NOT_PLAYED if state == NOT_PLAYED else GRID_BADGES.get(state, GRID_EMPTY)
    shown = {**cell, "badge": badge, "css_class": f"cell-{state}"}
    if state == SheetState.ENTERED:
        shown["review_url"] = review_url(cell["game"].number)
    return shown


def table_page_row(row: dict) -> dict:
    """A row of the table page with its ``badge``, and ``fixable`` when the table may still
    change it (entered, not yet confirmed by the desk)."""
    sheet = row["sheet"]
    if sheet is None and row.get("unplayed") is not None:
        return {**row, "badge": TABLE_PAGE_NOT_PLAYED, "fixable": False}
    if sheet is None:
        return {**row, "badge": TABLE_PAGE_EMPTY, "fixable": False}
    if sheet.state == SheetState.CONFIRMED:
        return {**row, "badge": TABLE_PAGE_CONFIRMED, "fixable": False}
    return {**row, "badge": TABLE_PAGE_WAITING, "fixable": True}


def review_scores(seats, live) -> list[tuple]:
    """(seat, its Score or None when the player had left) for each seat, for the review page."""
    if live is None:
        return []
    points = {s.entry_id: s for s in live.score_rows()}
    return [(seat, points.get(seat.entry_id)) for seat in seats]


def is_provisional(sheet) -> bool:
    """Entered from a table link and not yet checked against the paper card."""
    return sheet is not None and sheet.state == SheetState.ENTERED


def current_sheet(current) -> dict | None:
    """What a game says now (services.CurrentSheet) for the conflict box, with
    ``may_save_again``: the game is still open, so the person may check and save once more."""
    if current is None:
        return None
    return {**asdict(current), "may_save_again": current.state == SheetState.ENTERED}
