import datetime
import json
import re

import pytest
from command_line import run_from_the_shell
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction
from django.utils import timezone
from scoring_factories import seated_day, stored_sheet

from core.errors import ServiceError
from domain.sheet_checks import SheetRules, TypedSheet, check_game
from scoring.models import AuditEvent, Game, Score, SheetState, Source
from tournaments.models import KeepApart, RulePreset, Seat, Table, Tournament

pytestmark = pytest.mark.django_db

BRIEF_PRESETS = {
    # key: (top double, days, games, first engine, lowest engine, max table, blank, reshuffle)
    "tournament": (12, 2, 6, 12, 7, 7, 50, True),
    "club-session": (12, 1, 12, 12, 1, 7, 50, False),
    "good-sam": (12, 1, 10, 9, 0, 6, 0, False),
    "jib-room": (12, 1, 13, 12, 0, 8, 0, False),
    "puremco": (12, 1, 13, 12, 0, 8, 0, False),
}


@pytest.mark.parametrize("key", sorted(BRIEF_PRESETS))
def test_presets_exist_after_migrate_with_the_brief_values(key):
    preset = RulePreset.objects.get(key=key)
    top, days, games, first, lowest, table, blank, reshuffle = BRIEF_PRESETS[key]
    assert (preset.top_double, preset.days, preset.games_per_day, preset.first_engine) == (
        top,
        days,
        games,
        first,
    )
    assert preset.lowest_engine == lowest
    assert (preset.max_table_size, preset.double_blank_value) == (table, blank)
    assert preset.reshuffle_each_day is reshuffle


def test_hand_sizes_follow_the_rule_sheets():
    jib = RulePreset.objects.get(key="jib-room")
    assert [jib.hand_size(n) for n in (2, 4, 5, 6, 7, 8)] == [15, 15, 12, 12, 11, 11]
    assert RulePreset.objects.get(key="tournament").hand_size(7) == 12
    assert RulePreset.objects.get(key="good-sam").hand_size(6) == 12


def test_tournament_schedule_runs_double_12_down_to_7(make_tournament):
    tournament = make_tournament(preset="tournament")
    assert tournament.rules.scheduled_engines() == [12, 11, 10, 9, 8, 7]
    assert tournament.days.count() == 2


def test_new_tournament_command_prints_slug(capsys):
    call_command(
        "new_tournament",
        "fall-rally",
        "--name",
        "Fall Rally",
        "--rules",
        "good-sam",
        "--start-date",
        "2026-10-02",
    )
    assert capsys.readouterr().out.strip() == "fall-rally"
    tournament = Tournament.objects.get(slug="fall-rally")
    assert tournament.rules.games_per_day == 10 and tournament.rules.double_blank_value == 0
    assert tournament.start_date == datetime.date(2026, 10, 2)


