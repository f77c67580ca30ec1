"""An event's own rules: changed through one service (the rules page and
the ``rules`` command), carried through to the schedule, the sheets, the phone page and the
workbook; and new events created on the web."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.core.management.base import CommandError
from pypdf import PdfReader
from scoring_factories import fresh, seated_day, snapshot, stored_sheet

from core.errors import ServiceError
from domain.sheet_checks import expected_engine
from scoring.models import Game
from scoring.score_sheets_pdf import score_sheets_pdf
from scoring.selectors import day_workbook_rows, sheet_rules
from tournaments.access import COMMAND_LINE
from tournaments.forms import RulesForm
from tournaments.models import Day, RulePreset, RuleSet, StaffRole, Tournament
from tournaments.presets import preset_rows
from tournaments.services.rules import RuleProblems, change_rules

RULE_MODELS = (Tournament, RuleSet, Day, Game)


@pytest.mark.django_db
def test_an_explicit_engine_order_feeds_the_expected_engine():
    w = seated_day(preset="good-sam", tables=(("A a", "B b", "C c"),))
    change_rules(w.tournament, {"engine_order": [9, 7, 5, 3], "games_per_day": 4}, by=COMMAND_LINE)
    rules = sheet_rules(fresh(w.tournament).rules)
    assert expected_engine(rules, []) == 9
    assert expected_engine(rules, [9]) == 7
    assert expected_engine(rules, [9, 7, 5, 3]) is None


# --- the rules service -----------------------------------------------------------------------


@pytest.mark.django_db
def test_fewer_games_and_a_new_engine_order_rebuild_a_seated_day():
    w = seated_day()
    change_rules(w.tournament, {"games_per_day": 4}, by=COMMAND_LINE)
    assert [g.scheduled_engine for g in Game.objects.filter(day=w.day)] == [12, 11, 10, 9]
    change_rules(w.tournament, {"engine_order": [7, 9, 11, 12, 10]}, by=COMMAND_LINE)
    assert fresh(w.tournament).rules.games_per_day == 5
    assert [g.scheduled_engine for g in Game.objects.filter(day=w.day)] == [7, 9, 11, 12, 10]


@pytest.mark.django_db
def test_changed_rules_reach_the_sheets_the_workbook_and_the_phone_page(client):
    w = seated_day(preset="jib-room", tables=(("A a", "B b", "C c", "D d", "E e"),))
    change_rules(
        w.tournament,
        {"games_per_day": 8, "hand_sizes": [[2, 4, 14], [5, 8, 11]]},
        by=COMMAND_LINE,
    )
    day = Day.objects.select_related("tournament__rules").get(pk=w.day.pk)
    engines = list(range(12, 4, -1))
    assert [g.scheduled_engine for g in Game.objects.filter(day=day)] == engines
    text = " ".join(PdfReader(io.BytesIO(score_sheets_pdf(day))).pages[0].extract_text().split())
    assert "5 players: each draws 11 tiles." in text
    assert "5-5" in text and "4-4" not in text
    rows = day_workbook_rows(day)
    assert sorted({r["game"] for r in rows}) == list(range(1, 9))
    assert [r["engine"] for r in rows if r["player_id"] == 1] == engines
    page = client.get(f"/table/{w.tables[0].link_token}/").content.decode()
    assert "each player draws 11 tiles" in page


@pytest.mark.django_db
def test_more_days_adds_them_and_fewer_removes_unseated_ones():
    w = seated_day(preset="club-session")
    change_rules(w.tournament, {"days": 3}, by=COMMAND_LINE)
    assert list(Day.objects.filter(tournament=w.tournament).values_list("number", flat=True)) == [
        1,
        2,
        3,
    ]
    change_rules(w.tournament, {"days": 1}, by=COMMAND_LINE)
    assert Day.objects.filter(tournament=w.tournament).count() == 1


@pytest.mark.django_db
def test_removing_a_seated_day_is_refused_and_changes_nothing():
    w = seated_day(day_number=2)
    before = snapshot(*RULE_MODELS)
    with pytest.raises(RuleProblems) as refusal:
        change_rules(w.tournament, {"days": 1, "games_per_day": 3}, by=COMMAND_LINE)
    assert refusal.value.field == "days"
    assert "Day 2 is seated" in str(refusal.value)
    assert snapshot(*RULE_MODELS) == before


@pytest.mark.django_db
def test_an_impossible_rule_changes_nothing():
    w = seated_day()
    before = snapshot(*RULE_MODELS)
    with pytest.raises(RuleProblems) as refusal:
        change_rules(w.tournament, {"top_double": 9, "games_per_day": 3}, by=COMMAND_LINE)
    assert refusal.value.field == "first_engine"
    assert snapshot(*RULE_MODELS) == before


@pytest.mark.django_db
def test_rules_are_fixed_once_the_first_score_is_in():
    w = seated_day()
    stored_sheet(w.tables[0], w.games[1])
    before = snapshot(*RULE_MODELS)
    with pytest.raises(ServiceError, match="Play has started"):
        change_rules(w.tournament, {"games_per_day": 3}, by=COMMAND_LINE)
    assert snapshot(*RULE_MODELS) == before


@pytest.mark.django_db
def test_a_lower_table_maximum_on_a_seated_day_says_to_reseat():
    w = seated_day(tables=(("A a", "B b", "C c", "D d", "E e", "F f", "G g"),))
    change = change_rules(w.tournament, {"max_table_size": 5}, by=COMMAND_LINE)
    assert change.reseat == [
        "Day 1 is seated for another table size: reseat it so tables hold at most 5."
    ]


@pytest.mark.django_db
def test_desk_staff_cannot_change_the_rules(make_user):
    w = seated_day()
    desk = make_user("desk1")
    StaffRole.objects.create(tournament=w.tournament, user=desk, role=StaffRole.DESK)
    with pytest.raises(ServiceError, match="Only an organiser"):
        change_rules(w.tournament, {"games_per_day": 3}, by=desk)


# --- the command line ------------------------------------------------------------------------


@pytest.mark.django_db
def test_new_tournament_takes_rule_options(capsys):
    call_command(
        "new_tournament",
        "rally",
        "--name",
        "Rally",
        "--rules",
        "good-sam",
        "--engines",
        "9 8 7 6 5 4 3 2 1 0",
        "--double-blank",
        "25",
        "--days",
        "2",
    )
    rules = RuleSet.objects.get(tournament__slug="rally")
    assert rules.scheduled_engines() == list(range(9, -1, -1))
    assert (rules.double_blank_value, rules.days, rules.games_per_day) == (25, 2, 10)
    assert Day.objects.filter(tournament__slug="rally").count() == 2


@pytest.mark.django_db
def test_new_tournament_refuses_a_deal_bigger_than_the_set():
    before = snapshot(*RULE_MODELS)
    with pytest.raises(CommandError, match="60 of the 55 tiles"):
        call_command(
            "new_tournament",
            "d9",
            "--name",
            "D9",
            "--rules",
            "jib-room",
            "--set",
            "9",
            "--engines",
            "9 8 7 6",
            "--max-table-size",
            "4",
        )
    assert snapshot(*RULE_MODELS) == before


@pytest.mark.django_db
def test_rules_command_prints_sources_and_sets_under_the_same_checks(make_tournament, capsys):
    make_tournament(slug="sam", preset="good-sam")
    call_command("rules", "sam")
    out = capsys.readouterr().out
    assert "Games a day: 10  [assumed: our assumption" in out
    assert "First engine: 9  [seed: from the organisers' rule sheet]" in out
    call_command("rules", "sam", "--set", "games_per_day=8", "hand_sizes=2-6: 11")
    out = capsys.readouterr().out
    assert "Games a day: 8  [event: set for this event]" in out
    before = snapshot(*RULE_MODELS)
    with pytest.raises(CommandError, match="hand_sizes: Tables of 6 have no hand size"):
        call_command("rules", "sam", "--set", "hand_sizes=2-5: 12")
    with pytest.raises(CommandError, match='no rule called "colour"'):
        call_command("rules", "sam", "--set", "colour=red")
    assert snapshot(*RULE_MODELS) == before


# --- the web pages ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_only_permitted_users_create_events_and_become_organiser(client, make_user):
    user = make_user("clubsec")
    client.force_login(user)
    assert "New tournament" not in client.get("/organiser/").content.decode()
    assert client.get("/organiser/new/").status_code == 403
    user.user_permissions.add(Permission.objects.get(codename="create_tournament"))
    client.force_login(user)
    assert "New tournament" in client.get("/organiser/").content.decode()
    response = client.post(
        "/organiser/new/",
        {"name": "Spring  Rally 2026", "preset": "puremco-d9", "venue": "Hall", "slug": ""},
    )
    assert response.status_code == 302
    t = Tournament.objects.get(slug="spring-rally-2026")
    assert t.name == "Spring Rally 2026" and t.rules.top_double == 9
    assert StaffRole.objects.get(tournament=t).user == user


@pytest.mark.django_db
def test_a_weekly_club_nights_repeated_name_gets_an_address_with_its_date(organiser_client):
    """The short name left empty: the name's address, then with the date, then numbered."""
    made = []
    for date in ("2026-12-07", "2026-12-14", "2026-12-14", ""):
        response = organiser_client.post(
            "/organiser/new/",
            {"name": "Club Night", "preset": "club-session", "start_date": date, "slug": ""},
            follow=True,
        )
        assert "Club Night is created, its web address name" in response.content.decode()
        made.append(Tournament.objects.order_by("-pk").values_list("slug", flat=True).first())
    assert made == [
        "club-night",
        "club-night-2026-12-14",
        "club-night-2026-12-14-2",
        "club-night-2",
    ]


