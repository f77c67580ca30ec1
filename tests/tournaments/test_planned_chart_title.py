"""The planned-seating chart's title fits the page for a long event name: it wraps (or
shrinks) rather than being cut off, so "PLANNED, not seated" is always printed."""

import io

import pytest
from pypdf import PdfReader
from reportlab.lib.pagesizes import letter
from reportlab.pdfbase.pdfmetrics import stringWidth
from scoring_factories import organiser_url as url, register

from core.pdf_fonts import pdf_fonts
from tournaments.access import COMMAND_LINE
from tournaments.services.planning import plan_remaining_days
from tournaments.services.rules import change_rules

pytestmark = pytest.mark.django_db

LONG = "Lakeside RV Park Mexican Train Spring Samboree and Open Club Championship 2026"
PAGE_W, PAGE_H = letter
MARGIN = 36


def heading_of(data: bytes) -> list[tuple[str, float, float, float]]:
    """(text, x, y, size) of each piece drawn above the first table's box, on every page."""
    pieces = []
    for page in PdfReader(io.BytesIO(data)).pages:

        def visit(text, cm, tm, _font, size):
            if text.strip() and tm[5] > PAGE_H - MARGIN - 60:
                pieces.append((text.strip(), tm[4], tm[5], size * tm[0]))

        page.extract_text(visitor_text=visit)
    return pieces


def planned_chart(make_tournament, organiser_client, organiser, name: str) -> bytes:
    event = make_tournament(slug="rally", name=name, organiser=organiser)
    change_rules(event, {"days": 2, "max_table_size": 4}, by=COMMAND_LINE)
    register(event, count=16)
    plan_remaining_days(event, seed=1)
    response = organiser_client.get(url(event, "seating/2/planned.pdf"))
    assert response.status_code == 200
    return response.content


def test_a_long_event_name_wraps_and_keeps_planned(make_tournament, organiser_client, organiser):
    data = planned_chart(make_tournament, organiser_client, organiser, LONG)
    assert len(PdfReader(io.BytesIO(data)).pages) == 1  # 4 tables of 4
    pieces = heading_of(data)
    title = f"{LONG} (PLANNED, not seated): day 2 seating"
    assert " ".join(text for text, *_ in pieces) == title  # every word, none cut off
    bold = pdf_fonts().bold
    for text, x, _y, size in pieces:
        assert size >= 10, text  # still a title, not small print
        assert x >= MARGIN and x + stringWidth(text, bold, size) <= PAGE_W - MARGIN, text
    # The lines sit one above the other and clear of the tables' boxes below.
    ys = sorted({round(y, 1) for *_, y, _ in pieces}, reverse=True)
    assert len(ys) == 2 and ys[0] - ys[1] >= pieces[0][3]


def test_a_short_event_name_stays_on_one_line(make_tournament, organiser_client, organiser):
    pieces = heading_of(planned_chart(make_tournament, organiser_client, organiser, "Rally"))
    assert [(text, size) for text, _, _, size in pieces] == [
        ("Rally (PLANNED, not seated): day 2 seating", 14)
    ]


def test_the_find_your_table_list_keeps_a_long_title_whole_above_the_names():
    from tournaments.printouts import find_table_pdf

    rows = [(f"Player {n:02d}", n, 1 + n % 6) for n in range(1, 41)]
    data = find_table_pdf(title=LONG, day_number=2, rows=rows)
    page = PdfReader(io.BytesIO(data)).pages[0]
    drawn: list[tuple[str, float, float]] = []
    page.extract_text(
        visitor_text=lambda text, cm, tm, _f, size: (
            drawn.append((text.strip(), tm[5], size * tm[0])) if text.strip() else None
        )
    )
    title = f"{LONG}: day 2"
    heading = [(text, y, size) for text, y, size in drawn if size > 13.5]
    assert " ".join(text for text, *_ in heading) == title  # every word, none cut off
    assert len({round(y) for _t, y, _s in heading}) == 2
    guide = next(y for text, y, _s in drawn if text.startswith("Find your name"))
    first_name = max(y for text, y, _s in drawn if text.startswith("Player"))
    assert min(y for _t, y, _s in heading) > guide > first_name
    assert all(text in page.extract_text() for text in ("Player 01", "Player 40"))
