"""The treasurer's workbook: payments by method, who owes, and the prize pot by place."""

from __future__ import annotations

from io import BytesIO

from openpyxl import Workbook

from core.reports import XLSX, Report
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


def treasurer_report(report: FeeReport) -> Report:
    return Report(f"{report.tournament.slug}-treasurer", {XLSX: lambda: treasurer_workbook(report)})
