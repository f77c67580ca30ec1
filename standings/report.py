"""The standings as a downloadable report: the PDF and the workbook under one file name."""

from __future__ import annotations

from functools import partial

from core.reports import PDF, XLSX, Report
from standings.pdf import render_standings_pdf
from standings.read import Standings
from standings.xlsx import standings_workbook


def standings_report(result: Standings) -> Report:
    """File names say the event and the cut: ``spring-standings-after-day-1.pdf``."""
    cut = "-".join(f"{k.replace('_', '-')}-{v}" for k, v in result.cut.as_params().items())
    name = f"{result.tournament.slug}-standings{'-' + cut if cut else ''}"
    return Report(
        name,
        {
            PDF: partial(render_standings_pdf, result),
            XLSX: partial(standings_workbook, result),
        },
    )
