"""The prize table on paper: the announcement sheet, in the order the prizes are called (the
booby prize and the specials first, then the places from the last to 1st), and a certificate
for each winner, one to a page."""

from __future__ import annotations

from django.utils import timezone
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer

from core.formats import date_and_time, long_date
from core.pdf_documents import PADDING, build_document, markup, paragraph_styles, ruled_table
from core.pdf_fonts import pdf_fonts, printable
from standings.prizes import PrizeTable


def _as_of(table: PrizeTable) -> str:
    changed = date_and_time(table.changed_at) if table.changed_at else "none"
    return (
        f"Printed {date_and_time(timezone.now())}, from the final standings as of the last "
        f"score change ({changed}). A change after that makes this sheet out of date."
    )


def announcement_pdf(table: PrizeTable) -> bytes:
    font, bold = pdf_fonts().regular, pdf_fonts().bold
    styles = paragraph_styles(font, bold)
    tournament = table.tournament
    rows = [["Called", "Prize", "Winner", "Player ID", "Won with"]]
    for i, award in enumerate(table.called, start=1):
        winner = award.winner
        rows.append(
            [
                str(i),
                printable(award.prize.title),
                printable(winner.name) if winner else printable(award.nobody or "tie to decide"),
                str(winner.number) if winner else "",
                award.what + (" (decided by the organiser)" if award.decided else ""),
            ]
        )
    grid = ruled_table(rows, font, bold, size=11, padding=PADDING + 2, bold_column=2)
    story: list[Flowable] = [
        Paragraph(markup(tournament.name), styles["title"]),
        Paragraph("Prizes: the announcement", styles["heading"]),
        Paragraph(markup(_as_of(table)), styles["small"]),
        Spacer(1, 8),
        grid,
    ]
    return build_document(story, f"{tournament.name}: Prize announcement", tournament.name, font)


def certificates_pdf(table: PrizeTable) -> bytes:
    font, bold = pdf_fonts().regular, pdf_fonts().bold
    big = ParagraphStyle("big", fontName=bold, fontSize=30, leading=38, alignment=TA_CENTER)
    line = ParagraphStyle("line", fontName=font, fontSize=16, leading=22, alignment=TA_CENTER)
    name = ParagraphStyle("name", fontName=bold, fontSize=26, leading=34, alignment=TA_CENTER)
    tournament = table.tournament
    when = long_date(tournament.start_date) if tournament.start_date else ""
    story: list[Flowable] = []
    for award in table.called:
        if award.winner is None:
            continue
        if story:
            story.append(PageBreak())
        story += [
            Spacer(1, 120),
            Paragraph("Certificate", big),
            Spacer(1, 30),
            Paragraph("awarded to", line),
            Spacer(1, 10),
            Paragraph(markup(award.winner.name), name),
            Spacer(1, 24),
            Paragraph(markup(f"{award.prize.title}: {award.what}"), line),
            Spacer(1, 10),
            Paragraph(markup(" · ".join(p for p in (tournament.name, when) if p)), line),
        ]
    if not story:
        story.append(Paragraph("No prize has a winner yet.", line))
    return build_document(story, f"{tournament.name}: Prize certificates", tournament.name, font)
