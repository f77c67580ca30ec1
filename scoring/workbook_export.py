"""The day's score workbook, handed out for entry: one row per seated player per game.

Columns (HEADER): Day, Table, Game, Engine, Player ID, Player, Score, Out, State. Player ID is
the player's number in the tournament. Out states every played game's outcome: OUT_WENT ("yes")
for the player who went out, or OUT_BLOCKED ("blocked") on one row of a game nobody went out of;
OUT_NOT_PLAYED ("not played") is on every row of a game the table did not play, its scores blank.
Only confirmed games come filled in: a game a table entered from its phone is left blank, its
State saying so, for the desk to key from the paper card; the upload confirms it only when the
keyed numbers match. So the file read back untouched by scoring.workbook_import changes nothing.
The Engine column holds the expected double (the confirmed one for a confirmed game). State is for
reading only.
"""

from __future__ import annotations

import io

from core.cells import keep_as_text
from core.spreadsheet_print import set_page_layout
from scoring.models import SheetState
from scoring.selectors import day_workbook_rows
from tournaments.models import Day

HEADER = ["Day", "Table", "Game", "Engine", "Player ID", "Player", "Score", "Out", "State"]
# The words of the Out column; workbook_import reads them back (and a few spellings more).
OUT_WENT = "yes"
OUT_BLOCKED = "blocked"
COLUMN_WIDTHS = (6, 7, 7, 7, 9, 28, 8, 11, 12)
PLAYER_COLUMN = HEADER.index("Player")
MAX_PLAYER_WIDTH = 45
OUT_NOT_PLAYED = "not played"

# The State column, in the words the desk's grid uses.
# Short enough that the sheet still prints portrait, one table a page; the upload page says
# what "phone only" asks of the desk (key it from the card).
STATE_WORDS = {
    SheetState.CONFIRMED: "confirmed",
    SheetState.ENTERED: "phone only",
    "empty": "not entered",
}


def _values(row: dict) -> list:
    return [
        row["day"],
        row["table"],
        row["game"],
        row["engine"],
        row["player_id"],
        row["player"],
        row["score"],
        _out_word(row),
        STATE_WORDS[row["state"]],
    ]


def _widths(rows: list[dict]) -> list[float]:
    """The usual widths, with the player column as wide as the longest name (within reason)."""
    longest = max((len(row["player"]) for row in rows), default=0)
    widths: list[float] = list(COLUMN_WIDTHS)
    widths[PLAYER_COLUMN] = min(max(widths[PLAYER_COLUMN], longest + 2), MAX_PLAYER_WIDTH)
    return widths


def _out_word(row: dict) -> str | None:
    if row.get("not_played"):
        return OUT_NOT_PLAYED
    if row["out"]:
        return OUT_WENT
    return OUT_BLOCKED if row["blocked"] else None


def export_day(day: Day) -> bytes:
    """The day's entry sheet as .xlsx bytes, with the confirmed scores filled in.

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
