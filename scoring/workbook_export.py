"""The day's score workbook, handed out for entry: one row per seated player per game.

Columns (HEADER): Day, Table, Game, Engine, Player ID, Player, Score, Out. Player ID is the
player's number in the tournament; Out is "yes" for the player who went out, and "not played"
on every row of a game the table did not play (its scores blank). Every live score is
already filled in, so the file read back by scoring.workbook_import changes only what was typed.
"""

from __future__ import annotations

import io

from core.cells import keep_as_text
from core.spreadsheet_print import set_page_layout
from tournaments.models import Day

from .selectors import day_workbook_rows

HEADER = ["Day", "Table", "Game", "Engine", "Player ID", "Player", "Score", "Out"]
COLUMN_WIDTHS = (6, 7, 7, 8, 10, 28, 8, 11)
PLAYER_COLUMN = HEADER.index("Player")
MAX_PLAYER_WIDTH = 45
OUT_NOT_PLAYED = "not played"


def _values(row: dict) -> list:
    return [
        row["day"],
        row["table"],
        row["game"],
        row["engine"],
        row["player_id"],
        row["player"],
        row["score"],
        OUT_NOT_PLAYED if row.get("not_played") else "yes" if row["out"] else None,
    ]


def _widths(rows: list[dict]) -> list[float]:
    """The usual widths, with the player column as wide as the longest name (within reason)."""
    longest = max((len(row["player"]) for row in rows), default=0)
    widths: list[float] = list(COLUMN_WIDTHS)
    widths[PLAYER_COLUMN] = min(max(widths[PLAYER_COLUMN], longest + 2), MAX_PLAYER_WIDTH)
    return widths


def export_day(day: Day) -> bytes:
    """The day's entry sheet as .xlsx bytes, with every live score already filled in.

    Printed, each table starts a page of its own, as its paper card does, so a desk volunteer
    keys a card from one page with the header repeated on it.
    """
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.worksheet.pagebreak import Break
    from openpyxl.worksheet.worksheet import Worksheet

    rows = day_workbook_rows(day)
    wb = Workbook()
    ws = wb.active
    assert isinstance(ws, Worksheet)  # a new workbook opens on its one worksheet
    ws.title = f"Day {day.number} scores"
    ws.append(HEADER)
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for index, row in enumerate(rows, start=2):
        for column, value in enumerate(_values(row), start=1):
            cell = ws.cell(row=index, column=column)
            cell.value = value
            keep_as_text(cell)  # names are typed by people
        if index > 2 and row["table"] != rows[index - 3]["table"]:
            ws.row_breaks.append(Break(id=index - 1))  # the page ends after the last table's row
    set_page_layout(
        ws,
        title=f"Day {day.number} scores, one table a page",
        event=day.tournament.name,
        widths=_widths(rows),
        rows=len(rows),
    )
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
