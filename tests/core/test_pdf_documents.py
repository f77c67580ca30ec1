"""Every PDF the app prints, read back with pypdf: fonts embedded, title, author, language."""

import io
from pathlib import Path

import pytest
from pypdf import PdfReader
from readback import font_embedding

from core.pdf_fonts import BOLD_FILE, FONT_DIRS, REGULAR_FILE, font_dir, pdf_fonts

pytestmark = pytest.mark.django_db


@pytest.fixture
def printouts(organiser_client, demo_tournament):
    t = f"/organiser/t/{demo_tournament.slug}"
    paths = {
        "standings": f"/t/{demo_tournament.slug}/standings.pdf",
        "seating chart": f"{t}/seating/1/chart.pdf",
        "find your table": f"{t}/seating/1/find-your-table.pdf",
        "score sheets": f"{t}/day/1/score-sheets.pdf",
        "treasurer": f"{t}/treasurer.pdf",
    }
    documents = {}
    for name, path in paths.items():
        response = organiser_client.get(path)
        assert response.status_code == 200, path
        assert response["Content-Type"] == "application/pdf"
        documents[name] = PdfReader(io.BytesIO(response.content))
    return demo_tournament, documents


def test_every_font_in_every_printout_is_embedded(printouts):
    _, documents = printouts
    for name, reader in documents.items():
        fonts = font_embedding(reader)
        assert fonts, f"{name}: no fonts found"
        assert all(fonts.values()), (
            f"{name}: not embedded: {[f for f, e in fonts.items() if not e]}"
        )
        assert not any("Helvetica" in f for f in fonts), name


def test_every_printout_names_its_title_event_and_language(printouts):
    tournament, documents = printouts
    titles = {
        "standings": "Final standings",
        "seating chart": "day 1 seating chart",
        "find your table": "day 1, find your table",
        "score sheets": "day 1 score sheets",
        "treasurer": "Treasurer's report",
    }
    for name, reader in documents.items():
        info = reader.metadata
        assert info.title.startswith(f"{tournament.name}: ") and titles[name] in info.title, name
        assert info.author == tournament.name, name
        assert reader.trailer["/Root"]["/Lang"] == "en", name


def test_accented_names_print_in_the_embedded_font(printouts):
    _, documents = printouts
    text = " ".join(page.extract_text() for page in documents["standings"].pages)
    assert "Siobhán Jensen" in text


def test_the_shipped_font_is_used_where_the_system_has_none(tmp_path):
    shipped = Path(FONT_DIRS[-1])
    assert (shipped / REGULAR_FILE).is_file() and (shipped / BOLD_FILE).is_file()
    assert "Bitstream" in (shipped / "LICENSE-DejaVu.txt").read_text()
    assert font_dir((tmp_path / "no-fonts-here", shipped)) == shipped
    assert font_dir((tmp_path,)) is None
    assert pdf_fonts().embedded
