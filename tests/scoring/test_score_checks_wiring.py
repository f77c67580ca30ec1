"""The score checks that know the table, wired through every way a score comes in: the limits
from the rule set's hand sizes, the "please check" step, what the phone and the desk infer, the
one engine rule, and outcomes said out loud in the workbook."""

import io
import re
from dataclasses import replace

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from page_fields import options, value_of
from pypdf import PdfReader
from scoring_factories import T1, seated_day, snapshot, staff, typed

from domain.sheet_checks import SheetRules, TypedSheet, hand_limits, infer_outcome
from scoring import services
from scoring.models import GameSheet, Score, SheetState, Source
from scoring.score_sheets_pdf import score_sheets_pdf
from scoring.selectors import sheet_rules, table_sheets
from scoring.workbook_import import WorkbookToCheck, import_workbook
from tournaments.access import COMMAND_LINE
from tournaments.models import Tournament
from tournaments.services.rules import change_rules

pytestmark = pytest.mark.django_db

# A three-digit score among two-digit ones: possible, but likely an extra keystroke.
JUMP = {"Ann Lee": 0, "Bob Roe": 12, "Cy Doe": 400, "Di Fox": 7}


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def link(table, game=None):
    url = reverse("scorekeeper:table", args=[table.link_token])
    return f"{url}?game={game}" if game else url


def text_of(response):
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


def check_code(html, field):
    """The "yes, it is right" code the page carries in ``field``: a hex digest."""
    code = value_of(html, field)
    assert re.fullmatch(r"[0-9a-f]+", code), code
    return code


def phone_post(w, scores, *, game=1, out=(), engine=None, base=0, **extra):
    data = {
        "game": str(game),
        "base_version": str(base),
        "engine": str(w.games[game].scheduled_engine if engine is None else engine),
        **extra,
    }
    for name, value in scores.items():
        data[f"score-{w.entries[name].pk}"] = str(value)
    for name in out:
        data[f"out-{w.entries[name].pk}"] = "on"
    return data


def stored_points(sheet):
    return {s.entry.player.name: s.points for s in sheet.scores.select_related("entry__player")}


def submit(w, game, scores, *, out=None, engine=None, table=0, **options):
    return services.submit_game(
        w.tables[table],
        w.games[game],
        typed(w, game, scores, out=out, engine=engine),
        0,
        source=Source.TABLE_LINK,
        **options,
    )


# ---------------------------------------------------------------------------
# The rule set's deal reaches the checks
# ---------------------------------------------------------------------------


def test_the_rules_hand_sizes_and_engine_deal_reach_the_checks():
    for preset, aside in (
        ("tournament", False),
        ("club-session", False),
        ("good-sam", True),
        ("jib-room", False),
        ("puremco", True),
        ("puremco-d9", True),
    ):
        w = seated_day(slug=f"r-{preset}", preset=preset)
        rules = sheet_rules(w.tournament.rules)
        assert rules.hand_sizes == tuple(tuple(row) for row in w.tournament.rules.hand_sizes)
        assert rules.engine_set_aside is aside, preset
    # The rule set's own rule decides, not the preset it started from, nor having one.
    custom = Tournament.objects.get(slug="r-tournament")
    change_rules(custom, {"engine_set_aside": True}, by=COMMAND_LINE)
    custom.preset = None
    custom.save()
    custom = Tournament.objects.select_related("rules").get(pk=custom.pk)
    assert sheet_rules(custom.rules).engine_set_aside is True


def test_two_players_at_double_nine_are_held_to_the_deal_with_the_engine_set_aside():
    """The sheets an outside game engine found stored after the "please check" tap: at a
    2-player puremco-d9 table a hand reaches 42 tiles, not 43."""
    w = seated_day(slug="d9", preset="puremco-d9", tables=(("Ann Lee", "Bob Roe"),))
    rules = sheet_rules(w.rules)
    limits = hand_limits(rules, 2, w.games[1].scheduled_engine)
    assert (limits.drew, limits.tiles_per_hand) == (12, 42)
    # Dealt from all 55 tiles, as the checks read this preset before: one tile more.
    looser = hand_limits(replace(rules, engine_set_aside=False), 2, w.games[1].scheduled_engine)
    before = snapshot()
    for too_many in (limits.hand_pips + 1, looser.hand_pips):
        with pytest.raises(services.SheetRefused) as refused:
            submit(w, 1, {"Ann Lee": 0, "Bob Roe": too_many}, out="Ann Lee", rechecked=True)
        assert [r.field for r in refused.value.refusals] == [f"score-{w.entries['Bob Roe'].pk}"]
        assert "at a table of 2 players" in refused.value.refusals[0].message
    assert snapshot() == before
    submit(w, 1, {"Ann Lee": 0, "Bob Roe": limits.hand_pips}, out="Ann Lee", rechecked=True)
    assert stored_points(GameSheet.objects.get())["Bob Roe"] == limits.hand_pips


