"""One printed form per value: club averages and dates read the same on the pages, in the PDFs
and in the workbooks."""

import datetime
import io
import re

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from core.formats import average_text, date_and_time, long_date, weekday_date
from scoring.score_sheets_pdf import score_sheets_pdf
from standings.pdf import render_standings_pdf
from standings.read import standings
from standings.xlsx import standings_workbook

pytestmark = pytest.mark.django_db


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages)


def html_cells(html: str, table_id: str) -> list[list[str]]:
    table = html.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
        if "<td" in row
    ]


def test_club_average_reads_the_same_on_page_board_pdf_and_workbook(client, demo_tournament):
    result = standings(demo_tournament)
    expected = {club.club: average_text(club.average) for club in result.clubs}
    assert expected and all(re.fullmatch(r"\d+\.\d", text) for text in expected.values())

    page = client.get(f"/t/{demo_tournament.slug}/standings/").content.decode()
    assert {row[1]: row[4] for row in html_cells(page, "clubs")} == expected

    board = client.get(f"/t/{demo_tournament.slug}/projector/", {"page": 4}).content.decode()
    assert {row[1]: row[3] for row in html_cells(board, "board-clubs")} == expected

    printed = pdf_text(render_standings_pdf(result))
    for club, average in expected.items():
        assert re.search(rf"{re.escape(club)} \d+ \d+ {re.escape(average)}\b", printed), club

    sheet = load_workbook(io.BytesIO(standings_workbook(result)))["Clubs"]
    for row in sheet.iter_rows(min_row=2):
        club, average = row[1].value, row[4]
        # The stored number and its cell format show what the page shows.
        assert average.number_format == "0.0"
        assert f"{average.value:.1f}" == expected[club] and average.value == float(expected[club])


def test_dates_read_the_same_on_page_pdf_and_workbook(client, demo_tournament):
    demo_tournament.start_date = datetime.date(2026, 9, 5)
    demo_tournament.save()
    day = demo_tournament.days.get(number=1)
    day.date = datetime.date(2026, 9, 5)
    day.save()
    assert long_date(demo_tournament.start_date) == "5 September 2026"  # never "Sept. 5, 2026"

    page = client.get(f"/t/{demo_tournament.slug}/").content.decode()
    assert "5 September 2026" in page

    result = standings(demo_tournament)
    printed_at = datetime.datetime(2026, 9, 6, 19, 5, tzinfo=datetime.UTC)
    printed = pdf_text(render_standings_pdf(result, printed_at=printed_at))
    assert "5 September 2026" in printed
    assert f"printed {date_and_time(printed_at)}" in printed
    assert "printed 6 September 2026, 15:05" in printed  # the event's time zone, New York

    assert f"{weekday_date(day.date)}" == "Saturday 5 September 2026"
    assert "Saturday 5 September 2026" in pdf_text(score_sheets_pdf(day))

    rules = load_workbook(io.BytesIO(standings_workbook(result)))["Rules"]
    values = {row[0]: row[1] for row in rules.iter_rows(values_only=True)}
    assert values["Start date"] == "5 September 2026"
