"""How every sheet we write prints from Excel or LibreOffice: the one place for page setup.

A sheet prints one page wide (as many pages tall as it needs), landscape when its columns are
wider than a portrait page, with its header row repeated on every page, the sheet's title and
the event in the page header, and "Page 3 of 7" in the footer. Frozen header row and an
autofilter make the data sheets easy to read and sort on screen. No Django here.
"""

from __future__ import annotations

from collections.abc import Sequence

from openpyxl.utils import get_column_letter
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.worksheet import Worksheet

# Column widths are in characters of the default font; about 95 fit across a portrait US
# Letter page between half-inch margins at 100 %, so a wider sheet turns the page.
PORTRAIT_WIDTH = 95
# Excel and LibreOffice give the header and footer 255 characters at most, codes included.
MAX_HEADER_TEXT = 120


def header_text(text: str) -> str:
    """Text as the page header prints it: "&" starts a code there, so it is doubled."""
    text = " ".join(text.split())
    if len(text) > MAX_HEADER_TEXT:
        text = text[: MAX_HEADER_TEXT - 1] + "…"
    return text.replace("&", "&&")


def is_wide(widths: Sequence[float]) -> bool:
    return sum(widths) > PORTRAIT_WIDTH


def set_page_layout(
    sheet,
    *,
    title: str,
    event: str,
    widths: Sequence[float],
    rows: int,
    data: bool = True,
) -> None:
    """Page setup, column widths, and (``data``) frozen header and autofilter for a sheet whose
    first row is its header, followed by ``rows`` rows.

    For a write-only sheet call it before the first row is written: the fit-to-page flag and the
    frozen pane go out with the sheet's first lines.
    """
    for index, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width
    setup = sheet.page_setup
    setup.orientation = "landscape" if is_wide(widths) else "portrait"
    setup.paperSize = Worksheet.PAPERSIZE_LETTER
    setup.fitToWidth = 1
    setup.fitToHeight = 0  # as many pages tall as the rows need
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    sheet.page_margins = PageMargins(left=0.5, right=0.5, top=0.75, bottom=0.6, header=0.3)
    sheet.print_options.gridLines = True  # rows stay easy to follow across a printed page
    sheet.print_title_rows = "1:1"
    sheet.oddHeader.left.text = header_text(title)
    sheet.oddHeader.left.font = "-,Bold"
    sheet.oddHeader.right.text = header_text(event)
    sheet.oddFooter.right.text = "Page &P of &N"
    if data:
        sheet.freeze_panes = "A2"
        sheet.auto_filter.ref = f"A1:{get_column_letter(len(widths))}{rows + 1}"