def test_a_score_above_what_one_hand_at_this_table_can_hold_is_refused(world):
    limits = hand_limits(sheet_rules(world.rules), 4, 12)
    assert limits.drew == 12 and limits.tiles_per_hand == 91 - 3 * 12
    before = snapshot()
    with pytest.raises(services.SheetRefused) as refused:
        submit(world, 1, {**T1, "Cy Doe": limits.hand_pips + 1}, out="Ann Lee")
    assert [r.field for r in refused.value.refusals] == [f"score-{world.entries['Cy Doe'].pk}"]
    assert "at a table of 4 players" in refused.value.refusals[0].message
    assert snapshot() == before
    # The most one hand can hold is possible: asked about (beyond any dealt hand), then saved.
    with pytest.raises(services.ScoresToCheck):
        submit(world, 1, {**T1, "Cy Doe": limits.hand_pips}, out="Ann Lee")
    assert snapshot() == before
    submit(world, 1, {**T1, "Cy Doe": limits.hand_pips}, out="Ann Lee", rechecked=True)
    assert stored_points(GameSheet.objects.get())["Cy Doe"] == limits.hand_pips


# ---------------------------------------------------------------------------
# "Please check": never a refusal, never saved unasked
# ---------------------------------------------------------------------------


def test_a_likely_typo_is_asked_about_and_saved_once_confirmed(world):
    before = snapshot()
    with pytest.raises(services.ScoresToCheck) as asked:
        submit(world, 1, JUMP, out="Ann Lee")
    (note,) = asked.value.warnings
    assert note.field == f"score-{world.entries['Cy Doe'].pk}" and note.game == 1
    assert note.message.startswith("Please check Cy Doe's score of 400")
    assert snapshot() == before
    submit(world, 1, JUMP, out="Ann Lee", rechecked=True)
    assert stored_points(GameSheet.objects.get())["Cy Doe"] == 400


def test_a_refusal_carries_the_notes_found_beside_it(world):
    with pytest.raises(services.SheetRefused) as refused:
        submit(world, 1, {**JUMP, "Bob Roe": -1}, out="Ann Lee")
    assert [w.field for w in refused.value.warnings] == [f"score-{world.entries['Cy Doe'].pk}"]


def test_the_phone_asks_then_saves_with_one_tap(world, client):
    before = snapshot()
    response = client.post(link(world.tables[0]), phone_post(world, JUMP, out=["Ann Lee"]))
    assert response.status_code == 302 and response["Location"].endswith("?game=1")
    page = client.get(response["Location"])
    text, html = text_of(page), page.content.decode()
    assert "Please check before saving" in text and "Nothing was saved." not in text
    assert "Please check Cy Doe's score of 400" in text
    cy = world.entries["Cy Doe"].pk
    assert f'aria-describedby="id_score-{cy}_warning"' in html
    assert value_of(html, f"score-{cy}") == "400"  # what was typed is kept
    code = check_code(html, "rechecked")
    assert snapshot() == before
    # A score changed after the question is asked about again, whatever the button says.
    changed = phone_post(world, {**JUMP, "Cy Doe": 500}, out=["Ann Lee"], rechecked=code)
    response = client.post(link(world.tables[0]), changed)
    assert "Please check Cy Doe's score of 500" in text_of(client.get(response["Location"]))
    assert snapshot() == before
    # "Yes, it is right" for what is typed now saves it.
    page = client.get(link(world.tables[0], 1)).content.decode()
    code = check_code(page, "rechecked")
    data = phone_post(world, {**JUMP, "Cy Doe": 500}, out=["Ann Lee"], rechecked=code)
    response = client.post(link(world.tables[0]), data)
    assert response.status_code == 302 and "?game" not in response["Location"]
    assert stored_points(GameSheet.objects.get())["Cy Doe"] == 500
    assert "Game 1 is saved" in text_of(client.get(response["Location"]))


