"""The standings-style PDF document every report here shares: letter pages with half-inch
margins, a footer with the title and "Page N of M", the paragraph styles and the table colours,
and text escaped for reportlab's markup."""

from __future__ import annotations

from io import BytesIO
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen import canvas
from reportlab.platypus import SimpleDocTemplate, Table, TableStyle

from core.pdf_fonts import document_settings, printable

PAGE_SIZE = letter
MARGIN = 36  # half an inch: room for a hole punch and the footer
PADDING = 3
GRID = colors.HexColor("#b0b0b0")
STRIPE = colors.HexColor("#f2f4f7")


class FooterCanvas(canvas.Canvas):
    """Holds pages back until the end so each footer can say "Page 3 of 40"."""

    footer_text = ""
    footer_font = "Helvetica"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pages = []

    def showPage(self):
        self._pages.append(dict(self.__dict__))
        # What Canvas.showPage ends with; private, so types-reportlab leaves it out.
        self._startPage()  # type: ignore[attr-defined]

    def save(self):
        total = len(self._pages)
        for number, state in enumerate(self._pages, start=1):
            self.__dict__.update(state)
            self.setFont(self.footer_font, 8)
            self.setFillColor(colors.HexColor("#444444"))
            self.drawString(MARGIN, MARGIN / 2, self.footer_text)
            self.drawRightString(PAGE_SIZE[0] - MARGIN, MARGIN / 2, f"Page {number} of {total}")
            super().showPage()
        super().save()


def build_document(story: list, title: str, author: str, font: str) -> bytes:
    """A portrait standings document: the page size and margins every standings PDF uses, and
    ``title`` in each page's footer with "Page N of M"."""
    buffer = BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=PAGE_SIZE,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        **document_settings(title=title, author=author),
    )

    class Footer(FooterCanvas):
        footer_text = printable(title)
        footer_font = font

    doc.build(story, canvasmaker=Footer)
    return buffer.getvalue()


def markup(text: str) -> str:
    return escape(printable(text))


def _banner_style(name: str, bold: str, background: str) -> ParagraphStyle:
    """The status banner above the table: one look, its colour saying which state."""
    return ParagraphStyle(
        name,
        fontName=bold,
        fontSize=10,
        leading=13,
        backColor=colors.HexColor(background),
        borderPadding=3,
        spaceBefore=3,
        spaceAfter=3,
    )


def paragraph_styles(font: str, bold: str) -> dict[str, ParagraphStyle]:
    return {
        "title": ParagraphStyle("title", fontName=bold, fontSize=16, leading=20, spaceAfter=2),
        "heading": ParagraphStyle("heading", fontName=bold, fontSize=12, leading=15, spaceAfter=2),
        "small": ParagraphStyle("small", fontName=font, fontSize=8.5, leading=11),
        "complete": _banner_style("complete", bold, "#dbeafe"),
        "warning": _banner_style("warning", bold, "#fff4d6"),
    }


def ruled_table(
    rows: list[list[str]],
    font: str,
    bold: str,
    *,
    size: float = 10,
    padding: float = PADDING,
    bold_column: int | None = None,
    numbers_last: bool = False,
) -> Table:
    """A plain table of a short report: a bold header repeated on each page, a thin grid,
    striped rows; optionally a column in bold (the names to read out) and the last column
    right-aligned (amounts)."""
    commands: list[tuple] = [
        ("FONT", (0, 0), (-1, 0), bold, size),
        ("FONT", (0, 1), (-1, -1), font, size),
        ("GRID", (0, 0), (-1, -1), 0.5, GRID),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [None, STRIPE]),
        ("TOPPADDING", (0, 0), (-1, -1), padding),
        ("BOTTOMPADDING", (0, 0), (-1, -1), padding),
    ]
    if bold_column is not None:
        commands.append(("FONT", (bold_column, 1), (bold_column, -1), bold, size))
    if numbers_last:
        commands.append(("ALIGN", (-1, 0), (-1, -1), "RIGHT"))
    table = Table(rows, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle(commands))
    return table
