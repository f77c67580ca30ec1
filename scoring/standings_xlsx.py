"""The club's record of an event as one Excel workbook (openpyxl, write-only for speed).

Sheets: Standings (first), Clubs, Scores, Seating, Rules. Every text cell that a spreadsheet
could take for a formula (starting =, +, - or @) is stored as text with Excel's quote prefix,
so a player typed as ``=HYPERLINK(...)`` stays a name.
"""

from __future__ import annotations

import json
from io import BytesIO

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter

from core.cells import keep_as_text, reads_as_formula
from tournaments.models import TIE_BREAK_CHOICES

from .standings import Standings, score_rows, seating_rows
from .standings_columns import CLUB_COLUMNS, Output, club_lines, player_columns, value_table

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="DDE5EE")
MIN_WIDTH, MAX_WIDTH = 6, 45


def standings_workbook(result: Standings) -> bytes:
    """The whole workbook: the standings given, plus two queries for scores and seating."""
    tournament = result.tournament
    return build_workbook(result, score_rows(tournament), seating_rows(tournament))


def standings_sheet_rows(result: Standings) -> tuple[list[str], list[list]]:
    columns = player_columns(result.day_numbers).for_output(Output.WORKBOOK)
    return value_table(columns, result.rows, Output.WORKBOOK)


def workbook_sheets(result: Standings, scores: list[tuple], seating: list[tuple]):
    """(title, header, rows) per sheet, in order: what the workbook holds, cell for cell."""
    clubs = value_table(
        CLUB_COLUMNS.for_output(Output.WORKBOOK), club_lines(result), Output.WORKBOOK
    )
    score_sheet = [
        [day, table, game, engine, number, name, points, "yes" if out else "", state]
        for day, table, game, engine, number, name, points, out, state in scores
    ]
    return [
        ("Standings", *standings_sheet_rows(result)),
        ("Clubs", *clubs),
        (
            "Scores",
            ["Day", "Table", "Game", "Engine used", "Player ID", "Player", "Score", "Out", "State"],
            score_sheet,
        ),
        ("Seating", ["Day", "Table", "Player ID", "Player"], [list(r) for r in seating]),
        ("Rules", ["Setting", "Value"], _rule_rows(result)),
    ]


def build_workbook(result: Standings, scores: list[tuple], seating: list[tuple]) -> bytes:
    workbook = Workbook(write_only=True)
    for title, header, rows in workbook_sheets(result, scores, seating):
        _write_sheet(workbook.create_sheet(title), header, rows)
    buffer = BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _rule_rows(result: Standings) -> list[list]:
    tournament = result.tournament
    rules = tournament.rules
    rows = [
        ["Tournament", tournament.name],
        ["Start date", tournament.start_date.isoformat() if tournament.start_date else ""],
        ["Venue", tournament.venue],
        ["Standings", f"{result.title} ({result.status_line})"],
    ]
    for name, value in rules.rule_values().items():
        if name == "tie_breaks":
            value = ", ".join(TIE_BREAK_CHOICES.get(v, v) for v in value) or (
                "none (ties share a rank)"
            )
        elif isinstance(value, (list, dict)):
            value = json.dumps(value)
        elif isinstance(value, bool):
            value = "yes" if value else "no"
        label = str(getattr(rules._meta.get_field(name), "verbose_name", name))
        rows.append([label.capitalize(), value])
    return rows


def _write_sheet(sheet, header: list[str], rows: list[list]) -> None:
    # Write-only sheets take widths, panes and filters before the first row is written.
    for index, width in enumerate(_widths(header, rows), start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(header))}{len(rows) + 1}"
    sheet.append([_header_cell(sheet, title) for title in header])
    for row in rows:
        # Empty text is no cell at all rather than an empty one: most players did not go out,
        # so most of the Scores sheet's Out cells need not be written.
        sheet.append(
            [(_text_cell(sheet, v) if v else None) if isinstance(v, str) else v for v in row]
        )


def _header_cell(sheet, title: str) -> Cell:
    cell = WriteOnlyCell(sheet, title)
    cell.font = HEADER_FONT
    cell.fill = HEADER_FILL
    return cell


def _text_cell(sheet, value: str):
    """Text as text: characters XML cannot hold are dropped, formula-like text is quoted."""
    value = ILLEGAL_CHARACTERS_RE.sub("", value)
    if not reads_as_formula(value):
        return value
    return keep_as_text(WriteOnlyCell(sheet, value))


def _widths(header: list[str], rows: list[list]) -> list[float]:
    widths = [len(title) + 2 for title in header]
    for row in rows:
        for i, value in enumerate(row):
            if value is None:
                continue
            length = len(value) if isinstance(value, str) else len(str(value))
            if length + 2 > widths[i]:
                widths[i] = length + 2
    return [min(max(w, MIN_WIDTH), MAX_WIDTH) for w in widths]