def card_data(w, table_games, totals=None):
    """The desk card's fields: {game: (scores by name, who went out or "blocked" or "")}."""
    sheets = table_sheets(w.tables[0])
    data = {}
    for game in sheets.games:
        data[f"g{game.number}-base"] = "0"
        data[f"g{game.number}-engine"] = ""
    for n, (scores, out) in table_games.items():
        data[f"g{n}-engine"] = str(w.games[n].scheduled_engine)
        data[f"g{n}-out"] = str(w.entries[out].pk) if out in w.entries else out
        for name, value in scores.items():
            data[f"g{n}-score-{w.entries[name].pk}"] = str(value)
    return data


def card_url(w):
    return reverse("organiser:score_card", args=[w.tournament.slug, 1, 1])


def test_the_desk_card_asks_next_to_the_field_then_saves(world):
    desk = client_for(world.desk)
    before = snapshot()
    response = desk.post(card_url(world), card_data(world, {1: (JUMP, "Ann Lee")}))
    assert response.status_code == 200
    html, text = response.content.decode(), text_of(response)
    assert "Please check before saving" in text and "Nothing was saved." not in text
    assert '<span class="field-warning">Please check Cy Doe' in html
    code = check_code(html, "rechecked")
    assert snapshot() == before
    data = {**card_data(world, {1: (JUMP, "Ann Lee")}), "rechecked": code}
    assert desk.post(card_url(world), data).status_code == 302
    assert stored_points(GameSheet.objects.get())["Cy Doe"] == 400


# ---------------------------------------------------------------------------
# What the phone and the desk infer
# ---------------------------------------------------------------------------


def test_infer_outcome_fills_only_what_is_certain():
    fifty = SheetRules(12, 50, 12, 7)
    zero = SheetRules(12, 0, 9, 0)
    seated = {1: "Ann", 2: "Bob", 3: "Cy"}
    zero_for_ann = TypedSheet(1, 9, {1: "0", 2: "5", 3: "8"})
    assert infer_outcome(fifty, seated, TypedSheet(1, 12, {1: "0", 2: "5", 3: "8"})).went_out == 1
    asked = infer_outcome(zero, seated, zero_for_ann)
    assert asked.went_out is None and asked.question.field == "outcome"
    assert "did Ann go out?" in asked.question.message
    # With the double blank as the engine, a 0 can only be going out.
    assert infer_outcome(zero, seated, TypedSheet(10, "0", {1: "0", 2: "5"})).went_out == 1
    # Ticked out with the score left blank: 0.
    assert (
        infer_outcome(zero, seated, TypedSheet(1, 9, {1: "", 2: "5"}, went_out=[1])).zero_for == 1
    )
    # Nothing is guessed where the sheet already says, or could mean several things.
    for sheet in (
        TypedSheet(1, 12, {1: "0", 2: "0", 3: "8"}),  # two zeros
        TypedSheet(1, 12, {1: "0", 2: "5"}, blocked=True),
        TypedSheet(1, 12, {1: "0", 2: "5"}, went_out=[2]),
        TypedSheet(1, 12, {1: "7", 2: "5"}, went_out=[1]),  # a score typed: the checks judge it
        TypedSheet(1, 12, {1: "", 2: "5"}, went_out=[1, 2]),
    ):
        assert infer_outcome(fifty, seated, sheet) == infer_outcome(
            fifty, seated, TypedSheet(1, 12, {})
        )


def test_the_phone_infers_what_is_certain_without_script(world, client):
    # A 0 with the double blank worth 50: only going out gives it.
    response = client.post(link(world.tables[0]), phone_post(world, T1))
    assert response.status_code == 302 and "?game" not in response["Location"]
    assert GameSheet.objects.get().went_out == world.entries["Ann Lee"]
    # "Went out" ticked with the score left blank: 0.
    scores = {"Ann Lee": 3, "Bob Roe": "", "Cy Doe": 40, "Di Fox": 7}
    client.post(link(world.tables[0]), phone_post(world, scores, game=2, out=["Bob Roe"]))
    second = GameSheet.objects.get(game=world.games[2])
    assert second.went_out == world.entries["Bob Roe"] and stored_points(second)["Bob Roe"] == 0


def test_the_phone_asks_about_an_ambiguous_zero(client):
    w = seated_day(slug="sam", preset="good-sam")
    before = snapshot()
    response = client.post(link(w.tables[0]), phone_post(w, T1))
    page = client.get(response["Location"])
    assert "Ann Lee's score is 0 in game 1: did Ann Lee go out?" in text_of(page)
    assert 'id="id_blocked_error"' in page.content.decode()
    assert snapshot() == before
    client.post(link(w.tables[0]), phone_post(w, T1, out=["Ann Lee"]))
    assert GameSheet.objects.get().went_out == w.entries["Ann Lee"]


