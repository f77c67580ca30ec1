"""The score workbook: export_scores, import_scores and the upload page."""

import io
import zipfile

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from openpyxl import Workbook, load_workbook
from scoring_factories import T1, T2, seated_day, snapshot, typed

from scoring import services, workbook_import
from scoring.models import AuditEvent, GameSheet, Score, SheetState, Source

pytestmark = pytest.mark.django_db


def export(w, tmp_path, name="day1.xlsx"):
    path = tmp_path / name
    call_command("export_scores", w.tournament.slug, str(path), "--day", "1")
    return path


def fill(path, values):
    """values: {(table, game, player name): (score, out)}, out True for "yes" or the word to
    write ("blocked"); returns the path, saved."""
    wb = load_workbook(path)
    ws = wb.active
    for row in ws.iter_rows(min_row=2):
        key = (row[1].value, row[2].value, row[5].value)
        if key in values:
            score, out = values[key]
            row[6].value = score
            row[7].value = "yes" if out is True else (out or None)
    wb.save(path)
    return path


def totals():
    sums = {}
    for score in Score.objects.filter(sheet__state=SheetState.CONFIRMED).select_related(
        "entry__player"
    ):
        sums[score.entry.player.name] = sums.get(score.entry.player.name, 0) + score.points
    return sums


GAME2_T1 = {"Ann Lee": 9, "Bob Roe": 0, "Cy Doe": 4, "Di Fox": 16}
GAME3_T2_BLOCKED = {"Ed Poe": 2, "Flo Ng": 30, "Gus Ray": 1}


def filled_values():
    values = {}
    for name, score in T1.items():
        values[(1, 1, name)] = (score, name == "Ann Lee")
    for name, score in GAME2_T1.items():
        values[(1, 2, name)] = (score, name == "Bob Roe")
    for name, score in T2.items():
        values[(2, 1, name)] = (score, name == "Flo Ng")
    for name, score in GAME3_T2_BLOCKED.items():
        # One row of a blocked game says so.
        values[(2, 3, name)] = (score, "blocked" if name == "Ed Poe" else False)
    return values


def test_export_writes_one_row_per_seated_player_per_game(world, tmp_path):
    services.submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, T1, out="Ann Lee", engine=11),
        0,
        source=Source.TABLE_LINK,
    )
    services.submit_game(
        world.tables[1],
        world.games[1],
        typed(world, 1, T2, out="Flo Ng", engine=11),
        0,
        source=Source.TABLE_LINK,
    )
    sheet = GameSheet.objects.get(table=world.tables[1])
    services.confirm_game(world.tables[1], world.games[1], sheet.version, world.desk)
    ws = load_workbook(export(world, tmp_path), read_only=True).active
    rows = list(ws.iter_rows(values_only=True))
    assert list(rows[0]) == [
        "Day",
        "Table",
        "Game",
        "Engine",
        "Player ID",
        "Player",
        "Score",
        "Out",
        "State",
    ]
    assert len(rows) - 1 == (4 + 3) * 6
    # Table 1's game 1 is only entered by its phone: blank for the desk to key, at the expected
    # double, not the table's own engine.
    waiting = "phone only"
    assert rows[1] == (1, 1, 1, 12, 1, "Ann Lee", None, None, waiting)
    assert rows[2] == (1, 1, 1, 12, 2, "Bob Roe", None, None, waiting)
    assert rows[5] == (1, 1, 2, 11, 1, "Ann Lee", None, None, "not entered")
    # Table 2's game 1 is confirmed: its numbers and engine shown, and marked confirmed; the
    # next game expects the double after the ones used.
    t2 = [r for r in rows[1:] if r[1] == 2]
    assert t2[0] == (1, 2, 1, 11, 5, "Ed Poe", 5, None, "confirmed")
    assert t2[1] == (1, 2, 1, 11, 6, "Flo Ng", 0, "yes", "confirmed")
    # Game 2 at table 2 expects the first double of the engine order not used there yet: 12,
    # which nobody held in game 1; then 10 down to 7.
    assert t2[3][3] == 12
    assert rows[-1] == (1, 2, 6, 7, 7, "Gus Ray", None, None, "not entered")


