"""Writing a sheet of a write-only openpyxl workbook the one way every workbook here does: a
bold shaded header, text kept as text (characters XML cannot hold dropped, formula-like text
quoted), numbers in their cell formats, and columns as wide as their longest value allows."""

from __future__ import annotations

from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Font, PatternFill

from core.cells import keep_as_text, reads_as_formula

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="DDE5EE")
MIN_WIDTH, MAX_WIDTH = 6, 45


def write_sheet(sheet, header: list[str], rows: list[list], formats: dict[int, str]) -> None:
    sheet.append([_header_cell(sheet, title) for title in header])
    for row in rows:
        # Empty text is no cell at all rather than an empty one: a column that is mostly empty
        # (who went out, on a Scores sheet) costs nothing.
        cells = [(_text_cell(sheet, v) if v else None) if isinstance(v, str) else v for v in row]
        for i, number_format in formats.items():
            cells[i] = _formatted_cell(sheet, cells[i], number_format)
        sheet.append(cells)


def _formatted_cell(sheet, value, number_format: str):
    cell = WriteOnlyCell(sheet, value)
    cell.number_format = number_format
    return cell


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


def sheet_column_widths(header: list[str], rows: list[list]) -> list[float]:
    widths = [len(title) + 2 for title in header]
    for row in rows:
        for i, value in enumerate(row):
            if value is None:
                continue
            length = len(value) if isinstance(value, str) else len(str(value))
            if length + 2 > widths[i]:
                widths[i] = length + 2
    return [min(max(w, MIN_WIDTH), MAX_WIDTH) for w in widths]
