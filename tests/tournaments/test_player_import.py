"""The club spreadsheet import: every refusal imports nothing and names its row."""

import io
import os
import re
import zipfile

import openpyxl
import pytest
from command_line import run_from_the_shell
from django.core.management import call_command
from django.core.management.base import CommandError
from scoring_factories import csv_bytes, snapshot, xlsx_bytes

from tournaments import player_import
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, KeepApart, Player
from tournaments.player_import import NOT_A_SPREADSHEET, parse_player_file
from tournaments.services.importing import ImportRefused, import_players
from tournaments.services.registration import register_player


def parse(data, filename="players.csv", **kwargs):
    kwargs.setdefault("max_table_size", 7)
    return parse_player_file(data, filename, **kwargs)


def problems_of(result):
    return [(p.row, p.message) for p in result.problems]


def roster():
    """The directory, the entries and the keep-apart pairs, row by row: a refusal leaves them."""
    return snapshot(Player, Entry, KeepApart)


# ---------------------------------------------------------------------------
# Pure parsing (no database)
# ---------------------------------------------------------------------------


def test_csv_headers_match_whatever_the_case_and_extra_columns_are_ignored():
    data = csv_bytes(
        [
            ["Phone", "NAME", "keep-APART", "club", " Table "],
            ["555-1234", "Ann Lee", "Bob Lee", "Sun RVers", ""],
            ["", "Bob Lee", "", "Sun RVers", "2"],
            ["", "", "", "", ""],  # a blank line in the middle of the list is not a player
            ["", "Cara Díaz", "", "", ""],
        ]
    )
    result = parse(data, max_table_size=2)
    assert result.ok, result.problems
    assert [(r.row, r.name, r.club, r.keep_apart, r.table) for r in result.rows] == [
        (2, "Ann Lee", "Sun RVers", "Bob Lee", None),
        (3, "Bob Lee", "Sun RVers", "", 2),
        (5, "Cara Díaz", "", "", None),
    ]
    assert result.keep_apart == [(2, "Ann Lee", "Bob Lee")]


def test_xlsx_numbers_come_back_as_table_numbers():
    data = xlsx_bytes(
        [["Name", "Table"], ["Ann", 1], ["Bob", 2.0], *[[f"P{i}", None] for i in range(12)]]
    )
    result = parse(data, "list.xlsx")
    assert result.ok, result.problems
    assert [r.table for r in result.rows[:3]] == [1, 2, None]


def test_csv_saved_by_excel_on_windows_is_read_as_cp1252():
    data = "Name,Club\r\nRenée Côté,Québec\r\n".encode("cp1252")
    result = parse(data)
    assert result.ok
    assert (result.rows[0].name, result.rows[0].club) == ("Renée Côté", "Québec")


def test_utf8_bom_does_not_hide_the_name_column():
    result = parse("\ufeffName\nAnn\n".encode("utf-8"))
    assert result.ok and result.rows[0].name == "Ann"


@pytest.mark.parametrize("suffix", ["csv", "xlsx"])
def test_every_row_problem_is_listed_with_its_row_number(suffix):
    rows = [
        ["Name", "Club", "Keep apart", "Table"],
        ["Ann Lee", "", "", ""],  # 2: fine
        ["", "Sun RVers", "", ""],  # 3: no name
        ["ann  LEE", "", "", ""],  # 4: same person as row 2
        ["Bob Ray", "", "Nobody Here", ""],  # 5: keep-apart names nobody
        ["Cy", "", "", "two"],  # 6: table not a number
        ["Di", "", "", "3"],  # 7: 8 players fill only 2 tables
        ["Ed", "", "Ed", ""],  # 8: keep apart from themself
        ["Flo", "", "", "0"],  # 9: tables start at 1
        ["Gil", "", "", ""],
    ]
    data = csv_bytes(rows) if suffix == "csv" else xlsx_bytes(rows)
    result = parse(data, f"players.{suffix}")
    assert problems_of(result) == [
        (3, "The name is missing."),
        (4, "ann LEE is also on row 2."),
        (5, 'Keep apart names "Nobody Here", who is not in this file or in this event.'),
        (6, 'Table "two" is not a table number.'),
        (7, "Table 3 does not exist: 8 players fill 2 tables of at most 7."),
        (8, "Ed cannot be kept apart from themself."),
        (9, "Table numbers start at 1."),
    ]
    assert result.rows == [] and result.keep_apart == []


