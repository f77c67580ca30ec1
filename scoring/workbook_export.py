"""The day's score workbook, handed out for entry: one row per seated player per game.

Columns (HEADER): Day, Table, Game, Engine, Player ID, Player, Score, Out. Player ID is the
player's number in the tournament; Out is "yes" for the player who went out. Every live score is
already filled in, so the file read back by scoring.workbook_import changes only what was typed.
"""

from __future__ import annotations

import io

from core.cells import keep_as_text
from tournaments.models import Day

from .selectors import day_workbook_rows

HEADER = ["Day", "Table", "Game", "Engine", "Player ID", "Player", "Score", "Out"]
COLUMN_WIDTHS = (6, 7, 7, 8, 10, 28, 8, 6)


def _values(row: dict) -> list:
    return [
        row["day"],
        row["table"],
        row["game"],
        row["engine"],
        row["player_id"],
        row["player"],
        row["score"],
        "yes" if row["out"] else None,
    ]


def export_day(day: Day) -> bytes:
    """The day's entry sheet as .xlsx bytes, with every live score already filled in."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.worksheet.worksheet import Worksheet

    wb = Workbook()
    ws = wb.active
    assert isinstance(ws, Worksheet)  # a new workbook opens on its one worksheet
    ws.title = f"Day {day.number} scores"
    ws.append(HEADER)
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for index, row in enumerate(day_workbook_rows(day), start=2):
        for column, value in enumerate(_values(row), start=1):
            cell = ws.cell(row=index, column=column)
            cell.value = value
            keep_as_text(cell)  # names are typed by people
    ws.freeze_panes = "A2"
    for letter, width in zip("ABCDEFGH", COLUMN_WIDTHS, strict=True):
        ws.column_dimensions[letter].width = width
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