@pytest.mark.django_db
def test_a_taken_or_badly_shaped_slug_is_refused_by_the_field(organiser_client, tournament):
    before = snapshot(*RULE_MODELS)
    for slug, words in (
        ("spring", "cannot be used for a new tournament"),
        ("Spring_Rally", "cannot be part of a web address"),
    ):
        page = organiser_client.post(
            "/organiser/new/", {"name": "Spring", "preset": "tournament", "slug": slug}
        ).content.decode()
        assert words in page
    assert snapshot(*RULE_MODELS) == before


@pytest.mark.django_db
def test_settings_page_changes_name_dates_venue_and_public_pages(organiser_client, tournament):
    response = organiser_client.post(
        "/organiser/t/spring/settings/",
        {"name": "Spring Cup", "start_date": "2026-04-10", "venue": "Club hall"},
    )
    assert response.status_code == 302
    t = fresh(tournament)
    assert (t.name, t.venue, t.public_pages) == ("Spring Cup", "Club hall", False)
    assert [str(d.date) for d in t.days.order_by("number")] == ["2026-04-10", "2026-04-11"]


@pytest.mark.django_db
def test_rules_page_refuses_an_impossible_rule_beside_the_field(organiser_client, tournament):
    before = snapshot(*RULE_MODELS)
    form = {
        "top_double": "9",
        "days": "2",
        "games_per_day": "6",
        "first_engine": "9",
        "engine_order": "",
        "max_table_size": "4",
        "hand_sizes": "2-4: 15",
        "double_blank_value": "50",
        "unplayed_counts": "nothing",
        "substitute_ranking": "not_ranked",
    }
    page = organiser_client.post("/organiser/t/spring/rules/", form).content.decode()
    assert "4 players drawing 15 tiles take 60 of the 55 tiles" in page
    assert snapshot(*RULE_MODELS) == before
    form["hand_sizes"] = "2-4: 10"
    assert organiser_client.post("/organiser/t/spring/rules/", form).status_code == 302
    assert fresh(tournament).rules.top_double == 9


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "typed", "words"),
    [
        ("double_blank_value", "40000", "less than or equal to 100"),
        ("hand_sizes", ", ".join(f"{n}: 9" for n in range(1, 5001)), "at most 10 rows"),
    ],
)
def test_rules_page_refuses_an_unbounded_rule_with_a_message(
    organiser_client, tournament, field, typed, words
):
    before = snapshot(*RULE_MODELS)
    form = {
        "top_double": "12",
        "days": "2",
        "games_per_day": "13",
        "first_engine": "12",
        "engine_order": "",
        "max_table_size": "7",
        "hand_sizes": "2-4: 15, 5-6: 12, 7: 10",
        "double_blank_value": "50",
        "unplayed_counts": "nothing",
        "substitute_ranking": "not_ranked",
        field: typed,
    }
    response = organiser_client.post("/organiser/t/spring/rules/", form)
    assert response.status_code == 200
    assert words in response.content.decode()
    assert snapshot(*RULE_MODELS) == before