def test_table_count_includes_players_already_entered():
    data = csv_bytes([["Name", "Table"], ["Ann", "2"]])
    assert problems_of(parse(data, existing_players=0)) == [
        (2, "Table 2 does not exist: 1 player fills 1 table of at most 7.")
    ]
    assert parse(data, existing_players=7).ok  # 8 players: two tables of 4


def test_keep_apart_may_name_a_player_already_entered():
    data = csv_bytes([["Name", "Keep apart"], ["Ann", "bob lee"]])
    assert parse(data, existing_names={"bob lee": 4}, existing_players=1).ok
    assert not parse(data).ok


def test_a_name_already_entered_is_a_row_problem():
    data = csv_bytes([["Name"], ["Zed"], ["Bob Lee"]])
    result = parse(data, existing_names={"bob lee": 4}, existing_players=1)
    assert problems_of(result) == [(3, "Bob Lee is already entered in this event as player #4.")]


def test_keep_apart_pair_pinned_to_one_table_is_refused():
    data = csv_bytes(
        [["Name", "Keep apart", "Table"], ["Ann", "Bob", "1"], ["Bob", "", "1"]]
        + [[f"P{i}", "", ""] for i in range(8)]
    )
    assert problems_of(parse(data)) == [
        (2, "Ann and Bob must sit apart but are both pinned to table 1.")
    ]


@pytest.mark.parametrize(
    "data, filename, message",
    [
        (b"", "players.csv", "The file is empty."),
        (b"\n\n,,\n", "players.csv", "The file is empty."),
        (b"Name,Club\n", "players.csv", "The file has no players below the header row."),
        (
            b"Player,Club\nAnn,X\n",
            "players.csv",
            "The first row must hold the column names, and one of them must be Name (or First "
            'name and Last name). The columns found are "Player", "Club". The columns read are '
            "Name (or First name and Last name), Club, Member number, Phone, Email, Keep apart, "
            "Table, Born.",
        ),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "photo.png", NOT_A_SPREADSHEET),
        (b"this is not a workbook", "players.xlsx", NOT_A_SPREADSHEET),
        (b"PK\x03\x04garbage that only looks like a zip", "players.xlsx", NOT_A_SPREADSHEET),
        (
            b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 50,
            "old.xls",
            "This is an old Excel file (.xls). Save it as .xlsx or .csv and try again.",
        ),
    ],
)
def test_unreadable_files_are_one_problem_on_row_1(data, filename, message):
    result = parse(data, filename)
    assert problems_of(result) == [(1, message)]


def test_a_zip_that_is_not_a_workbook_is_not_a_spreadsheet():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("word/document.xml", "<w:document/>")
    assert problems_of(parse(buffer.getvalue(), "letter.xlsx")) == [(1, NOT_A_SPREADSHEET)]


