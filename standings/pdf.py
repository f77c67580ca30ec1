"""Standings on paper: a portrait PDF (reportlab platypus) from ``standings.read``, with
the columns ``standings.columns`` defines for print.

Table cells are plain strings, never Paragraph markup, so a name like ``<b>Ann & "Bo"</b>``
prints as typed and 2,000 rows stay fast; only the heading uses Paragraphs, with escaping.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.utils import timezone
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from core.formats import date_and_time, long_date
from core.pdf_documents import (
    GRID,
    MARGIN,
    PADDING,
    PAGE_SIZE,
    STRIPE,
    build_document,
    markup,
    paragraph_styles,
)
from core.pdf_fonts import pdf_fonts, printable
from standings.columns import CLUB_COLUMNS, Column, Output, club_lines, player_columns, text_table
from standings.flights import flight_sections
from standings.pdf_chart import race_drawing
from standings.race import race_title
from standings.read import COMPLETE, PROVISIONAL, Standings, marks_legend

FONT_SIZES = (9, 8.5, 8, 7.5, 7, 6.5, 6)


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Word-wrap to ``width``; a single word longer than the column is cut where it must be."""
    lines = []
    for line in simpleSplit(text, font, size, width) or [""]:
        while pdfmetrics.stringWidth(line, font, size) > width and len(line) > 1:
            cut = len(line) - 1
            while cut > 1 and pdfmetrics.stringWidth(line[:cut], font, size) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
        lines.append(line)
    return lines


def _fits(text: str, font: str, size: float, column_width: float) -> bool:
    # A column sized to its text must not wrap it for a rounding error.
    return pdfmetrics.stringWidth(text, font, size) <= column_width - 2 * PADDING + 0.01


def _player_columns(result: Standings) -> list[Column]:
    return player_columns(result.day_numbers, result.tournament.rules.sessions_per_day).for_output(
        Output.PDF
    )


def printed_table(columns: list[Column], rows) -> tuple[list[str], list[list[str]]]:
    """Header and body as printed: text cells keep only what the PDF font can draw."""
    header, body = text_table(columns, rows, Output.PDF)
    text_columns = [i for i, column in enumerate(columns) if not column.numeric]
    for line in body:
        for i in text_columns:
            line[i] = printable(line[i])
    return header, body


def player_table_rows(result: Standings) -> tuple[list[str], list[list[str]]]:
    """Header and body rows as printed (also what the benchmark's bare table is given)."""
    return printed_table(_player_columns(result), result.rows)


def _number_widths(header, body, text_columns, font, bold, size, *, wrapped=()) -> list[float]:
    """Each number column's width (0 for the text columns); a heading in ``wrapped`` needs only
    its longest word."""
    width = pdfmetrics.stringWidth
    widths = []
    for i, title in enumerate(header):
        if i in text_columns:
            widths.append(0.0)
            continue
        longest = max((r[i] for r in body), key=len, default="")
        words = title.split() if i in wrapped else [title]
        heading = max((width(word, bold, size) for word in words), default=0.0)
        widths.append(max(heading, width(longest, font, size)) + 2 * PADDING)
    return widths


def _text_widths(header, body, text_columns, font, bold, size) -> list[float]:
    width = pdfmetrics.stringWidth
    return [
        max([width(header[i], bold, size), *(width(r[i], font, size) for r in body)]) + 2 * PADDING
        for i in text_columns
    ]


def column_widths(
    header, body, text_columns, font, bold, available, wrappable=()
) -> tuple[float, list[float]]:
    """Largest font size whose number columns leave the text columns (the first of them the
    player's name) at least 45 % of the row. When the text still does not fit, the headings of
    the ``wrappable`` columns break over two lines to give the names more room."""
    for size in FONT_SIZES:
        widths = _number_widths(header, body, text_columns, font, bold, size)
        rest = available - sum(widths)
        if rest >= 0.45 * available or size == FONT_SIZES[-1]:
            break
    natural = _text_widths(header, body, text_columns, font, bold, size)
    if sum(natural) > rest:
        widths = _number_widths(header, body, text_columns, font, bold, size, wrapped=wrappable)
        rest = available - sum(widths)
    first, others = text_columns[0], list(zip(text_columns[1:], natural[1:], strict=True))
    # When everything fits the player column takes the slack, so the table spans the page.
    # When not, names come first: the player column gets what its names need, between 60 % and
    # 70 % of the room, and the other text columns share the rest in proportion and wrap.
    room = rest - min(max(natural[0], rest * 0.6), rest * 0.7)
    wanted = sum(n for _, n in others)
    share = 1.0 if wanted <= room else room / wanted
    given = {i: n * share for i, n in others}
    widths[first] = rest - sum(given.values())
    for i, w in given.items():
        widths[i] = w
    return size, widths


