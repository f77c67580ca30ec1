"""PDF and Excel standings: read back, compared with the page, safe with any name."""

import html.parser
import io
import re
from collections import defaultdict
from dataclasses import replace

import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader
from scoring_factories import add_entries, fresh, seat_tables, stored_sheet
from test_standings import page_rows

from core.reports import PDF, XLSX, Report, report_response
from scoring.models import GameSheet, Score, SheetState
from standings import columns as standings_columns
from standings.pdf import MARGIN, PAGE_SIZE, player_table_rows, render_standings_pdf
from standings.read import Cut, standings
from standings.xlsx import standings_workbook
from tournaments.models import Day, Entry, Player

pytestmark = pytest.mark.django_db

ODD_NAMES = {
    1: '<script>alert("x")</script>',
    2: 'Ann & "Bo" O\'Neil',
    3: "Zoë Ångström-Ñúñez",
    4: "Dice 🎲 Fan",
    5: '=HYPERLINK("http://evil.example","click")',
    6: "+1 555 0100",
    7: "-5",
    8: "@SUM(A1:A9)",
}


def pdf_lines(data: bytes) -> list[list[str]]:
    """Text pieces of each printed line, left to right, page after page."""
    lines = []
    for page in PdfReader(io.BytesIO(data)).pages:
        by_y = defaultdict(list)

        def visit(text, cm, tm, font, size, by_y=by_y):
            if text.strip():
                by_y[round(tm[5] + cm[5], 1)].append((tm[4] + cm[4], text.strip()))

        page.extract_text(visitor_text=visit)
        for y in sorted(by_y, reverse=True):
            lines.append([text for _, text in sorted(by_y[y])])
    return lines


def pdf_player_rows(data: bytes, columns: int) -> list[list[str]]:
    return [
        line
        for line in pdf_lines(data)
        if len(line) == columns and re.fullmatch(r"=?\d+|W", line[0])
    ]


def rename(tournament, names):
    for number, name in names.items():
        Player.objects.filter(entries__tournament=tournament, entries__number=number).update(
            name=name
        )


@pytest.fixture
def demo_page(organiser_client, demo_tournament):
    response = organiser_client.get(
        reverse("organiser:standings", args=[demo_tournament.slug]), {"per_page": "all"}
    )
    return page_rows(response)


def test_pdf_and_workbook_agree_with_the_page_row_for_row(demo_tournament, demo_page):
    result = standings(fresh(demo_tournament))
    assert len(demo_page) == 43
    printed = pdf_player_rows(render_standings_pdf(result), 9)
    assert printed == demo_page

    sheet = load_workbook(io.BytesIO(standings_workbook(result)))["Standings"]
    values = list(sheet.iter_rows(values_only=True))
    assert list(values[0]) == [
        "Rank",
        "Player ID",
        "Player",
        "Club",
        "Day 1",
        "Day 2",
        "Total",
        "Outs",
        "Games",
        "Status",
        "Note",
    ]
    assert [[str(v) for v in row[:9]] for row in values[1:]] == demo_page
    assert all(isinstance(v, int) for row in values[1:] for v in (row[0], *row[4:9]))


def test_pdf_says_final_numbers_pages_and_repeats_the_header(demo_tournament):
    data = render_standings_pdf(standings(fresh(demo_tournament)))
    reader = PdfReader(io.BytesIO(data))
    pages = len(reader.pages)
    assert pages >= 2
    texts = [page.extract_text() for page in reader.pages]
    assert "Final standings" in texts[0] and "Provisional" not in texts[0]
    assert "Spring Samboree Tournament 2026" in texts[0] and "14 March 2026" in texts[0]
    assert "=2 means a shared rank" in texts[0]
    for number, text in enumerate(texts, start=1):
        assert f"Page {number} of {pages}" in text
        # Every page of the players' table repeats its header; the last page is the race chart.
        if number < pages:
            assert "Rank\nPlayer ID\nPlayer\nClub\nDay 1\nDay 2\nTotal\nOuts\nGames" in text
    assert "The race" in texts[-1]
    assert reader.pages[0].mediabox.width == PAGE_SIZE[0] < reader.pages[0].mediabox.height