def test_an_untouched_workbook_confirms_nothing(world, tmp_path):
    for table, scores, out in ((0, T1, "Ann Lee"), (1, T2, "Flo Ng")):
        services.submit_game(
            world.tables[table],
            world.games[1],
            typed(world, 1, scores, out=out),
            0,
            source=Source.TABLE_LINK,
        )
    before = snapshot()
    path = export(world, tmp_path)
    report = workbook_import.import_workbook(world.tournament, path.read_bytes(), user=world.desk)
    assert (report.entered, report.confirmed, report.corrected) == (0, 0, 0)
    assert snapshot() == before


def test_a_keyed_difference_is_listed_by_row_with_both_values(world, tmp_path):
    services.submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, T1, out="Ann Lee"),
        0,
        source=Source.TABLE_LINK,
    )
    before = snapshot()
    keyed = {(1, 1, n): (s, n == "Ann Lee") for n, s in T1.items()}
    keyed[(1, 1, "Bob Roe")] = (21, False)  # row 3: the card says 21, the phone said 12
    path = fill(export(world, tmp_path), keyed)
    with pytest.raises(workbook_import.WorkbookRefused) as refused:
        workbook_import.import_workbook(world.tournament, path.read_bytes(), user=world.desk)
    assert (
        "Row 3 (table 1, game 1): The table entered 12 for Bob Roe; you typed 21."
        in refused.value.lines
    )
    assert snapshot() == before


def test_a_workbook_saved_before_the_state_column_still_reads(world, tmp_path):
    path = fill(export(world, tmp_path), {(1, 1, n): (s, n == "Ann Lee") for n, s in T1.items()})
    wb = load_workbook(path)
    wb.active.delete_cols(9)
    wb.save(path)
    report = workbook_import.import_workbook(world.tournament, path.read_bytes(), user=world.desk)
    assert report.entered == 1


def test_names_that_look_like_formulas_are_written_as_text(tmp_path):
    names = ('=HYPERLINK("http://x","y")', "+1+1", "-Bob", "@SUM(A1)")
    w = seated_day(tables=(names,))
    path = export(w, tmp_path)
    with zipfile.ZipFile(path) as archive:
        xml = archive.read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in xml and "<f " not in xml
    ws = load_workbook(path).active
    cells = [row[5] for row in ws.iter_rows(min_row=2, max_row=5)]
    assert [c.value for c in cells] == list(names)
    assert all(c.data_type == "s" for c in cells)


def test_round_trip_reproduces_the_totals_and_a_second_import_changes_nothing(
    world, tmp_path, capsys
):
    path = fill(export(world, tmp_path), filled_values())
    call_command("import_scores", world.tournament.slug, str(path))
    assert (
        "4 games keyed in and confirmed (the table had not entered them), 0 confirmed: the card "
        "keyed matched what the table entered, 0 confirmed games corrected, 0 unchanged, "
        "8 left blank (not entered)." in capsys.readouterr().out
    )
    expected = {}
    for game in (T1, GAME2_T1, T2, GAME3_T2_BLOCKED):
        for name, score in game.items():
            expected[name] = expected.get(name, 0) + score
    assert totals() == expected
    blocked = GameSheet.objects.get(table=world.tables[1], game=world.games[3])
    assert blocked.blocked and blocked.went_out is None and blocked.state == SheetState.CONFIRMED
    assert set(GameSheet.objects.values_list("source", flat=True)) == {Source.WORKBOOK}

    before = snapshot()
    call_command("import_scores", world.tournament.slug, str(path))
    assert "0 games keyed in and confirmed" in (out := capsys.readouterr().out)
    assert "0 confirmed games corrected, 4 unchanged" in out
    assert snapshot() == before

    # Export again: the scores come back filled in, and reading that file changes nothing either.
    again = export(world, tmp_path, "again.xlsx")
    rows = list(load_workbook(again, read_only=True).active.iter_rows(values_only=True))
    filled = {
        (r[1], r[2], r[5]): (r[6], True if r[7] == "yes" else (r[7] or False))
        for r in rows[1:]
        if r[6] is not None
    }
    assert filled == filled_values()
    call_command("import_scores", world.tournament.slug, str(again))
    assert snapshot() == before


