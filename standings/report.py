"""The standings as a downloadable report: the PDF and the workbook under one file name."""

from __future__ import annotations

from functools import partial

from django.utils.text import slugify

from core.reports import PDF, XLSX, Report
from standings.pdf import render_standings_pdf
from standings.read import Standings
from standings.xlsx import standings_workbook


def standings_report(result: Standings) -> Report:
    """File names say the event, the flight and the cut:
    ``spring-standings-flight-70-79-after-day-1.pdf``."""
    cut = "-".join(f"{k.replace('_', '-')}-{v}" for k, v in result.cut.as_params().items())
    if result.flight:
        # A flight's name may hold a "+" or a space, which a file name is better without.
        flight = slugify(result.flight.replace("+", " plus")) or "flight"
        cut = f"flight-{flight}" + (f"-{cut}" if cut else "")
    name = f"{result.tournament.slug}-standings{'-' + cut if cut else ''}"
    return Report(
        name,
        {
            PDF: partial(render_standings_pdf, result),
            XLSX: partial(standings_workbook, result),
        },
    )
