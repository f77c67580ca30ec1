"""End to end in Chromium: import the club list, check players in, seat two days, print."""

import io
import re

import openpyxl
import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

pytestmark = pytest.mark.browser

NAMES = [
    "Ann Lee",
    "Bob Lee",
    "Renée Côté",
    "Dan O'Neil",
    "Eve Stone",
    "Fay Wu",
    "Gus Ortiz",
    "Hal Kim",
    "Ivy Park",
    "Jo Banks",
    "Kit Moss",
    "Lou Diaz",
    "Max Hart",
    "Ned Vale",
    "Ora Finch",
    "Pat Gray",
]


def club_workbook(path):
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["Name", "Club", "Keep apart", "Table", "Phone"])
    for name in NAMES:
        keep_apart = "Bob Lee" if name == "Ann Lee" else None
        table = 2 if name == "Hal Kim" else None
        sheet.append([name, "Sun RVers", keep_apart, table, "555-0100"])
    workbook.save(path)


def test_import_check_in_seat_two_days_and_print(
    transactional_db, organiser, login_page, live_server, quick_seating, tmp_path
):
    from tournaments.models import Entry, Seat
    from tournaments.services.events import create_tournament

    create_tournament(
        slug="spring", name="Spring Tournament", preset_key="tournament", organiser=organiser
    )
    page = login_page(organiser)
    page.get_by_role("link", name="Spring Tournament").click()

    # Import the club's spreadsheet.
    page.get_by_role("link", name="Import", exact=True).click()
    workbook = tmp_path / "club.xlsx"
    club_workbook(workbook)
    page.get_by_label("Player list (.xlsx or .csv)").set_input_files(str(workbook))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("status")).to_have_text("Imported 16 players and 1 keep-apart pair.")
    expect(page.get_by_role("cell", name="Renée Côté")).to_be_visible()

    # Check in everyone but Pat Gray, finding names with the search box.
    page.get_by_role("link", name="Check-in").click()
    search = page.get_by_label("Find a name")
    search.fill("lee")
    expect(page.locator("#checkin-list li:visible")).to_have_count(2)
    search.fill("")
    for name in NAMES[:-1]:
        page.get_by_role("button", name=f"Check in {name}", exact=True).click()
        expect(page.get_by_role("button", name=f"Undo check-in of {name}")).to_be_visible()
    expect(page.get_by_text("15 here · 1 not here yet · 0 withdrawn")).to_be_visible()

    # Seat day 1 with a seed, then day 2.
    page.get_by_role("link", name="Seating").click()
    page.get_by_role("link", name="Day 1").first.click()
    page.get_by_label("Shuffle number, to repeat a seating").fill("2026")
    page.get_by_role("button", name="Seat day 1").click()
    expect(page.get_by_role("status")).to_contain_text(
        "Day 1 is seated at 3 tables (shuffle number 2026): pairs who have sat together before: "
        "0 (fewest possible: 0)."
    )
    expect(page.locator(".seating-table")).to_have_count(3)
    expect(page.get_by_text("Pat Gray")).to_have_count(0)  # a no-show is not seated

    page.get_by_role("link", name="Day 2").click()
    page.get_by_role("button", name="Seat day 2").click()
    expect(page.get_by_role("status")).to_contain_text("Day 2 is seated at 3 tables")
    day2 = Entry.objects.get(player__name="Ann Lee").tournament.days.get(number=2)
    expect(page.locator(".seating-summary strong")).to_have_text(
        f"Pairs who have sat together before: {day2.repeat_pairs} "
        f"(fewest possible: {day2.repeat_lower_bound})"
    )
    assert day2.repeat_pairs == day2.repeat_lower_bound
    table_of = dict(
        Seat.objects.filter(day=day2).values_list("entry__player__name", "table__number")
    )
    assert table_of["Ann Lee"] != table_of["Bob Lee"] and table_of["Hal Kim"] == 2

    # The wall chart downloads as a PDF holding every seated name.
    href = page.get_by_role("link", name="Seating chart (PDF)").get_attribute("href")
    response = page.request.get(live_server.url + href)
    assert response.headers["content-type"] == "application/pdf"
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages)
    for name in NAMES[:-1]:
        assert name in text
    with page.expect_download() as download:
        page.get_by_role("link", name="Find-your-table list (PDF)").click()
    assert download.value.suggested_filename == "spring-day2-find-your-table.pdf"

    # On a phone the seating page fits the screen.
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    expect(page.get_by_role("heading", name="Table 1")).to_be_visible()

    # A player finds their table on the public page.
    page.goto(f"{live_server.url}/t/spring/")
    page.get_by_role("link", name="Find your table").click()
    page.get_by_label("Your name, or part of it").fill("renée")
    page.get_by_role("button", name="Find my table").click()
    expect(page.locator(".find-results")).to_contain_text(
        re.compile(rf"Day 2: Table {table_of['Renée Côté']}")
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