def test_a_workbook_confirms_a_matching_table_entry(world, tmp_path):
    services.submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, T1, out="Ann Lee"),
        0,
        source=Source.TABLE_LINK,
    )
    path = fill(export(world, tmp_path), {(1, 1, n): (s, n == "Ann Lee") for n, s in T1.items()})
    call_command("import_scores", world.tournament.slug, str(path))
    sheet = GameSheet.objects.get()
    assert (sheet.version, sheet.state) == (1, SheetState.CONFIRMED)


def test_import_refusal_lists_every_bad_row_and_stores_nothing(world, tmp_path):
    path = export(world, tmp_path)
    values = filled_values()
    values[(1, 1, "Bob Roe")] = ("twelve", False)  # row 3
    values[(1, 2, "Cy Doe")] = (0, True)  # row 8: a second player out in game 2 (Bob went out)
    fill(path, values)
    wb = load_workbook(path)
    ws = wb.active
    ws.cell(row=25, column=5, value=999)  # row 25: nobody has Player ID 999
    ws.cell(row=26, column=8, value="maybe")  # row 26: Out must be yes or blank
    wb.save(path)
    before = snapshot()
    with pytest.raises(CommandError) as error:
        call_command("import_scores", world.tournament.slug, str(path))
    assert error.value.returncode == 1
    message = str(error.value)
    assert "Row 25: there is no player with Player ID 999." in message
    assert (
        'Row 26: Out must be "yes" for the player who went out, "blocked" for a game nobody '
        'went out of, "not played" for a game the table did not play, or left blank (it says '
        '"maybe").'
    ) in message
    assert snapshot() == before
    # With those two fixed, the rules themselves speak, each on its own row.
    ws.cell(row=25, column=5, value=4)  # Di Fox again
    ws.cell(row=26, column=8).value = None
    wb.save(path)
    with pytest.raises(CommandError) as error:
        call_command("import_scores", world.tournament.slug, str(path))
    lines = str(error.value).splitlines()
    assert lines[0] == "Nothing was imported:"
    assert "Row 3 (table 1, game 1): Bob Roe's score must be a whole number, like 0 or 23." in lines
    assert "Row 8 (table 1, game 2): Two players went out in game 2: only one can." in lines
    assert snapshot() == before


def test_rows_for_the_wrong_table_and_repeats_are_named(world, tmp_path):
    path = fill(export(world, tmp_path), filled_values())
    wb = load_workbook(path)
    ws = wb.active
    ws.cell(row=2, column=2, value=2)  # Ann Lee moved to table 2 in the file
    ws.cell(row=4, column=5, value=2)  # row 4 now says Bob Roe (ID 2) again
    ws.cell(row=9, column=1, value="one")
    wb.save(path)
    with pytest.raises(CommandError) as error:
        call_command("import_scores", world.tournament.slug, str(path))
    message = str(error.value)
    assert "Row 2: Ann Lee (Player ID 1) is not seated at table 2 on day 1." in message
    assert "Row 4: Bob Roe is listed twice for table 1, game 1 (also row 3)." in message
    assert 'Row 9: Day must be a whole number (it says "one").' in message
    assert not GameSheet.objects.exists()


def test_changing_a_confirmed_game_needs_a_reason(world, tmp_path):
    services.submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, T1, out="Ann Lee"),
        0,
        source=Source.DESK,
        user=world.desk,
    )
    path = fill(export(world, tmp_path), {(1, 1, "Di Fox"): (9, False)})
    with pytest.raises(
        CommandError, match=r"Row 2 \(table 1, game 1\): Game 1 is already confirmed: give a reason"
    ):
        call_command("import_scores", world.tournament.slug, str(path))
    call_command("import_scores", world.tournament.slug, str(path), "--reason", "Card said 9")
    event = AuditEvent.objects.get(action="corrected")
    assert (event.source, event.reason, event.actor_label) == (
        Source.WORKBOOK,
        "Card said 9",
        "command line",
    )
    assert totals()["Di Fox"] == 9


def test_a_desk_upload_cannot_change_a_confirmed_game(world, tmp_path):
    desk = world.desk
    services.submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, T1, out="Ann Lee"),
        0,
        source=Source.DESK,
        user=desk,
    )
    path = fill(export(world, tmp_path), {(1, 1, "Di Fox"): (9, False)})
    with pytest.raises(workbook_import.WorkbookRefused, match="Only an organiser can change it"):
        workbook_import.import_workbook(
            world.tournament, path.read_bytes(), user=desk, reason="typo"
        )