@pytest.mark.django_db
def test_both_commands_refuse_a_double_blank_over_100(make_tournament):
    make_tournament(slug="sam", preset="good-sam")
    before = snapshot(*RULE_MODELS)
    with pytest.raises(CommandError, match="from 0 to 100 points"):
        call_command("rules", "sam", "--set", "double_blank_value=40000")
    with pytest.raises(CommandError, match="from 0 to 100 points"):
        call_command(
            "new_tournament", "x", "--name", "X", "--rules", "good-sam", "--double-blank", "40000"
        )
    assert snapshot(*RULE_MODELS) == before


@pytest.mark.django_db
def test_rules_page_is_read_only_after_the_first_score(client, make_user):
    boss = make_user("boss", superuser=True)
    w = seated_day(organiser=boss)
    stored_sheet(w.tables[0], w.games[1])
    client.force_login(boss)
    page = client.get("/organiser/t/cup/rules/").content.decode()
    assert "Play has started (day 1 has scores)" in page
    assert "Save the rules" not in page
    before = snapshot(*RULE_MODELS)
    client.post("/organiser/t/cup/rules/", {"games_per_day": "3"})
    assert snapshot(*RULE_MODELS) == before


@pytest.mark.django_db
def test_preset_rows_in_the_database_carry_their_sources():
    assert RulePreset.objects.get(key="puremco-d9").sources["hand_sizes"] == "published"


