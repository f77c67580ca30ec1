"""Standings per flight (``domain.flights``) as the PDF and the workbook print them.

A download of one flight's view holds that flight; a download of every player holds them
first, then one section (PDF) or sheet (workbook) per flight, so one file serves the prize
table of every flight. Each section is ranked from the records already read: no query.
"""

from __future__ import annotations

from standings.read import Standings


def flight_sections(result: Standings) -> list[Standings]:
    """Each flight's standings after every player's; none when ``result`` is one flight
    already or the event has no flights."""
    if result.flight:
        return []
    return [result.for_flight(flight) for flight in result.tournament.rules.flights]


def sheet_title(section: Standings) -> str:
    """ "Flight 80+": flight names hold no character a sheet name refuses, and are short
    enough (domain.flights.FLIGHT_MAX) to fit the 31 a sheet name may have."""
    return section.flight_label[:31]
