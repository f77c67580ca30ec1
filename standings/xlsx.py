"""The club's record of an event as one Excel workbook (openpyxl, write-only for speed).

Sheets: Standings (first), one per flight when every player's standings are shown in an event
with flights (``standings.flights``), Clubs, Scores, Seating, Rules. Every text cell that a
spreadsheet could take for a formula (starting =, +, - or @) is stored as text with Excel's
quote prefix, so a player typed as ``=HYPERLINK(...)`` stays a name.
"""

from __future__ import annotations

from io import BytesIO

from openpyxl import Workbook

from core.formats import long_date
from core.spreadsheet_print import set_page_layout
from core.spreadsheet_write import sheet_column_widths, write_sheet
from standings.columns import CLUB_COLUMNS, Column, Output, club_lines, player_columns, value_table
from standings.flights import flight_sections, sheet_title
from standings.read import Standings
from standings.workbook_rows import score_rows, seating_rows
from tournaments.presenters import rule_rows


def standings_workbook(result: Standings) -> bytes:
    """The whole workbook: the standings given, plus two queries for scores and seating."""
    tournament = result.tournament
    scores = score_rows(tournament, result.hidden_from)
    return build_workbook(result, scores, seating_rows(tournament))


def standings_sheet_rows(result: Standings) -> tuple[list[str], list[list]]:
    columns = player_columns(
        result.day_numbers, result.tournament.rules.sessions_per_day
    ).for_output(Output.WORKBOOK)
    return value_table(columns, result.rows, Output.WORKBOOK)


def workbook_sheets(result: Standings, scores: list[tuple], seating: list[tuple]):
    """(title, header, rows) per sheet, in order: what the workbook holds, cell for cell."""
    clubs = value_table(
        CLUB_COLUMNS.for_output(Output.WORKBOOK), club_lines(result), Output.WORKBOOK
    )
    score_sheet = [
        [day, table, game, engine, number, name, points, "yes" if out else "", state]
        for day, table, game, engine, number, name, points, out, state in scores
    ]
    flights = [(sheet_title(f), *standings_sheet_rows(f)) for f in flight_sections(result)]
    return [
        ("Standings", *standings_sheet_rows(result)),
        *flights,
        ("Clubs", *clubs),
        (
            "Scores",
            ["Day", "Table", "Game", "Engine used", "Player ID", "Player", "Score", "Out", "State"],
            score_sheet,
        ),
        ("Seating", ["Day", "Table", "Player ID", "Player"], [list(r) for r in seating]),
        ("Rules", ["Setting", "Value"], _rule_rows(result)),
    ]


def build_workbook(result: Standings, scores: list[tuple], seating: list[tuple]) -> bytes:
    workbook = Workbook(write_only=True)
    # The standings depend on the cut and on what is confirmed; the page header says which.
    status = f"{result.title} ({result.status_line})"
    printed_titles = {"Standings": status, "Clubs": f"Clubs: {status}"}
    players = cell_formats(
        player_columns(result.day_numbers, result.tournament.rules.sessions_per_day).for_output(
            Output.WORKBOOK
        )
    )
    formats = {
        "Standings": players,
        "Clubs": cell_formats(CLUB_COLUMNS.for_output(Output.WORKBOOK)),
    }
    for section in flight_sections(result):
        printed_titles[sheet_title(section)] = f"{section.title} ({section.status_line})"
        formats[sheet_title(section)] = players
    for title, header, rows in workbook_sheets(result, scores, seating):
        sheet = workbook.create_sheet(title)
        set_page_layout(
            sheet,
            title=printed_titles.get(title, title),
            event=result.tournament.name,
            widths=sheet_column_widths(header, rows),
            rows=len(rows),
        )
        write_sheet(sheet, header, rows, formats.get(title, {}))
    buffer = BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _rule_rows(result: Standings) -> list[list]:
    tournament = result.tournament
    rules = tournament.rules
    rows = [
        ["Tournament", tournament.name],
        ["Start date", long_date(tournament.start_date) if tournament.start_date else ""],
        ["Venue", tournament.venue],
        ["Standings", f"{result.title} ({result.status_line})"],
    ]
    if result.hidden_note:
        rows.append(["Hidden finish", result.hidden_note])
    # The rules page's labels and words, never the stored values ([[2, 7, 12]], not_ranked);
    # a plain count stays a number the spreadsheet can use.
    for row in rule_rows(rules, tournament.preset):
        value = getattr(rules, row.field)
        plain_number = isinstance(value, int) and not isinstance(value, bool)
        rows.append([row.label, value if plain_number and row.field != "top_double" else row.value])
    return rows


def cell_formats(columns: list[Column]) -> dict[int, str]:
    """Column index -> number format, for the columns that print in a form of their own."""
    return {i: c.cell_format for i, c in enumerate(columns) if c.cell_format is not None}