def _bomb(member_bytes: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", member_bytes)
    return buffer.getvalue()


def test_zip_bomb_is_refused_before_openpyxl_opens_it(monkeypatch):
    def must_not_open(*args, **kwargs):
        raise AssertionError("openpyxl was asked to unpack a zip bomb")

    monkeypatch.setattr(openpyxl, "load_workbook", must_not_open)
    data = _bomb(b"\0" * (8 * 1024 * 1024))  # 8 MB of zeros packs to a few kilobytes
    assert len(data) < 64 * 1024
    result = parse(data, "players.xlsx", max_bytes=5 * 1024 * 1024)
    assert len(result.problems) == 1
    assert result.problems[0].row == 1
    assert "would unpack to 8 MB, far more than a player list holds" in result.problems[0].message


def test_unpacked_size_limit_applies_even_at_a_modest_ratio(monkeypatch):
    monkeypatch.setattr(player_import, "MAX_UNPACKED_BYTES", 100_000)
    data = _bomb(os.urandom(150_000))  # random bytes do not compress: ratio about 1
    result = parse(data, "players.xlsx")
    assert "would unpack" in result.problems[0].message


def test_size_cap_is_checked_first():
    data = csv_bytes([["Name"]] + [[f"Player {i}"] for i in range(200)])
    result = parse(data, max_bytes=1024)
    assert len(result.problems) == 1
    assert result.problems[0].message.startswith(f"The file is {round(len(data) / 1024)} KB")
    assert "the largest file accepted is 1 KB" in result.problems[0].message
    assert parse(data, max_bytes=len(data)).ok


# ---------------------------------------------------------------------------
# The import service and command (database)
# ---------------------------------------------------------------------------


@pytest.fixture
def tournament(make_tournament):
    return make_tournament(slug="spring")


@pytest.mark.django_db
def test_import_enters_players_numbered_in_file_order_with_keep_apart_and_pins(tournament):
    register_player(tournament, name="Zoe Early")  # already #1
    Player.objects.create(name="Bob Lee", club="Sun RVers")  # a returning member
    data = xlsx_bytes(
        [
            ["Name", "Club", "Keep apart", "Table"],
            ["Ann Lee", "Sun RVers", "Bob Lee", None],
            ["Bob Lee", "Sun RVers", "Ann Lee", None],  # the pair named both ways is stored once
            ["Cara", None, "Zoe Early", 2],
            *[[f"Player {i}", None, None, None] for i in range(6)],
        ]
    )
    before = Player.objects.count()
    outcome = import_players(tournament, data, "club.xlsx", user=COMMAND_LINE)
    assert outcome.from_directory == 1 and outcome.keep_apart_pairs == 2
    entries = list(tournament.entries.select_related("player").order_by("number"))
    assert [(e.number, e.player.name) for e in entries[:4]] == [
        (1, "Zoe Early"),
        (2, "Ann Lee"),
        (3, "Bob Lee"),
        (4, "Cara"),
    ]
    assert entries[3].pinned_table == 2
    assert Player.objects.count() == before + 8  # Bob was reused, not typed twice
    pairs = {
        frozenset((k.first.player.name, k.second.player.name))
        for k in KeepApart.objects.select_related("first__player", "second__player")
    }
    assert pairs == {frozenset({"Ann Lee", "Bob Lee"}), frozenset({"Cara", "Zoe Early"})}


@pytest.mark.django_db
def test_importing_the_same_file_twice_is_refused_and_changes_nothing(tournament):
    data = csv_bytes([["Name", "Keep apart"], ["Ann", "Bob"], ["Bob", ""]])
    import_players(tournament, data, "players.csv", user=COMMAND_LINE)
    before = roster()
    with pytest.raises(ImportRefused) as refused:
        import_players(tournament, data, "players.csv", user=COMMAND_LINE)
    assert [str(p) for p in refused.value.problems] == [
        "Row 2: Ann is already entered in this event as player #1.",
        "Row 3: Bob is already entered in this event as player #2.",
    ]
    assert str(refused.value) == "Nothing was imported: the file has 2 problems."
    assert roster() == before


BAD_FILES = {
    "missing name": csv_bytes([["Name", "Club"], ["Ann", ""], ["", "Sun RVers"], ["Cy", ""]]),
    "duplicate": csv_bytes([["Name"], ["Ann"], ["ANN"]]),
    "keep apart nobody": csv_bytes([["Name", "Keep apart"], ["Ann", "Ghost"]]),
    "table not a number": csv_bytes([["Name", "Table"], ["Ann", "by the door"]]),
    "table beyond tables": csv_bytes([["Name", "Table"], ["Ann", "2"], ["Bob", ""]]),
    "not a spreadsheet": b"\x00\x01\x02 binary",
    "empty": b"",
    "zip bomb": _bomb(b"\0" * (4 * 1024 * 1024)),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_bad_file_imports_nothing(tournament, case):
    Player.objects.create(name="Someone in the directory")
    register_player(tournament, name="Already Here")
    before = roster()
    with pytest.raises(ImportRefused) as refused:
        import_players(
            tournament,
            BAD_FILES[case],
            "players.xlsx" if case == "zip bomb" else "p.csv",
            user=COMMAND_LINE,
        )
    assert refused.value.problems
    assert roster() == before


@pytest.mark.django_db
def test_a_row_with_an_empty_name_cell_is_reported(tournament):
    data = b"Name,Club\nAnn,X\n,Sun RVers\n"
    with pytest.raises(ImportRefused) as refused:
        import_players(tournament, data, "p.csv", user=COMMAND_LINE)
    assert [str(p) for p in refused.value.problems] == ["Row 3: The name is missing."]


@pytest.mark.django_db
def test_upload_page_lists_problems_and_saves_nothing(organiser_client, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    before = roster()
    data = csv_bytes([["Name", "Table"], ["Ann", "x"], ["", ""], ["Bob", "9"]])
    response = organiser_client.post(
        f"/organiser/t/{tournament.slug}/players/import/",
        {"file": SimpleUploadedFile("players.csv", data, content_type="text/csv")},
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Nothing was imported: the file has 2 problems." in page
    assert '<td class="num">2</td><td>Table &quot;x&quot; is not a table number.</td>' in page
    assert "Table 9 does not exist" in page
    assert roster() == before


@pytest.mark.django_db
def test_upload_over_the_size_cap_is_refused(organiser_client, tournament, settings):
    from django.core.files.uploadedfile import SimpleUploadedFile

    settings.UPLOAD_MAX_BYTES = 2048
    data = csv_bytes([["Name"]] + [[f"Player number {i}"] for i in range(300)])
    assert len(data) > 2048
    response = organiser_client.post(
        f"/organiser/t/{tournament.slug}/players/import/",
        {"file": SimpleUploadedFile("players.csv", data, content_type="text/csv")},
    )
    assert (
        f"The file is {round(len(data) / 1024)} KB; the largest file accepted is 2 KB."
        in response.content.decode()
    )
    assert Entry.objects.count() == 0


@pytest.mark.django_db
def test_upload_page_imports_a_good_file(organiser_client, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = xlsx_bytes([["Name", "Club"], ["Ann", "Sun RVers"], ["Bob", ""]])
    response = organiser_client.post(
        f"/organiser/t/{tournament.slug}/players/import/",
        {"file": SimpleUploadedFile("players.xlsx", data)},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == f"/organiser/t/{tournament.slug}/players/"
    assert "Imported 2 players." in response.content.decode()
    assert list(tournament.entries.values_list("number", "player__name")) == [
        (1, "Ann"),
        (2, "Bob"),
    ]


@pytest.mark.django_db
def test_import_command_prints_the_players(tournament, tmp_path, capsys):
    path = tmp_path / "players.csv"
    path.write_bytes(csv_bytes([["Name", "Table"], ["Ann", ""], ["Bob", "1"]]))
    call_command("import_players", tournament.slug, str(path))
    out = capsys.readouterr().out
    assert "Imported 2 players into spring" in out
    assert "#2 Bob  pinned to table 1" in out


@pytest.mark.django_db
def test_import_command_lists_problems_and_refuses(tournament, tmp_path):
    path = tmp_path / "players.csv"
    path.write_bytes(csv_bytes([["Name", "Keep apart"], ["Ann", "Ghost"], ["Ann", ""]]))
    with pytest.raises(CommandError) as error:
        call_command("import_players", tournament.slug, str(path))
    assert str(error.value).splitlines() == [
        "Nothing was imported: the file has 2 problems.",
        'Row 2: Keep apart names "Ghost", who is not in this file or in this event.',
        "Row 3: Ann is also on row 2.",
    ]
    assert Entry.objects.count() == 0


@pytest.mark.django_db
def test_import_command_refuses_an_unknown_event_and_a_file_over_the_cap(
    tournament, tmp_path, settings
):
    path = tmp_path / "players.csv"
    path.write_bytes(csv_bytes([["Name"]] + [[f"Player number {i}"] for i in range(300)]))
    nope = re.escape('There is no tournament with the slug "nope".')
    with pytest.raises(CommandError, match=nope):
        call_command("import_players", "nope", str(path))
    settings.UPLOAD_MAX_BYTES = 2048
    size = path.stat().st_size
    with pytest.raises(CommandError) as error:
        call_command("import_players", tournament.slug, str(path))
    assert str(error.value) == (
        f"The file is {round(size / 1024)} KB; the largest file accepted is 2 KB."
    )
    assert Entry.objects.count() == 0


@pytest.mark.django_db(transaction=True)  # see run_from_the_shell
def test_import_command_exits_1_on_a_bad_file(tournament, tmp_path, capsys):
    bad = tmp_path / "players.csv"
    bad.write_bytes(b"Name,Table\nAnn,nine\n")
    with pytest.raises(SystemExit) as exit_status:
        run_from_the_shell("import_players", tournament.slug, str(bad))
    assert exit_status.value.code == 1
    assert 'Row 2: Table "nine" is not a table number.' in capsys.readouterr().err
    assert not Entry.objects.exists()
    good = tmp_path / "good.csv"
    good.write_bytes(b"Name\nAnn\n")
    run_from_the_shell("import_players", tournament.slug, str(good))  # no SystemExit: 0
    assert "Imported 1 player into spring" in capsys.readouterr().out
