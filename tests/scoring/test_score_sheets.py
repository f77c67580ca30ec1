"""Printed score sheets (print_sheets), table links (table_links) and close_day on the command
line."""

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from pypdf import PdfReader
from readback import decode_qr
from scoring_factories import seated_day

from scoring.models import GameSheet
from scoring.score_sheets_pdf import score_sheets_pdf
from tournaments.models import Seat

pytestmark = pytest.mark.django_db

LONG_NAMES = (
    (
        "Siobhán Fitzgerald-Montgomery",
        "Bob Roe",
        "Cy Doe",
        "<b>Di & Fox</b>",
        "Ed Poe",
        "Flo Ng",
        "Gus Ray-Worthington",
    ),
    ("Hal Ito", "Ida Lund"),
)


def test_print_sheets_has_a_page_per_table_with_names_hand_size_and_qr(tmp_path, capsys):
    w = seated_day(tables=LONG_NAMES)
    path = tmp_path / "sheets.pdf"
    call_command(
        "print_sheets",
        w.tournament.slug,
        str(path),
        "--day",
        "1",
        "--base-url",
        "http://192.168.1.20:8000/",
    )
    reader = PdfReader(path)
    assert len(reader.pages) == 2
    for page, table, names in zip(reader.pages, w.tables, LONG_NAMES, strict=True):
        text = " ".join(page.extract_text().split())
        assert f"Table {table.number}" in text
        for name in names:
            assert name in text, name
        for engine in (12, 11, 10, 9, 8, 7):
            assert f"{engine}-{engine}" in text
        assert "Totals" in text and "signature" in text
        assert f"{len(names)} players: each draws 12 tiles." in text
        images = list(page.images)
        assert len(images) == 1
        assert decode_qr(images[0].data) == [f"http://192.168.1.20:8000/table/{table.link_token}/"]
        # For a phone that cannot scan: the site's address and the table's code, printed.
        assert "http://192.168.1.20:8000/" in text and table.code in text


def test_hand_size_follows_the_player_count(tmp_path):
    w = seated_day(
        preset="jib-room",
        tables=(("A a", "B b", "C c"), ("D d", "E e", "F f", "G g", "H h", "I i", "J j")),
    )
    reader = PdfReader(io.BytesIO(score_sheets_pdf(w.day)))
    texts = [" ".join(p.extract_text().split()) for p in reader.pages]
    assert "3 players: each draws 15 tiles." in texts[0]
    assert "7 players: each draws 11 tiles." in texts[1]
    assert "0-0" in texts[0]  # jib-room plays down to the double blank


def test_a_player_who_left_is_marked_on_later_games(tmp_path):
    w = seated_day(tables=(("Ann Lee", "Bob Roe", "Cy Doe"),))
    Seat.objects.filter(entry=w.entries["Cy Doe"]).update(left_after_game=4)
    text = PdfReader(io.BytesIO(score_sheets_pdf(w.day))).pages[0].extract_text()
    assert text.count("left") == 2


def test_table_links_prints_each_link(capsys):
    w = seated_day()
    call_command("table_links", w.tournament.slug, "--day", "1")
    out = capsys.readouterr()
    assert out.out.splitlines() == [
        f"Table {t.number}: http://127.0.0.1:8000/table/{t.link_token}/ (code {t.code})"
        for t in w.tables
    ]
    assert "only this laptop can open" in out.err
    call_command("table_links", w.tournament.slug, "--day", "1", "--base-url", "https://mt.example")
    assert capsys.readouterr().out.splitlines()[0].startswith("Table 1: https://mt.example/table/")


