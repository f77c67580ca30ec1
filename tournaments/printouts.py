"""Seating printouts: the wall chart by table, and the alphabetical "find your table" list.

Text is drawn with drawString, never Paragraph markup, so a name holding "&" or "<" prints as
typed; the fonts are the ones every printout shares (core.pdf_fonts).
"""

import io

from reportlab.lib.pagesizes import letter
from reportlab.pdfbase import pdfmetrics

from core.pdf_fonts import document_canvas, pdf_fonts, printable
from domain.session_days import session_label


def _fit(text: str, font: str, size: float, width: float, smallest: float = 9) -> float:
    """The largest type size up to ``size`` at which ``text`` fits in ``width``."""
    while size > smallest and pdfmetrics.stringWidth(text, font, size) > width:
        size -= 0.5
    return size


def _clip(text: str, font: str, size: float, width: float) -> str:
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` broken between words into lines of at most ``width`` (a word longer than a
    line is cut short)."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and pdfmetrics.stringWidth(joined, font, size) <= width:
            lines[-1] = joined
        else:
            lines.append(_clip(word, font, size, width))
    return lines


def _heading(text: str, font: str, size: float, width: float) -> tuple[float, list[str]]:
    """A page title that is never cut off: on one line, a little smaller if need be, else on
    two lines, as large as they fit (only a title too long even for two lines at the smallest
    size loses its end)."""
    one_line = _fit(text, font, size, width, smallest=size * 0.8)
    if pdfmetrics.stringWidth(text, font, one_line) <= width:
        return one_line, [text]
    while size > 9 and len(_wrap(text, font, size, width)) > 2:
        size -= 0.5
    first, *rest = _wrap(text, font, size, width)
    return size, [first, _clip(" ".join(rest), font, size, width)] if rest else [first]


def _below_first_line(lines: list[str], size: float) -> float:
    """How much lower than its first line a title from ``_heading`` reaches: what is drawn
    below it moves down by this."""
    return (size + 2) * (len(lines) - 1)


def _draw_heading(pdf, lines: list[str], size: float, x: float, baseline: float) -> float:
    """Draw a title from ``_heading`` in bold, its first line on ``baseline``; returns
    ``_below_first_line``."""
    pdf.setFont(pdf_fonts().bold, size)
    for i, line in enumerate(lines):
        pdf.drawString(x, baseline - i * (size + 2), line)
    return _below_first_line(lines, size)


def _nobody_seated(pdf, heading: str, page_w: float, page_h: float, margin: float) -> None:
    size, lines = _heading(heading, pdf_fonts().bold, 20, page_w - 2 * margin)
    below = _draw_heading(pdf, lines, size, margin, page_h - margin - 20)
    pdf.setFont(pdf_fonts().regular, 16)
    pdf.drawString(margin, page_h - margin - 60 - below, "Nobody is seated yet.")


def _which(day_number: int, per_day: int) -> str:
    """ "day 2", or "day 1, session 2" when the event plays several sessions a date."""
    label = session_label(day_number, per_day)
    return label[:1].lower() + label[1:]


def seating_chart_pdf(
    *, title: str, day_number: int, tables, per_day: int = 1, figures: str = ""
) -> bytes:
    """One block per table, four to a page: big table number, then each player's name.

    ``tables`` is a list of (table number, [(player number, name), ...]); ``figures``, when
    given, is printed small at the foot of each page (the day's pairs who have sat together
    before, in the seating page's words, so paper and page can be compared).
    """
    regular, bold = pdf_fonts().regular, pdf_fonts().bold
    buffer = io.BytesIO()
    which = _which(day_number, per_day)
    pdf = document_canvas(
        buffer, pagesize=letter, title=f"{title}: {which} seating chart", author=title
    )
    # The document title above is metadata and keeps every letter; drawn text must be in the font.
    title = printable(title)
    page_w, page_h = letter
    margin = 36
    title_size, title_lines = _heading(f"{title}: {which} seating", bold, 14, page_w - 2 * margin)
    header = 34 + _below_first_line(title_lines, title_size)
    cols, rows = 2, 2
    block_w = (page_w - 2 * margin) / cols
    block_h = (page_h - 2 * margin - header) / rows
    per_page = cols * rows
    if not tables:
        _nobody_seated(pdf, f"{title}: {which}", page_w, page_h, margin)
    for index, (number, players) in enumerate(tables):
        slot = index % per_page
        if slot == 0:
            if index:
                pdf.showPage()
            _draw_heading(pdf, title_lines, title_size, margin, page_h - margin - 14)
            if figures:
                pdf.setFont(regular, 10)
                pdf.drawString(margin, margin / 2, _clip(figures, regular, 10, page_w - 2 * margin))
        col, row = slot % cols, slot // cols
        x = margin + col * block_w
        top = page_h - margin - header - row * block_h
        pdf.setLineWidth(1.5)
        pdf.roundRect(x + 6, top - block_h + 6, block_w - 12, block_h - 12, 10)
        pdf.setFont(bold, 44)
        pdf.drawCentredString(x + block_w / 2, top - 58, f"Table {number}")
        inner = block_w - 40
        line = min(30.0, (block_h - 100) / max(len(players), 1))
        name_size = min(22.0, line * 0.8)
        y = top - 98
        for player_number, name in players:
            text = printable(name)
            # Below 13 pt a name cannot be read from across the hall; cut it short instead.
            size = _fit(text, regular, name_size, inner - 34, smallest=13)
            pdf.setFont(regular, 11)
            pdf.drawRightString(x + 46, y + 2, f"#{player_number}")
            pdf.setFont(regular, size)
            pdf.drawString(x + 52, y, _clip(text, regular, size, inner - 34))
            y -= line
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _find_table_heading(pdf, lines: list[str], size: float, *, left: float, top: float) -> None:
    """The heading of every page of the "find your table" list, and how to read the list."""
    below = _draw_heading(pdf, lines, size, left, top - 18)
    pdf.setFont(pdf_fonts().regular, 12)
    pdf.drawString(left, top - 36 - below, "Find your name; your table number is on the right.")


def find_table_pdf(*, title: str, day_number: int, rows, per_day: int = 1) -> bytes:
    """Everyone by surname with their table, two columns a page, for the door.

    ``rows`` is a list of (name, player number, table number), already in A-to-Z order.
    """
    regular, bold = pdf_fonts().regular, pdf_fonts().bold
    buffer = io.BytesIO()
    which = _which(day_number, per_day)
    pdf = document_canvas(
        buffer, pagesize=letter, title=f"{title}: {which}, find your table", author=title
    )
    # The document title above is metadata and keeps every letter; drawn text must be in the font.
    title = printable(title)
    page_w, page_h = letter
    margin = 40
    line = 19
    size = 13
    col_gap = 24
    col_w = (page_w - 2 * margin - col_gap) / 2
    title_size, title_lines = _heading(f"{title}: {which}", bold, 18, page_w - 2 * margin)
    first_y = page_h - margin - 56 - _below_first_line(title_lines, title_size)
    per_col = int((first_y - margin) // line) + 1

    def page_header():
        _find_table_heading(pdf, title_lines, title_size, left=margin, top=page_h - margin)

    page_header()
    if not rows:
        pdf.setFont(regular, 14)
        pdf.drawString(margin, first_y, "Nobody is seated yet.")
    for index, (name, player_number, table_number) in enumerate(rows):
        slot = index % (2 * per_col)
        if slot == 0 and index:
            pdf.showPage()
            page_header()
        col, row = divmod(slot, per_col)
        x = margin + col * (col_w + col_gap)
        y = first_y - row * line
        if row % 2 == 0:
            pdf.setFillGray(0.93)
            pdf.rect(x - 4, y - 5, col_w + 8, line, stroke=0, fill=1)
            pdf.setFillGray(0)
        table_text = f"Table {table_number}"
        table_w = pdfmetrics.stringWidth(table_text, bold, size)
        # Name first, then table: text extraction and screen readers read the line in order.
        number_text = f" (#{player_number})"
        room = col_w - table_w - 10 - pdfmetrics.stringWidth(number_text, regular, size)
        pdf.setFont(regular, size)
        pdf.drawString(x, y, _clip(printable(name), regular, size, room) + number_text)
        pdf.setFont(bold, size)
        pdf.drawRightString(x + col_w, y, table_text)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()