@pytest.mark.django_db
def test_a_cleared_day_can_be_removed_and_a_reseated_day_plays_the_new_schedule(
    quick_seating, capsys
):
    from tournaments.services.seating import clear_seating, seat_day

    w = seated_day(day_number=2)
    call_command("seat", "cup", "--day", "2", "--clear")
    assert "Day 2's seating is cleared" in capsys.readouterr().out
    change_rules(w.tournament, {"days": 1}, by=COMMAND_LINE)
    assert list(Day.objects.filter(tournament=w.tournament).values_list("number", flat=True)) == [1]
    day1 = Day.objects.get(tournament=w.tournament, number=1)
    seat_day(day1)
    change_rules(w.tournament, {"games_per_day": 3}, by=COMMAND_LINE)
    clear_seating(day1)
    assert not Game.objects.filter(day=day1).exclude(number__lte=3).exists()
    change_rules(w.tournament, {"games_per_day": 5}, by=COMMAND_LINE)
    seat_day(Day.objects.get(pk=day1.pk))
    assert list(Game.objects.filter(day=day1).values_list("scheduled_engine", flat=True)) == [
        12,
        11,
        10,
        9,
        8,
    ]


@pytest.mark.django_db
def test_clearing_a_day_with_scores_is_refused_and_changes_nothing():
    from tournaments.models import Seat, Table
    from tournaments.services.seating import clear_seating

    w = seated_day()
    stored_sheet(w.tables[0], w.games[1])
    before = snapshot(Day, Table, Seat, Game)
    with pytest.raises(ServiceError, match="already has scores"):
        clear_seating(w.day)
    with pytest.raises(CommandError, match="already has scores"):
        call_command("seat", "cup", "--day", "1", "--clear")
    assert snapshot(Day, Table, Seat, Game) == before


@pytest.mark.django_db
def test_the_admin_shows_rules_but_changes_them_only_through_the_rules_page(
    organiser_client, tournament
):
    assert organiser_client.get("/admin/tournaments/tournament/add/").status_code == 403
    page = organiser_client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    assert page.status_code == 200
    assert 'name="rules-0-days"' not in page.content.decode()


# --- the engine set aside before the deal ----------------------------------------------------