def test_pdf_says_provisional_with_the_count_and_marks_ties(demo_tournament):
    GameSheet.objects.filter(pk__in=GameSheet.objects.order_by("pk").values("pk")[:2]).update(
        state=SheetState.ENTERED, confirmed_at=None
    )
    result = standings(fresh(demo_tournament), Cut(day=1))
    first = min(result.rows, key=lambda r: r.rank)
    second = next(r for r in result.rows if r.rank and r.rank > first.rank)
    # Give the runner-up the leader's total so the two share first place.
    Score.objects.filter(
        entry_id=second.record.entry_id, sheet__state="confirmed", sheet__game__day__number=1
    ).update(points=0)
    Score.objects.filter(
        entry_id=first.record.entry_id, sheet__state="confirmed", sheet__game__day__number=1
    ).update(points=0)
    result = standings(fresh(demo_tournament), Cut(day=1))
    data = render_standings_pdf(result)
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert "Provisional standings after day 1" in text
    assert "Provisional: 2 games to confirm" in text
    rows = pdf_player_rows(data, 8)
    assert [r[0] for r in rows[:3]] == ["=1", "=1", "3"]
    assert {rows[0][2], rows[1][2]} == {first.record.name, second.record.name}


def test_pdf_of_eight_days_fits_portrait_and_wraps_long_names(make_tournament):
    tournament = make_tournament(slug="long")
    tournament.rules.days = 8
    tournament.rules.save()
    for number in range(3, 9):
        Day.objects.create(tournament=tournament, number=number)
    long_name = "Bartholomew Montgomery-Featherstonehaugh Wolfeschlegelsteinhausen Jr"
    entries = add_entries(
        tournament,
        [(long_name, "The Very Long Named Retirement Village Club"), ("Al", "X"), ("Bea", "Y")],
    )
    for day in range(1, 9):
        games, (table,) = seat_tables(tournament.days.get(number=day), [entries])
        stored_sheet(
            table, games[1], {entries[0]: 333, entries[1]: 0, entries[2]: 1040}, out=entries[1]
        )
    data = render_standings_pdf(standings(fresh(tournament)))
    lines = pdf_lines(data)
    at = next(i for i, line in enumerate(lines) if line[:2] == ["Rank", "Player"])
    # The long names need the room, so "Player ID" breaks over two lines and the names keep it.
    assert lines[at + 1] == ["ID"]
    assert lines[at] == [
        "Rank",
        "Player",
        "Player",
        "Club",
        *(f"Day {d}" for d in range(1, 9)),
        "Total",
        "Outs",
        "Games",
    ]
    text = " ".join(" ".join(line) for line in lines)
    for word in [*long_name.split(), "8320", "2664"]:
        assert word in text
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 2  # the table, then the race chart
    rightmost = []
    reader.pages[0].extract_text(
        visitor_text=lambda t, cm, tm, *_: t.strip() and rightmost.append(tm[4] + cm[4])
    )
    assert max(rightmost) < PAGE_SIZE[0] - MARGIN