def test_the_desk_card_infers_who_went_out(world):
    data = card_data(world, {1: (T1, "")})
    assert client_for(world.desk).post(card_url(world), data).status_code == 302
    assert GameSheet.objects.get().went_out == world.entries["Ann Lee"]


# ---------------------------------------------------------------------------
# One engine rule: the table that fell back to double 9 in game 3
# ---------------------------------------------------------------------------


@pytest.fixture
def fell_back(world):
    submit(world, 1, T1, out="Ann Lee", engine=12)
    submit(world, 2, T1, out="Ann Lee", engine=11)
    submit(world, 3, T1, out="Ann Lee", engine=9)  # nobody held the 10
    return world


def test_after_a_fallback_the_phone_names_the_double_the_rules_expect(fell_back, client):
    response = client.get(link(fell_back.tables[0]))
    html = response.content.decode()
    assert "Game 4 · engine double 10" in text_of(response)
    engines = options(html, "id_engine")
    assert [v for v, _ in engines] == ["10", "8", "7"]
    assert [v for v, selected in engines if selected] == ["10"]
    assert "Double 10 (expected)" in html


def test_after_a_fallback_the_sheets_follow_the_table_and_the_desk_plans_blind(fell_back, tmp_path):
    """One rule (planned_engines) everywhere. The table's own sheet plans from what it entered;
    the desk's card and workbook plan from what the desk has confirmed, so a card keyed blind
    never shows the table's entry. Keyed from the card, the fallback is confirmed as played."""
    w = fell_back
    text = " ".join(PdfReader(io.BytesIO(score_sheets_pdf(w.day))).pages[0].extract_text().split())
    assert "3 9-9 4 10-10 5 8-8 6 7-7" in text.replace(" out", "")  # each player's "out" box
    card = client_for(w.desk).get(card_url(w)).content.decode()
    assert value_of(card, "g3-engine") == "10"  # nothing confirmed yet
    assert value_of(card, "g4-engine") == "9"
    path = tmp_path / "day1.xlsx"
    call_command("export_scores", w.tournament.slug, str(path), "--day", "1")
    engines = {
        (r[1], r[2]): r[3]
        for r in load_workbook(path, read_only=True).active.iter_rows(min_row=2, values_only=True)
    }
    assert [engines[(1, n)] for n in range(1, 7)] == [12, 11, 10, 9, 8, 7]
    # Untouched, the file changes nothing: the table's games wait for the desk to key them.
    call_command("import_scores", w.tournament.slug, str(path))
    assert not GameSheet.objects.filter(state=SheetState.CONFIRMED).exists()
    # Keyed from the card (game 3 on double 9, game 4 on double 10): the three games the table
    # entered match and are confirmed, and game 4 is stored on double 10.
    wb = load_workbook(path)
    for row in wb.active.iter_rows(min_row=2):
        if row[1].value == 1 and row[2].value in (1, 2, 3, 4):
            row[3].value = {3: 9, 4: 10}.get(row[2].value, row[3].value)
            row[6].value = T1[row[5].value]
            row[7].value = "yes" if row[5].value == "Ann Lee" else None
    wb.save(path)
    call_command("import_scores", w.tournament.slug, str(path))
    live = GameSheet.objects.filter(table=w.tables[0], state=SheetState.CONFIRMED)
    assert [s.engine_used for s in live.order_by("game__number")] == [12, 11, 9, 10]


# ---------------------------------------------------------------------------
# The workbook says every outcome
# ---------------------------------------------------------------------------


def export_and_fill(w, tmp_path, games):
    """Export day 1 and fill table 1's ``games`` {game: {name: (score, out word)}}."""
    path = tmp_path / "day1.xlsx"
    call_command("export_scores", w.tournament.slug, str(path), "--day", "1")
    wb = load_workbook(path)
    for row in wb.active.iter_rows(min_row=2):
        filled = games.get(row[2].value, {}) if row[1].value == 1 else {}
        if row[5].value in filled:
            row[6].value, row[7].value = filled[row[5].value]
    wb.save(path)
    return path


def test_a_game_with_scores_and_no_outcome_is_refused_by_row(world, tmp_path):
    path = export_and_fill(
        world,
        tmp_path,
        {
            1: {name: (score, None) for name, score in T1.items()},
            2: {
                "Ann Lee": (3, "blocked"),
                "Bob Roe": (12, None),
                "Cy Doe": (4, None),
                "Di Fox": (9, None),
            },
        },
    )
    before = snapshot()
    with pytest.raises(CommandError) as error:
        call_command("import_scores", world.tournament.slug, str(path))
    message = str(error.value)
    assert (
        "Rows 2 to 5 (table 1, game 1): the game has scores but Out does not say how it ended."
        in message
    )
    assert "game 2" not in message  # the blocked game says so on one row
    assert snapshot() == before