def test_close_day_command_kills_the_links(client, capsys):
    w = seated_day()
    url = f"/table/{w.tables[0].link_token}/"
    call_command("close_day", w.tournament.slug, "--day", "1")
    assert client.get(url).status_code == 404
    with pytest.raises(CommandError, match="already closed"):
        call_command("close_day", w.tournament.slug, "--day", "1")
    call_command("close_day", w.tournament.slug, "--day", "1", "--reopen")
    assert "every table has a new link" in capsys.readouterr().out
    assert client.get(url).status_code == 404  # a closed day's link stays dead
    w.tables[0].refresh_from_db()
    assert client.get(f"/table/{w.tables[0].link_token}/").status_code == 200
    assert not GameSheet.objects.exists()


@pytest.mark.parametrize(
    "command, args, message",
    [
        (
            "print_sheets",
            ["nope", "x.pdf", "--day", "1"],
            'There is no tournament with the slug "nope".',
        ),
        ("print_sheets", ["cup", "x.pdf", "--day", "9"], "Cup has no day 9; it has 2 days."),
        (
            "print_sheets",
            ["cup", "x.pdf", "--day", "2"],
            "Day 2 is not seated yet: there are no tables to print.",
        ),
        (
            "print_sheets",
            ["cup", "x.pdf", "--day", "1", "--base-url", "phone"],
            "The base URL must start with http://",
        ),
        ("table_links", ["cup", "--day", "2"], "Day 2 is not seated yet: there are no tables."),
        (
            "export_scores",
            ["cup", "x.xlsx", "--day", "2"],
            "Day 2 is not seated yet: there are no tables.",
        ),
        (
            "import_scores",
            ["cup", "/nonexistent/file.xlsx"],
            "Could not read /nonexistent/file.xlsx",
        ),
    ],
)
def test_commands_refuse_in_plain_words(tmp_path, monkeypatch, command, args, message):
    seated_day()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CommandError, match=re.escape(message)) as error:
        call_command(command, *args)
    assert error.value.returncode == 1


def _words_at(page) -> list[tuple[str, float, float]]:
    """Every piece of text on the page with where it starts (x, y)."""
    found = []

    def visit(text, _cm, tm, _font, _size):
        if text.strip():
            found.append((text.strip(), tm[4], tm[5]))

    page.extract_text(visitor_text=visit)
    return found


def _vertical_lines(page) -> list[tuple[float, float, float]]:
    """(x, lower y, upper y) of every vertical line the page draws ("m" then "l")."""
    from pypdf.generic import ContentStream

    lines, start = [], None
    for operands, operator in ContentStream(page.get_contents(), page.pdf).operations:
        if operator == b"m":
            start = [float(v) for v in operands]
        elif operator == b"l" and start is not None:
            x, y = (float(v) for v in operands)
            if abs(x - start[0]) < 0.01:
                lines.append((x, min(y, start[1]), max(y, start[1])))
    return lines


def test_every_player_has_a_went_out_box_on_every_game_they_play():
    w = seated_day(tables=(("Ann Lee", "Bob Roe", "Cy Doe"),))
    Seat.objects.filter(entry=w.entries["Cy Doe"]).update(left_after_game=4)
    page = PdfReader(io.BytesIO(score_sheets_pdf(w.day))).pages[0]
    words = _words_at(page)
    boxes = [(x, y) for text, x, y in words if text == "out"]
    # Six games: Ann and Bob play them all, Cy the first four.
    assert len(boxes) == 6 + 6 + 4
    assert len({round(x) for x, _ in boxes}) == 3  # one box per player's column
    assert len({round(y) for _, y in boxes}) == 6  # one per game's row
    text = " ".join(page.extract_text().split())
    assert 'tick the "out" box of the player who went out' in text


def test_no_column_line_strikes_through_totals():
    w = seated_day()
    page = PdfReader(io.BytesIO(score_sheets_pdf(w.day))).pages[0]
    (_, x, y), *_ = [word for word in _words_at(page) if word[0] == "Totals"]
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from core.pdf_fonts import pdf_fonts

    right = x + stringWidth("Totals", pdf_fonts().bold, 12)
    crossing = [
        line for line in _vertical_lines(page) if x < line[0] < right and line[1] <= y <= line[2]
    ]
    assert crossing == []