def test_workbook_sheets_hold_standings_clubs_scores_seating_and_rules(demo_tournament):
    Entry.objects.filter(tournament=demo_tournament, number=5).update(status=Entry.WITHDRAWN)
    GameSheet.objects.filter(pk=GameSheet.objects.order_by("pk").first().pk).update(
        state=SheetState.ENTERED, confirmed_at=None
    )
    result = standings(fresh(demo_tournament))
    book = load_workbook(io.BytesIO(standings_workbook(result)))
    assert book.sheetnames == ["Standings", "Clubs", "Scores", "Seating", "Rules"]
    for sheet in book.worksheets:
        assert sheet.freeze_panes == "A2"
        assert (
            sheet.auto_filter.ref == f"A1:{sheet.cell(1, sheet.max_column).column_letter}"
            f"{sheet.max_row}"
        )
        assert sheet.column_dimensions["A"].width >= 6

    standings_rows = list(book["Standings"].iter_rows(min_row=2, values_only=True))
    withdrawn = standings_rows[-1]
    assert withdrawn[0] is None and withdrawn[1] == 5 and withdrawn[-2] == "withdrawn"
    assert [r[0] for r in standings_rows[:-1]] == [r.rank for r in result.rows[:-1]]

    clubs = list(book["Clubs"].iter_rows(values_only=True))
    assert clubs[0] == ("Rank", "Club", "Players", "Total", "Average")
    assert [(c[1], c[2], c[3]) for c in clubs[1:]] == [
        (c.club, c.players, c.total) for c in result.clubs
    ]

    scores = list(book["Scores"].iter_rows(values_only=True))
    assert scores[0] == (
        "Day",
        "Table",
        "Game",
        "Engine used",
        "Player ID",
        "Player",
        "Score",
        "Out",
        "State",
    )
    assert (
        len(scores) - 1
        == Score.objects.filter(sheet__state__in=["entered", "confirmed"]).count()
        == 43 * 12
    )
    assert {r[8] for r in scores[1:]} == {"Confirmed", "Entered"}
    outs = sum(1 for r in scores[1:] if r[7] == "yes")
    assert outs == GameSheet.objects.filter(went_out__isnull=False).count()
    assert all(isinstance(r[6], int) for r in scores[1:])

    seating = list(book["Seating"].iter_rows(values_only=True))
    assert seating[0] == ("Day", "Table", "Player ID", "Player") and len(seating) == 1 + 2 * 43

    rules = dict(book["Rules"].iter_rows(min_row=2, values_only=True))
    assert rules["Tournament"] == "Spring Samboree Tournament 2026"
    assert rules["Days"] == 2 and rules["Games a day"] == 6
    assert rules["Set"] == "Double-12 (91 tiles)"
    assert rules["Tie-breaks"] == "none (tied players share a rank)"
    # The rules page's words, never the stored values.
    assert rules["Hand sizes"] == "2-7: 12"
    assert rules["A substitute's games count"] == "Not ranked (shown, without a rank)"
    assert rules["Reseat each day"] == "yes"
    assert not any("[[" in str(v) or "_" in str(v) for v in rules.values())
    assert "Provisional: 1 game to confirm" in rules["Standings"]


def test_workbook_never_holds_a_formula_even_for_formula_like_names(demo_tournament):
    rename(demo_tournament, ODD_NAMES)
    Entry.objects.filter(tournament=demo_tournament, number=9).update(club="=1+1")
    book = load_workbook(io.BytesIO(standings_workbook(standings(fresh(demo_tournament)))))
    formulas = [
        cell.coordinate
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if cell.data_type == "f"
    ]
    assert formulas == []
    names = {row[1]: row[2] for row in book["Standings"].iter_rows(min_row=2, values_only=True)}
    for number, name in ODD_NAMES.items():
        assert names[number] == name
    injected = next(c for c in book["Standings"]["C"] if c.value == ODD_NAMES[5])
    assert injected.data_type == "s" and injected.quotePrefix
    clubs = {row[3] for row in book["Standings"].iter_rows(min_row=2, values_only=True)}
    assert "=1+1" in clubs
    seat_names = {row[3] for row in book["Seating"].iter_rows(min_row=2, values_only=True)}
    assert set(ODD_NAMES.values()) <= seat_names


def test_odd_names_print_as_typed_on_page_pdf_projector_and_excel(client, demo_tournament):
    rename(demo_tournament, ODD_NAMES)
    page = client.get(reverse("public:standings", args=[demo_tournament.slug]))
    body = page.content.decode()
    assert '<script>alert("x")' not in body
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in body
    rows = {row[1]: row[2] for row in page_rows(page)}
    for number, name in ODD_NAMES.items():
        assert rows[str(number)] == name

    projector = client.get(reverse("public:projector", args=[demo_tournament.slug]), {"rows": 40})
    assert '<script>alert("x")' not in projector.content.decode()
    board = {row[1]: row[2] for row in page_rows(projector, "board-players")}
    assert board["3"] == ODD_NAMES[3] and board["2"] == ODD_NAMES[2]

    pdf = client.get(reverse("public:standings_pdf", args=[demo_tournament.slug]))
    assert pdf["Content-Type"] == "application/pdf"
    printed = {row[1]: row[2] for row in pdf_player_rows(pdf.content, 9)}
    for number, name in ODD_NAMES.items():
        if number == 4:
            # The PDF font has no emoji; it prints a "?" in its place rather than failing.
            assert printed["4"] == "Dice ? Fan"
        else:
            assert printed[str(number)] == name

    xlsx = client.get(reverse("public:standings_xlsx", args=[demo_tournament.slug]))
    assert xlsx["Content-Disposition"] == 'attachment; filename="spring-sambo-2026-standings.xlsx"'
    names = {
        row[1]: row[2]
        for row in load_workbook(io.BytesIO(xlsx.content))["Standings"].iter_rows(
            min_row=2, values_only=True
        )
    }
    assert all(names[n] == name for n, name in ODD_NAMES.items())


