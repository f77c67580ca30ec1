"""Whatever a user typed comes out as typed, and never as markup or a formula, in every output."""

import io
import re

import openpyxl
import pytest
from pypdf import PdfReader
from scoring_factories import seated_day, typed

from scoring.models import Source
from scoring.services import submit_game

HOSTILE = (
    "<script>alert(1)</script>",
    "<b>Bold Bea</b>",
    '=HYPERLINK("http://evil.example","Click")',
    "O'Brien & Sons",
    "Dan 🁣 Domino",
    "שרה כהן",
    "+Plus @Mention",
)
# What a PDF font without emoji or Hebrew glyphs still prints; reportlab's text extraction gives
# back the same characters for these.
PRINTABLE = ("<script>alert(1)</script>", "<b>Bold Bea</b>", "O'Brien & Sons")


@pytest.fixture
def world(db, organiser):
    world = seated_day(tables=(HOSTILE,), organiser=organiser)
    scores = {name: 5 + i for i, name in enumerate(HOSTILE)}
    scores[HOSTILE[0]] = 0
    submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, scores, out=HOSTILE[0]),
        0,
        source=Source.DESK,
        user=organiser,
    )
    return world


def _pages(world):
    slug = world.tournament.slug
    return [
        f"/t/{slug}/standings/",
        f"/t/{slug}/find-your-table/?q=O%27Brien",
        f"/t/{slug}/projector/",
        f"/t/{slug}/projector/?page=2",  # the race chart
        f"/t/{slug}/player/1/",
        f"/organiser/t/{slug}/day/1/board/",
        f"/organiser/t/{slug}/standings/",
        f"/organiser/t/{slug}/players/",
        f"/organiser/t/{slug}/seating/1/",
        f"/organiser/t/{slug}/day/1/scores/",
        f"/organiser/t/{slug}/day/1/table/1/card/",
        f"/organiser/t/{slug}/day/1/table/1/history/",
        f"/table/{world.tables[0].link_token}/",
        "/admin/tournaments/player/",
    ]


def test_html_pages_escape_every_name(organiser_client, world):
    for url in _pages(world):
        response = organiser_client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert "<script>alert(1)</script>" not in html, url
        assert "<b>Bold Bea</b>" not in html, url
    # The names still appear, escaped, where players are listed.
    html = organiser_client.get(f"/organiser/t/{world.tournament.slug}/players/").content.decode()
    for expected in (
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "&lt;b&gt;Bold Bea&lt;/b&gt;",
        "O&#x27;Brien &amp; Sons",
        "Dan 🁣 Domino",
        "שרה כהן",
    ):
        assert expected in html


def _pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_pdfs_print_names_as_typed(organiser_client, world):
    slug = world.tournament.slug
    for url in (
        f"/organiser/t/{slug}/standings.pdf",
        f"/organiser/t/{slug}/seating/1/chart.pdf",
        f"/organiser/t/{slug}/seating/1/find-your-table.pdf",
        f"/organiser/t/{slug}/day/1/score-sheets.pdf",
    ):
        response = organiser_client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf", url
        text = _pdf_text(response.content)
        flat = re.sub(r"\s+", " ", text)
        for name in PRINTABLE:
            # A wall chart may clip a long name with "…" to fit its column: the start must match.
            assert name in flat or f"{name[:18]}" in flat, (url, name)
        assert "&amp;" not in flat and "&lt;" not in flat, url


def _no_formulas(data: bytes) -> dict[str, list]:
    workbook = openpyxl.load_workbook(io.BytesIO(data))
    seen = {}
    for sheet in workbook.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
                if isinstance(cell.value, str):
                    seen.setdefault(cell.value, []).append(sheet.title)
    return seen


def test_excel_outputs_keep_names_as_text(organiser_client, world):
    slug = world.tournament.slug
    for url in (f"/organiser/t/{slug}/standings.xlsx", f"/organiser/t/{slug}/day/1/scores.xlsx"):
        response = organiser_client.get(url)
        assert response.status_code == 200, url
        seen = _no_formulas(response.content)
        for name in HOSTILE:
            assert name in seen, (url, name)


def test_player_import_from_csv_stores_names_as_typed(organiser_client, make_tournament):
    from tournaments.models import Entry

    tournament = make_tournament(slug="csv-cup")
    rows = (
        "Name,Club\n"
        + "\n".join('"{}",{}'.format(name.replace('"', '""'), "Club & Co") for name in HOSTILE)
        + "\n"
    )
    upload = io.BytesIO(rows.encode("utf-8"))
    upload.name = "players.csv"
    response = organiser_client.post(
        f"/organiser/t/{tournament.slug}/players/import/", {"file": upload}
    )
    assert response.status_code in (200, 302)
    stored = set(Entry.objects.filter(tournament=tournament).values_list("player__name", flat=True))
    assert stored == set(HOSTILE)