@pytest.mark.parametrize(
    "args, message",
    [
        (["x1", "--name", "X", "--rules", "chicken-foot"], 'no rule preset called "chicken-foot"'),
        (
            ["x2", "--name", "X", "--rules", "tournament", "--start-date", "14/03/2026"],
            "not a date",
        ),
        (["spring open 2027", "--name", "X", "--rules", "tournament"], "cannot be part of a web"),
        (["spring/open", "--name", "X", "--rules", "tournament"], "letters, digits and hyphens"),
        (["open--day", "--name", "X", "--rules", "tournament"], "letters, digits and hyphens"),
        (["a" * 51, "--name", "X", "--rules", "tournament"], "longer than 50 characters"),
    ],
)
def test_new_tournament_refuses_bad_input(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("new_tournament", *args)
    assert not Tournament.objects.exists()


def test_a_refused_slug_leaves_the_home_page_working(client):
    from tournaments.services.events import create_tournament

    with pytest.raises(ServiceError, match="cannot be part of a web address") as refused:
        create_tournament(slug="spring open 2027", name="Spring", preset_key="tournament")
    assert refused.value.field == "slug"
    assert not Tournament.objects.exists()
    assert client.get("/").status_code == 200


def test_new_tournament_refuses_taken_slug(make_tournament):
    make_tournament(slug="taken")
    with pytest.raises(CommandError, match='"taken" cannot be used for a new tournament'):
        call_command("new_tournament", "taken", "--name", "Again", "--rules", "tournament")
    assert Tournament.objects.count() == 1


@pytest.mark.django_db(transaction=True)  # see run_from_the_shell
def test_new_tournament_exit_code_is_1(capsys):
    with pytest.raises(SystemExit) as exit_status:
        run_from_the_shell("new_tournament", "x", "--name", "X", "--rules", "nope")
    assert exit_status.value.code == 1
    assert 'no rule preset called "nope"' in capsys.readouterr().err
    assert not Tournament.objects.exists()


def one_table():
    """One table of three on day 1 with its games scheduled: the rows the constraints are tried
    on. Game 1's engine is the double 12."""
    world = seated_day(slug="spring", tables=(("Player 1", "Player 2", "Player 3"),))
    entries = list(world.entries.values())
    return world.tournament, world.day, world.tables[0], entries, world.games[1]


def test_database_refuses_a_player_seated_twice_in_one_day():
    _tournament, day, _table, entries, _game = one_table()
    other_table = Table.objects.create(day=day, number=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(day=day, table=other_table, entry=entries[0], position=1)


def test_database_refuses_two_rows_for_one_player_in_one_game():
    _tournament, _day, table, entries, game = one_table()
    sheet = stored_sheet(table, game, out=entries[0])
    Score.objects.create(sheet=sheet, entry=entries[1], points=10)
    with pytest.raises(IntegrityError), transaction.atomic():
        Score.objects.create(sheet=sheet, entry=entries[1], points=12)


def test_database_refuses_a_second_live_sheet_for_one_table_and_game():
    _tournament, _day, table, entries, game = one_table()
    now = timezone.now()
    stored_sheet(table, game, out=entries[0], state=SheetState.CONFIRMED, confirmed_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        stored_sheet(
            table, game, out=entries[1], version=2, state=SheetState.CONFIRMED, confirmed_at=now
        )
    # A superseded version beside the confirmed one is how history is kept.
    stored_sheet(table, game, out=entries[1], version=2, state=SheetState.SUPERSEDED)


def test_database_refuses_same_version_twice_and_engine_reuse():
    _tournament, day, table, entries, game = one_table()
    stored_sheet(table, game, out=entries[0], state=SheetState.SUPERSEDED)
    with pytest.raises(IntegrityError), transaction.atomic():
        stored_sheet(table, game, out=entries[0], state=SheetState.ENTERED)
    game2 = Game.objects.get(day=day, number=2)
    stored_sheet(table, game, out=entries[0], version=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        stored_sheet(table, game2, out=entries[0], engine_used=12)


def test_database_refuses_out_and_blocked_together_and_negative_scores():
    _tournament, _day, table, entries, game = one_table()
    with pytest.raises(IntegrityError), transaction.atomic():
        stored_sheet(table, game, out=entries[0], blocked=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        stored_sheet(table, game, out=None, blocked=False)
    sheet = stored_sheet(table, game, out=entries[0])
    with pytest.raises(IntegrityError), transaction.atomic():
        Score.objects.create(sheet=sheet, entry=entries[1], points=-3)


def test_keep_apart_pairs_are_stored_once_in_order():
    tournament, _day, _table, entries, _game = one_table()
    low, high = sorted(entries[:2], key=lambda e: e.pk)
    KeepApart.objects.create(tournament=tournament, first=low, second=high)
    with pytest.raises(IntegrityError), transaction.atomic():
        KeepApart.objects.create(tournament=tournament, first=high, second=low)


def test_audit_events_are_append_only():
    _tournament, _day, table, entries, game = one_table()
    sheet = stored_sheet(table, game, out=entries[0])
    event = AuditEvent.objects.create(
        sheet=sheet,
        table=table,
        game=game,
        action="entered",
        source=Source.DESK,
        actor_label="desk",
        at=timezone.now(),
    )
    event.reason = "rewrite history"
    with pytest.raises(Exception, match="cannot be changed"):
        event.save()
    with pytest.raises(Exception, match="cannot be deleted"):
        event.delete()


def test_demo_tournament_is_complete_and_passes_every_check(demo_tournament):
    from scoring.demo import demo_data

    data = demo_data()
    assert demo_tournament.entries.count() == 43
    rules = demo_tournament.rules
    sheet_rules = SheetRules(
        top_double=rules.top_double,
        double_blank_value=rules.double_blank_value,
        highest_engine=rules.first_engine,
        lowest_engine=rules.lowest_engine,
    )
    for day in demo_tournament.days.all():
        sizes = sorted((t.seats.count() for t in day.tables.all()), reverse=True)
        assert sizes == [7, 6, 6, 6, 6, 6, 6]
        for table in day.tables.all():
            seated = {
                s.entry_id: s.entry.player.name for s in table.seats.select_related("entry__player")
            }
            used = []
            for sheet in table.sheets.filter(state=SheetState.CONFIRMED).order_by("game__number"):
                typed = TypedSheet(
                    game_number=sheet.game.number,
                    engine=sheet.engine_used,
                    scores={s.entry_id: s.points for s in sheet.scores.all()},
                    went_out=sheet.went_out_id,
                    blocked=sheet.blocked,
                )
                _clean, problems = check_game(sheet_rules, seated, typed, used)
                assert problems == [], (day.number, table.number, problems)
                used.append(sheet.engine_used)
            assert len(used) == 6
    assert [(d.repeat_pairs, d.repeat_lower_bound) for d in demo_tournament.days.all()] == [
        (0, 0),
        (0, 0),
    ]
    # Day two deals day one's tables apart: nobody meets a day-one table-mate again.
    day1 = {frozenset(t) for t in data["days"][0]["tables"]}
    for table in data["days"][1]["tables"]:
        for old in day1:
            assert len(old & set(table)) <= 1
    assert json.dumps(data)  # the fixture is plain JSON


def test_load_demo_command_loads_once_and_creates_the_login(capsys, settings):
    settings.DEBUG = True  # the venue laptop and `make run`
    call_command("load_demo")
    call_command("load_demo")
    out = capsys.readouterr().out
    assert "Loaded the demo tournament" in out and "was not loaded" in out
    assert Tournament.objects.count() == 1


def test_load_demo_is_refused_without_debug_and_creates_nothing(settings, capsys):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DJANGO_DEBUG is off"):
        call_command("load_demo")
    assert not Tournament.objects.exists()
    assert not get_user_model().objects.exists()


def test_load_demo_without_debug_when_told_prints_a_random_password(settings, capsys, client):
    from scoring.management.commands.load_demo import DEMO_PASSWORD, DEMO_USERNAME

    settings.DEBUG = False
    call_command("load_demo", "--allow-without-debug")
    out = capsys.readouterr().out
    password = re.search(rf"{DEMO_USERNAME} / (\S+)", out).group(1)
    assert password != DEMO_PASSWORD and len(password) >= 12
    user = get_user_model().objects.get(username=DEMO_USERNAME)
    assert user.check_password(password) and not user.check_password(DEMO_PASSWORD)


def test_the_demo_login_organises_the_demo_event_only(capsys, client, make_tournament, settings):
    from scoring.management.commands.load_demo import DEMO_PASSWORD, DEMO_USERNAME
    from tournaments.access import role_in

    settings.DEBUG = True
    call_command("load_demo")
    user = get_user_model().objects.get(username=DEMO_USERNAME)
    assert not user.is_superuser and not user.is_staff
    demo = Tournament.objects.get()
    other = make_tournament(slug="private-one")
    other.public_pages = False
    other.save()
    assert role_in(user, demo) == "organiser"
    assert role_in(user, other) is None
    assert client.login(username=DEMO_USERNAME, password=DEMO_PASSWORD)
    assert client.get(f"/organiser/t/{demo.slug}/").status_code == 200
    assert client.get("/organiser/t/private-one/").status_code == 404
    assert client.get("/admin/").status_code == 302  # the admin site sends it to its login