def test_pdf_without_dejavu_falls_back_to_helvetica(demo_tournament, monkeypatch, tmp_path):
    # Neither Debian's DejaVu nor the copy shipped in core/fonts can be read.
    from core import pdf_fonts

    pdf_fonts.pdf_fonts.cache_clear()
    monkeypatch.setattr(pdf_fonts, "FONT_DIRS", (tmp_path,))
    try:
        rename(demo_tournament, {3: "Zoë Ångström-Ñúñez", 4: "Дмитрий 🎲"})
        result = standings(fresh(demo_tournament))
        _header, body = player_table_rows(result)
        names = {row[1]: row[2] for row in body}
        assert names["3"] == "Zoë Ångström-Ñúñez" and names["4"] == "??????? ?"
        printed = {row[1]: row[2] for row in pdf_player_rows(render_standings_pdf(result), 9)}
        assert printed["3"] == "Zoë Ångström-Ñúñez"
    finally:
        pdf_fonts.pdf_fonts.cache_clear()


def test_downloads_follow_the_chosen_cut(organiser_client, demo_tournament):
    url = reverse("organiser:standings_xlsx", args=[demo_tournament.slug])
    response = organiser_client.get(url, {"after_day": 1})
    assert (
        response["Content-Disposition"]
        == 'attachment; filename="spring-sambo-2026-standings-after-day-1.xlsx"'
    )
    header = next(
        load_workbook(io.BytesIO(response.content))["Standings"].iter_rows(values_only=True)
    )
    assert header == (
        "Rank",
        "Player ID",
        "Player",
        "Club",
        "Day 1",
        "Total",
        "Outs",
        "Games",
        "Status",
        "Note",
    )
    pdf = organiser_client.get(
        reverse("organiser:standings_pdf", args=[demo_tournament.slug]),
        {"after_day": 1, "after_game": 2},
    )
    assert (
        "Complete standings after game 2 of day 1"
        in PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    )


class HeadingsParser(html.parser.HTMLParser):
    """The text of each header cell of one table, by its id."""

    def __init__(self, table_id):
        super().__init__()
        self.table_id, self.inside, self.cell, self.headings = table_id, False, None, []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.inside = dict(attrs).get("id") == self.table_id
        elif self.inside and tag == "th":
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "th" and self.cell is not None:
            self.headings.append(" ".join(self.cell.split()))
            self.cell = None
        elif tag == "table":
            self.inside = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def html_headings(response, table_id):
    parser = HeadingsParser(table_id)
    parser.feed(response.content.decode())
    return parser.headings


