"""The treasurer's report as a workbook and a PDF: payments by method, who owes, and the prize
pot by place, the same figures as the treasurer's page."""

from __future__ import annotations

from io import BytesIO

from django.utils import timezone
from openpyxl import Workbook
from reportlab.platypus import Flowable, Paragraph, Spacer

from core.formats import date_and_time, money
from core.pdf_documents import build_document, markup, paragraph_styles, ruled_table
from core.pdf_fonts import pdf_fonts, printable
from core.reports import PDF, XLSX, Report
from core.spreadsheet_print import set_page_layout
from core.spreadsheet_write import sheet_column_widths, write_sheet
from tournaments.selectors.fees import FeeReport

MONEY_FORMAT = "#,##0.00"


def treasurer_sheets(report: FeeReport) -> list[tuple[str, list[str], list[list], dict[int, str]]]:
    """(title, header, rows, number formats) per sheet: Totals, Owing, Prize pot."""
    totals = [list(row) for row in report.method_rows]
    totals.append(["Collected (not counting waived)", None, report.collected])
    owing = [[o.number, o.name, o.status.replace("_", " "), o.owed] for o in report.owing]
    pot = [[place, percent, part] for place, percent, part in report.places]
    pot.append([f"Pot: {report.tournament.pot_percent}% of the fees collected", None, report.pot])
    return [
        ("Totals", ["Method", "Payments", "Amount"], totals, {2: MONEY_FORMAT}),
        ("Owing", ["Player ID", "Player", "Status", "Owed"], owing, {3: MONEY_FORMAT}),
        ("Prize pot", ["Place", "Share %", "Amount"], pot, {2: MONEY_FORMAT}),
    ]


def treasurer_workbook(report: FeeReport) -> bytes:
    workbook = Workbook(write_only=True)
    for title, header, rows, formats in treasurer_sheets(report):
        sheet = workbook.create_sheet(title)
        set_page_layout(
            sheet,
            title=f"Treasurer: {title}",
            event=report.tournament.name,
            widths=sheet_column_widths(header, rows),
            rows=len(rows),
        )
        write_sheet(sheet, header, rows, formats)
    buffer = BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _printed(value) -> str:
    if value is None:
        return ""
    return printable(value) if isinstance(value, str) else str(value)


def treasurer_pdf(report: FeeReport) -> bytes:
    """The treasurer's sheets on paper, amounts printed as money, one table each."""
    font, bold = pdf_fonts().regular, pdf_fonts().bold
    styles = paragraph_styles(font, bold)
    tournament = report.tournament
    story: list[Flowable] = [
        Paragraph(markup(tournament.name), styles["title"]),
        Paragraph("Treasurer's report", styles["heading"]),
        Paragraph(
            markup(
                f"Each player's fee {money(report.due_each)} · printed "
                f"{date_and_time(timezone.now())}"
            ),
            styles["small"],
        ),
    ]
    for title, header, rows, formats in treasurer_sheets(report):
        printed = [
            [money(v) if i in formats and v is not None else _printed(v) for i, v in enumerate(row)]
            for row in rows
        ]
        story += [Spacer(1, 10), Paragraph(markup(title), styles["heading"])]
        if printed:
            story.append(ruled_table([header, *printed], font, bold, numbers_last=True))
        else:
            story.append(Paragraph("None.", styles["small"]))
    return build_document(story, f"{tournament.name}: Treasurer's report", tournament.name, font)


def treasurer_report(report: FeeReport) -> Report:
    return Report(
        f"{report.tournament.slug}-treasurer",
        {XLSX: lambda: treasurer_workbook(report), PDF: lambda: treasurer_pdf(report)},
    )