def zip_bytes(members):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def test_a_zip_bomb_is_refused_before_unpacking(world, settings, monkeypatch):
    settings.UPLOAD_MAX_BYTES = 200_000  # so the unpacked cap is 2 MB
    bomb = zip_bytes(
        {
            "[Content_Types].xml": "x",
            "xl/workbook.xml": "x",
            "xl/worksheets/sheet1.xml": b"\0" * 5_000_000,
        }
    )
    assert len(bomb) < settings.UPLOAD_MAX_BYTES

    def must_not_open(*args, **kwargs):
        raise AssertionError("openpyxl was asked to open a zip bomb")

    monkeypatch.setattr("openpyxl.load_workbook", must_not_open)
    with pytest.raises(
        workbook_import.WorkbookRefused,
        match="would unpack to 5 MB, far more than a score workbook",
    ):
        workbook_import.import_workbook(world.tournament, bomb)


@pytest.mark.parametrize(
    "data",
    [
        b"Day,Table,Game\n1,1,1\n",
        b"%PDF-1.4 not a workbook",
        zip_bytes({"hello.txt": "hi"}),
        zip_bytes({"[Content_Types].xml": "x", "xl/workbook.xml": "<not xml"}),
        b"",
    ],
)
def test_files_that_are_not_workbooks_get_a_plain_message(world, data):
    with pytest.raises(workbook_import.WorkbookRefused) as refused:
        workbook_import.import_workbook(world.tournament, data)
    assert refused.value.lines == [workbook_import.NOT_A_WORKBOOK]


def test_too_big_a_file_and_a_wrong_header_are_refused(world, settings):
    settings.UPLOAD_MAX_BYTES = 10
    with pytest.raises(workbook_import.WorkbookRefused, match="the largest file accepted is"):
        workbook_import.import_workbook(world.tournament, b"x" * 11)
    settings.UPLOAD_MAX_BYTES = 5_000_000
    wb = Workbook()
    wb.active.append(["Table", "Game", "Score"])
    out = io.BytesIO()
    wb.save(out)
    with pytest.raises(
        workbook_import.WorkbookRefused, match="Row 1: the columns must be Day, Table, Game"
    ):
        workbook_import.import_workbook(world.tournament, out.getvalue())


def test_the_upload_page(world, tmp_path):
    desk = world.desk
    client = Client()
    client.force_login(desk)
    url = reverse("organiser:upload_workbook", args=[world.tournament.slug])
    assert b"Score workbook (.xlsx)" in client.get(url).content
    response = client.post(url, {"file": io.BytesIO(b"not a workbook")})
    assert workbook_import.NOT_A_WORKBOOK.replace('"', "&quot;") in response.content.decode()
    path = fill(export(world, tmp_path), filled_values())
    with open(path, "rb") as handle:
        response = client.post(url, {"file": handle})
    assert response.status_code == 302
    assert GameSheet.objects.filter(state=SheetState.CONFIRMED, entered_by=desk).count() == 4
    download = client.get(reverse("organiser:export_workbook", args=[world.tournament.slug, 1]))
    assert download["Content-Type"].startswith("application/vnd.openxmlformats")
    rows = list(
        load_workbook(io.BytesIO(download.content), read_only=True).active.iter_rows(
            values_only=True
        )
    )
    assert rows[1][6] == 0 and rows[1][7] == "yes"


def test_the_upload_page_lists_bad_rows(world, tmp_path):
    staff_user = world.boss
    client = Client()
    client.force_login(staff_user)
    values = filled_values()
    values[(1, 1, "Bob Roe")] = (-2, False)
    path = fill(export(world, tmp_path), values)
    with open(path, "rb") as handle:
        response = client.post(
            reverse("organiser:upload_workbook", args=[world.tournament.slug]), {"file": handle}
        )
    html = response.content.decode()
    assert "Nothing was imported." in html
    assert "Row 3 (table 1, game 1): Bob Roe&#x27;s score cannot be negative." in html
    assert not GameSheet.objects.exists()