def _player_table(result: Standings, font: str, bold: str) -> Table:
    columns = _player_columns(result)
    text_columns = [i for i, column in enumerate(columns) if not column.numeric]
    header, body = printed_table(columns, result.rows)
    available = PAGE_SIZE[0] - 2 * MARGIN
    wrappable = [i for i, column in enumerate(columns) if column.heading_wraps]
    size, widths = column_widths(header, body, text_columns, font, bold, available, wrappable)
    leading = size * 1.2

    header_lines = 1
    for i, title in enumerate(header):
        if not _fits(title, bold, size, widths[i]):
            wrapped = _wrap(title, bold, size, widths[i] - 2 * PADDING)
            header[i] = "\n".join(wrapped)
            header_lines = max(header_lines, len(wrapped))
    heights = [leading * header_lines + 2 * PADDING]
    for cells in body:
        lines = 1
        for i in text_columns:
            if not _fits(cells[i], font, size, widths[i]):
                wrapped = _wrap(cells[i], font, size, widths[i] - 2 * PADDING)
                cells[i] = "\n".join(wrapped)
                lines = max(lines, len(wrapped))
        heights.append(leading * lines + 2 * PADDING)

    style: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, 0), bold, size, leading),
        ("FONT", (0, 1), (-1, -1), font, size, leading),
        ("ALIGN", (0, 0), (-1, -1), "RIGHT"),
        *(("ALIGN", (i, 0), (i, -1), "LEFT") for i in text_columns),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), PADDING),
        ("TOPPADDING", (0, 0), (-1, -1), PADDING - 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), PADDING + 1),
        ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, STRIPE]),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, GRID),
    ]
    for i, column in enumerate(columns):
        if column.bold:
            style.append(("FONT", (i, 1), (i, -1), bold, size, leading))
    for i, row in enumerate(result.rows, start=1):
        if row.rank is None:
            style.append(("TEXTCOLOR", (0, i), (-1, i), colors.HexColor("#666666")))

    return Table(
        [header, *body],
        colWidths=widths,
        rowHeights=heights,
        repeatRows=1,
        style=TableStyle(style),
        hAlign="LEFT",
    )


def render_standings_pdf(
    result: Standings, *, printed_at: datetime.datetime | None = None
) -> bytes:
    font, bold = pdf_fonts().regular, pdf_fonts().bold
    tournament = result.tournament
    players = _player_table(result, font, bold)

    styles = paragraph_styles(font, bold)
    heading = f"{result.state.capitalize()} standings"
    if result.cut_label:
        heading += f" {result.cut_label}"
    if result.flight:
        heading += f" \u00b7 {result.flight_label}"
    when = printed_at or timezone.now()
    facts = [
        long_date(tournament.start_date) if tournament.start_date else "",
        tournament.venue,
        f"printed {date_and_time(when)}",
    ]
    story: list[Flowable] = [
        Paragraph(markup(tournament.name), styles["title"]),
        Paragraph(markup(heading), styles["heading"]),
        Paragraph(markup(" · ".join(f for f in facts if f)), styles["small"]),
    ]
    if result.state == PROVISIONAL:
        story.append(Paragraph(markup(result.status_line), styles["warning"]))
    elif result.state == COMPLETE:
        story.append(Paragraph(markup(result.status_line), styles["complete"]))
    elif result.order_note:
        story.append(Paragraph(markup(result.order_note), styles["complete"]))
    if result.hidden_note:
        story.append(Paragraph(markup(result.hidden_note), styles["warning"]))
    story.append(
        Paragraph(
            markup(f"{marks_legend(result)} Totals count confirmed games only."),
            styles["small"],
        )
    )
    story += [Spacer(1, 6), players]
    if result.clubs:
        # The heading stays with its table: never a heading alone at the foot of a page.
        story.append(
            KeepTogether(
                [
                    Spacer(1, 14),
                    Paragraph("Clubs", styles["heading"]),
                    _club_table(result, font, bold),
                ]
            )
        )
    story += _flight_sections(result, font, bold, styles)
    chart = race_drawing(result, PAGE_SIZE[0] - 2 * MARGIN, font)
    if chart is not None:
        story += [PageBreak(), Paragraph(race_title(result), styles["heading"]), chart]

    return build_document(story, f"{tournament.name}: {heading}", tournament.name, font)


def _flight_sections(
    result: Standings, font: str, bold: str, styles: dict[str, ParagraphStyle]
) -> list[Flowable]:
    """Each flight on a page of its own after every player's standings, ranked within it."""
    story: list[Flowable] = []
    for section in flight_sections(result):
        story += [
            PageBreak(),
            Paragraph(markup(f"{section.flight_label} standings"), styles["heading"]),
        ]
        if section.rows:
            story += [Spacer(1, 6), _player_table(section, font, bold)]
        else:
            story.append(Paragraph(markup("No player in this flight yet."), styles["small"]))
    return story


def _club_table(result: Standings, font: str, bold: str) -> Table:
    columns = CLUB_COLUMNS.for_output(Output.PDF)
    header, body = printed_table(columns, club_lines(result))
    return Table(
        [header, *body],
        repeatRows=1,
        hAlign="LEFT",
        style=TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), bold, 9),
                ("FONT", (0, 1), (-1, -1), font, 9),
                ("ALIGN", (0, 0), (-1, -1), "RIGHT"),
                *(
                    ("ALIGN", (i, 0), (i, -1), "LEFT")
                    for i, column in enumerate(columns)
                    if not column.numeric
                ),
                ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, GRID),
            ]
        ),
    )