def test_a_blocked_game_goes_out_and_comes_back_as_blocked(world, tmp_path):
    blocked = {"Ann Lee": 3, "Bob Roe": 12, "Cy Doe": 4, "Di Fox": 9}
    path = export_and_fill(
        world,
        tmp_path,
        {1: {n: (s, "BLOCKED" if n == "Cy Doe" else None) for n, s in blocked.items()}},
    )
    call_command("import_scores", world.tournament.slug, str(path))
    sheet = GameSheet.objects.get()
    assert sheet.blocked and sheet.went_out is None
    again = tmp_path / "again.xlsx"
    call_command("export_scores", world.tournament.slug, str(again), "--day", "1")
    sheet_rows = load_workbook(again, read_only=True).active.iter_rows(min_row=2, values_only=True)
    rows = list(sheet_rows)
    game1 = [r[7] for r in rows if (r[1], r[2]) == (1, 1)]
    assert game1 == ["blocked", None, None, None]


def test_the_workbook_lists_likely_typos_by_row_and_imports_once_confirmed(world, tmp_path):
    path = export_and_fill(
        world, tmp_path, {1: {n: (s, "yes" if n == "Ann Lee" else None) for n, s in JUMP.items()}}
    )
    data = path.read_bytes()
    before = snapshot()
    with pytest.raises(WorkbookToCheck) as asked:
        import_workbook(world.tournament, data, user=world.desk)
    assert asked.value.lines == [
        "Row 4 (table 1, game 1): Please check Cy Doe's score of 400: that is more than the "
        "best hand anyone can be dealt (276 in 12 tiles), so Cy Doe must have drawn many tiles "
        "in game 1."
    ]
    assert snapshot() == before
    with pytest.raises(WorkbookToCheck):
        import_workbook(world.tournament, data, user=world.desk, checked="0123456789abcdef")
    import_workbook(world.tournament, data, user=world.desk, checked=asked.value.code)
    assert stored_points(GameSheet.objects.get())["Cy Doe"] == 400


def test_the_upload_page_asks_with_a_box_to_tick(world, tmp_path):
    path = export_and_fill(
        world, tmp_path, {1: {n: (s, "yes" if n == "Ann Lee" else None) for n, s in JUMP.items()}}
    )
    desk = client_for(world.desk)
    url = reverse("organiser:upload_workbook", args=[world.tournament.slug])
    with open(path, "rb") as handle:
        response = desk.post(url, {"file": handle})
    html = response.content.decode()
    assert "please check these scores against the cards" in text_of(response)
    assert "Row 4 (table 1, game 1): Please check Cy Doe" in text_of(response)
    code = check_code(html, "checked")
    assert not GameSheet.objects.exists()
    with open(path, "rb") as handle:
        response = desk.post(url, {"file": handle, "checked": code})
    assert response.status_code == 302
    assert GameSheet.objects.get().state == SheetState.CONFIRMED


def test_the_import_command_takes_scores_checked(world, tmp_path):
    path = export_and_fill(
        world, tmp_path, {1: {n: (s, "yes" if n == "Ann Lee" else None) for n, s in JUMP.items()}}
    )
    with pytest.raises(CommandError) as error:
        call_command("import_scores", world.tournament.slug, str(path))
    assert "run the import again with --scores-checked" in str(error.value)
    assert not Score.objects.exists()
    call_command("import_scores", world.tournament.slug, str(path), "--scores-checked")
    assert GameSheet.objects.count() == 1


def test_a_withdrawn_tables_limits_follow_the_players_left():
    w = seated_day(slug="small", tables=(("Ann Lee", "Bob Roe", "Cy Doe"),))
    desk = staff(w.tournament, "d")
    limits3 = hand_limits(sheet_rules(w.rules), 3, 12)
    limits4 = hand_limits(sheet_rules(w.rules), 4, 12)
    assert limits3.hand_pips > limits4.hand_pips
    scores = {"Ann Lee": 0, "Bob Roe": limits3.hand_pips, "Cy Doe": 5}
    services.submit_game(
        w.tables[0],
        w.games[1],
        typed(w, 1, scores, out="Ann Lee"),
        0,
        source=Source.DESK,
        user=desk,
        rechecked=True,
    )
    assert GameSheet.objects.get().state == SheetState.CONFIRMED