def test_every_output_takes_its_headings_from_the_one_column_definition(
    monkeypatch, organiser_client, client, demo_tournament
):
    # Rename every players' column in the one definition: each output must follow.
    for name in ("PLAYERS_BEFORE_DAYS", "PLAYERS_AFTER_DAYS"):
        renamed = tuple(
            replace(column, heading=f"{column.heading}!")
            for column in getattr(standings_columns, name)
        )
        monkeypatch.setattr(standings_columns, name, renamed)
    result = standings(fresh(demo_tournament))
    columns = standings_columns.player_columns(result.day_numbers)
    Output = standings_columns.Output

    def expected(output):
        return [column.heading_in(output) for column in columns.for_output(output)]

    assert expected(Output.PDF) == [
        "Rank!",
        "Player ID!",
        "Player!",
        "Club!",
        "Day 1",
        "Day 2",
        "Total!",
        "Outs!",
        "Games!",
    ]
    assert expected(Output.WORKBOOK)[1] == "Player ID!"  # one name on every output

    page = organiser_client.get(reverse("organiser:standings", args=[demo_tournament.slug]))
    assert html_headings(page, "standings") == expected(Output.PAGE)
    board = client.get(reverse("public:projector", args=[demo_tournament.slug]))
    assert html_headings(board, "board-players") == expected(Output.PROJECTOR)
    printed = next(line for line in pdf_lines(render_standings_pdf(result)) if line[0] == "Rank!")
    assert printed == expected(Output.PDF)
    sheet = load_workbook(io.BytesIO(standings_workbook(result)))["Standings"]
    assert list(next(sheet.iter_rows(values_only=True))) == expected(Output.WORKBOOK)
    out = io.StringIO()
    call_command("standings", demo_tournament.slug, stdout=out)
    assert out.getvalue().splitlines()[2].split() == " ".join(expected(Output.COMMAND)).split()


def test_club_columns_are_defined_once_too(organiser_client, client, demo_tournament):
    result = standings(fresh(demo_tournament))
    clubs = standings_columns.CLUB_COLUMNS
    Output = standings_columns.Output
    page = organiser_client.get(reverse("organiser:standings", args=[demo_tournament.slug]))
    assert (
        html_headings(page, "clubs")
        == [c.heading for c in clubs.for_output(Output.PAGE)]
        == ["Rank", "Club", "Players", "Total", "Average"]
    )
    # The board's own order puts the average the clubs are ranked by before their total.
    last = client.get(reverse("public:projector", args=[demo_tournament.slug]), {"page": 4})
    assert (
        html_headings(last, "board-clubs")
        == [c.heading for c in clubs.for_output(Output.PROJECTOR)]
        == ["Rank", "Club", "Players", "Average", "Total"]
    )
    book = load_workbook(io.BytesIO(standings_workbook(result)))
    assert list(next(book["Clubs"].iter_rows(values_only=True))) == [
        c.heading for c in clubs.for_output(Output.WORKBOOK)
    ]


def test_a_report_answers_each_format_with_its_content_type_and_file_name():
    report = Report("spring-standings", {PDF: lambda: b"%PDF-", XLSX: lambda: b"PK"})
    assert report.as_pdf() == b"%PDF-" and report.as_xlsx() == b"PK"
    pdf = report_response(report, PDF)
    assert pdf["Content-Type"] == "application/pdf" and pdf.content == b"%PDF-"
    assert pdf["Content-Disposition"] == 'inline; filename="spring-standings.pdf"'
    xlsx = report_response(report, XLSX)
    assert xlsx["Content-Type"] == (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    assert xlsx["Content-Disposition"] == 'attachment; filename="spring-standings.xlsx"'
    saved = report_response(report, PDF, disposition="attachment")
    assert saved["Content-Disposition"] == 'attachment; filename="spring-standings.pdf"'
    with pytest.raises(ValueError, match=re.escape("no .pdf form")):
        Report("only-a-workbook", {XLSX: lambda: b"PK"}).as_pdf()


def test_when_everyone_withdrew_before_play_every_output_ranks_nobody(organiser):
    """Found by make soak: the outputs' reader took the page's one-cell "No players match."
    line for a player's row."""
    from django.test import Client
    from scoring_factories import seated_day
    from standings_outputs import every_output

    from tournaments.models import Entry
    from tournaments.services.events import set_public_pages
    from tournaments.services.registration import withdraw_entry

    w = seated_day(organiser=organiser)
    set_public_pages(w.tournament, True)
    for entry in Entry.objects.filter(tournament=w.tournament):
        withdraw_entry(entry)
    client = Client()
    client.force_login(organiser)
    shown = every_output(w.tournament, client)
    assert {name: (s.totals, s.ranks) for name, s in shown.items()} == {
        name: ({}, {}) for name in shown
    }
    assert len({s.heading for s in shown.values()}) == 1