@pytest.mark.django_db
def test_rules_command_shows_the_engine_set_aside_with_its_source_and_sets_it(
    make_tournament, capsys
):
    t = make_tournament(slug="d9", preset="puremco-d9")
    call_command("rules", "d9")
    out = capsys.readouterr().out
    assert "Engine set aside before the deal: yes  [seed: from the organisers' rule sheet]" in out
    call_command("rules", "d9", "--set", "engine_set_aside=no")
    out = capsys.readouterr().out
    assert "Rules saved: engine set aside before the deal." in out
    assert "Engine set aside before the deal: no  [event: set for this event]" in out
    assert fresh(t).rules.engine_set_aside is False
    before = snapshot(*RULE_MODELS)
    with pytest.raises(CommandError, match='engine_set_aside: Type "yes" or "no"'):
        call_command("rules", "d9", "--set", "engine_set_aside=perhaps")
    assert snapshot(*RULE_MODELS) == before


def rule_row(page: str, field: str) -> str:
    """A rules-page row as a reader sees it: the layout between the tags does not matter."""
    row = re.search(rf'<tr data-rule="{field}">(.*?)</tr>', page, re.S)
    assert row is not None, field
    return re.sub(r">\s+<", "><", row.group(1).strip())


@pytest.mark.django_db
def test_rules_page_shows_the_engine_set_aside_with_its_source_and_sets_it(
    organiser_client, tournament
):
    page = organiser_client.get("/organiser/t/spring/rules/").content.decode()
    assert rule_row(page, "engine_set_aside") == (
        '<th scope="row">Engine set aside before the deal</th>'
        '<td>no</td><td class="source source-seed">from the organisers&#x27; rule sheet</td>'
    )
    form = {
        **RulesForm.initial_from(fresh(tournament).rules),
        "engine_set_aside": "on",
        "tie_breaks": [],
    }
    form = {name: value for name, value in form.items() if value is not False}
    assert organiser_client.post("/organiser/t/spring/rules/", form).status_code == 302
    assert fresh(tournament).rules.engine_set_aside is True
    page = organiser_client.get("/organiser/t/spring/rules/").content.decode()
    assert rule_row(page, "engine_set_aside").endswith(
        '<td>yes</td><td class="source source-event">set for this event</td>'
    )


@pytest.mark.django_db
def test_the_engine_set_aside_is_fixed_once_play_has_started(client, make_user):
    boss = make_user("boss", superuser=True)
    w = seated_day(slug="d9", preset="puremco-d9", tables=(("A a", "B b"),), organiser=boss)
    stored_sheet(w.tables[0], w.games[1])
    before = snapshot(*RULE_MODELS)
    with pytest.raises(CommandError, match="Play has started"):
        call_command("rules", "d9", "--set", "engine_set_aside=no")
    with pytest.raises(ServiceError, match="Play has started"):
        change_rules(w.tournament, {"engine_set_aside": False}, by=COMMAND_LINE)
    client.force_login(boss)
    form = RulesForm.initial_from(w.tournament.rules)
    client.post("/organiser/t/d9/rules/", {**form, "engine_set_aside": ""})
    assert snapshot(*RULE_MODELS) == before
    assert fresh(w.tournament).rules.engine_set_aside is True


@pytest.mark.django_db(transaction=True)
def test_the_migration_sets_the_engine_aside_where_the_preset_slugs_did_and_for_puremco_d9():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = (
        ("tournaments", "0011_seating_plans"),
        ("tournaments", "0012_engine_set_aside_is_a_rule"),
    )
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    try:
        old = executor.loader.project_state([before]).apps
        presets = {p.key: p for p in old.get_model("tournaments", "RulePreset").objects.all()}
        for key in [*presets, None]:
            tournament = old.get_model("tournaments", "Tournament").objects.create(
                slug=f"old-{key}", name=str(key), preset=presets.get(key)
            )
            old.get_model("tournaments", "RuleSet").objects.create(
                tournament=tournament, hand_sizes=[[2, 7, 12]]
            )
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate([after])
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    aside = dict(RuleSet.objects.values_list("tournament__slug", "engine_set_aside"))
    assert aside == {
        "old-tournament": False,
        "old-club-session": False,
        "old-good-sam": True,
        "old-jib-room": False,
        "old-puremco": True,
        "old-puremco-d9": True,
        "old-None": False,
    }
    stored = {
        p.key: (p.engine_set_aside, p.sources["engine_set_aside"]) for p in RulePreset.objects.all()
    }
    assert stored == {
        r["key"]: (r["engine_set_aside"], r["sources"]["engine_set_aside"]) for r in preset_rows()
    }
