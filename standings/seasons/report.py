"""The season standings on paper and in Excel, under one file name (``core.reports``).

Both take their headings and cells from ``season_columns``; the PDF borrows the event
standings' page furniture (column widths, footer, banner styles) from ``standings.pdf`` and the
workbook its cell writing and page setup from ``standings.xlsx``.
"""

from __future__ import annotations

import datetime
from functools import partial
from io import BytesIO
from typing import Any

from django.utils import timezone
from openpyxl import Workbook
from reportlab.lib import colors
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from core.formats import date_and_time, long_date
from core.pdf_fonts import pdf_fonts
from core.reports import PDF, XLSX, Report
from core.spreadsheet_print import set_page_layout
from core.spreadsheet_write import sheet_column_widths, write_sheet
from standings.columns import Output, value_table
from standings.pdf import (
    GRID,
    MARGIN,
    PADDING,
    PAGE_SIZE,
    STRIPE,
    build_document,
    column_widths,
    markup,
    paragraph_styles,
    printed_table,
)
from standings.seasons.columns import PLAYER_ID_HEADING, season_columns
from standings.seasons.read import SeasonStandings
from standings.xlsx import cell_formats


def season_report(result: SeasonStandings) -> Report:
    return Report(
        f"{result.season.slug}-season-standings",
        {
            PDF: partial(render_season_pdf, result),
            XLSX: partial(season_workbook, result),
        },
    )


def session_key(result: SeasonStandings) -> list[str]:
    """ "S1: Spring open, March 14, 2026", one line per session: the PDF's column key."""
    return [
        f"{s.short_label}: {s.label}" + (f", {long_date(s.date)}" if s.date else "")
        for s in result.sessions
    ]


def _season_table(result: SeasonStandings, font: str, bold: str) -> Table:
    columns = season_columns(result).for_output(Output.PDF)
    header, body = printed_table(columns, result.rows)
    text_columns = [i for i, column in enumerate(columns) if not column.numeric]
    size, widths = column_widths(header, body, text_columns, font, bold, PAGE_SIZE[0] - 2 * MARGIN)
    style: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, 0), bold, size),
        ("FONT", (0, 1), (-1, -1), font, size),
        ("ALIGN", (0, 0), (-1, -1), "RIGHT"),
        *(("ALIGN", (i, 0), (i, -1), "LEFT") for i in text_columns),
        ("LEFTPADDING", (0, 0), (-1, -1), PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), PADDING),
        ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, STRIPE]),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, GRID),
    ]
    style += [("FONT", (i, 1), (i, -1), bold, size) for i, c in enumerate(columns) if c.bold]
    style += [
        ("TEXTCOLOR", (0, i), (-1, i), colors.HexColor("#666666"))
        for i, row in enumerate(result.rows, start=1)
        if row.rank is None
    ]
    return Table(
        [header, *body], colWidths=widths, repeatRows=1, style=TableStyle(style), hAlign="LEFT"
    )


def render_season_pdf(
    result: SeasonStandings, *, printed_at: datetime.datetime | None = None
) -> bytes:
    font, bold = pdf_fonts().regular, pdf_fonts().bold
    styles = paragraph_styles(font, bold)
    season = result.season
    heading = "Season standings"
    when = printed_at or timezone.now()
    story: list[Flowable] = [
        Paragraph(markup(season.name), styles["title"]),
        Paragraph(markup(heading), styles["heading"]),
        Paragraph(markup(result.rule), styles["complete"]),
        Paragraph(markup(result.status_line), styles["warning" if result.waiting else "small"]),
        Paragraph(
            markup(
                f"{len(result.events)} events, {len(result.sessions)} sessions · printed "
                f"{date_and_time(when)}"
            ),
            styles["small"],
        ),
        Paragraph(markup(result.legend + " * marks a session among the best."), styles["small"]),
        Spacer(1, 6),
    ]
    if result.rows:
        story.append(_season_table(result, font, bold))
    else:
        story.append(Paragraph("No confirmed games yet.", styles["small"]))
    story.append(Spacer(1, 10))
    story += [Paragraph(markup(line), styles["small"]) for line in session_key(result)]
    return build_document(story, f"{season.name}: {heading}", season.name, font)


def season_sheets(result: SeasonStandings) -> list[tuple[str, list[str], list[list]]]:
    """(title, header, rows) per sheet: Season, Sessions (one row per player and session),
    Events."""
    standings = value_table(
        season_columns(result).for_output(Output.WORKBOOK), result.rows, Output.WORKBOOK
    )
    by_index = {s.index: s for s in result.sessions}
    sessions = [
        [
            row.player.player_id,
            row.player.name,
            by_index[played.session].label,
            _date(by_index[played.session].date),
            played.total,
            played.games,
            "yes" if played.session in row.best_sessions else "",
        ]
        for row in result.rows
        for played in row.player.sessions
    ]
    events = [
        [i, event.name, event.slug, _date(event.start_date), event.rules.days]
        for i, event in enumerate(result.events, start=1)
    ]
    return [
        ("Season", *standings),
        (
            "Sessions",
            [PLAYER_ID_HEADING, "Player", "Session", "Date", "Score", "Games", "Among the best"],
            sessions,
        ),
        ("Events", ["Position", "Event", "Short name", "Start date", "Days"], events),
    ]


def _date(value: datetime.date | None) -> str:
    return long_date(value) if value else ""


def season_workbook(result: SeasonStandings) -> bytes:
    workbook = Workbook(write_only=True)
    formats = {
        "Season": cell_formats(season_columns(result).for_output(Output.WORKBOOK)),
        "Sessions": {},
        "Events": {},
    }
    for title, header, rows in season_sheets(result):
        sheet = workbook.create_sheet(title)
        printed = f"{title}: {result.rule} ({result.status_line})" if title == "Season" else title
        set_page_layout(
            sheet,
            title=printed,
            event=result.season.name,
            widths=sheet_column_widths(header, rows),
            rows=len(rows),
        )
        write_sheet(sheet, header, rows, formats[title])
    buffer = BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
