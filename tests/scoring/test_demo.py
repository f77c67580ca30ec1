"""The demo a test asks for (``demo_tournament``, ``make_demo``) is the event load_demo makes:
played once per test process and copied into each test (tests/demo_copy.py)."""

import datetime

import pytest
from demo_copy import MOMENT, capture_demo, copy_demo
from django.utils import timezone

from scoring.demo import demo_data, load_demo
from scoring.models import AuditEvent
from tournaments.models import RulePreset, StaffRole, Table
from tournaments.presets import store_presets

pytestmark = pytest.mark.django_db

# Drawn at random for each table whenever a day is seated, so two plays differ there.
RANDOM_COLUMNS = {(Table, "link_token"), (Table, "code")}


def comparable(snapshot):
    """Every row the demo wrote, table by table, without the clock's and the random columns."""
    return {
        rows.model._meta.label: [
            tuple(
                value
                for column, kind, value in zip(rows.columns, rows.kinds, row, strict=True)
                if kind != MOMENT and (rows.model, column) not in RANDOM_COLUMNS
            )
            for row in rows.values
        ]
        for rows in snapshot.tables
    }


def test_a_copy_of_the_demo_holds_every_row_load_demo_writes(demo_snapshot):
    # Both are played the way demo_snapshot was, ids and all, each inside a rollback.
    played = capture_demo(load_demo)
    copied = capture_demo(lambda organiser: copy_demo(demo_snapshot, organiser))
    assert comparable(copied) == comparable(played)
    assert sum(len(rows.values) for rows in played.tables) > 800  # 43 players, three days


def test_a_copy_is_organised_by_the_tests_organiser_and_played_just_now(make_user, make_demo):
    boss = make_user("boss", superuser=True)
    tournament = make_demo(boss)
    assert StaffRole.objects.get(tournament=tournament, role=StaffRole.ORGANISER).user == boss
    events = AuditEvent.objects.filter(table__day__tournament=tournament)
    assert {(event.actor, event.actor_label) for event in events} == {(boss, "boss")}
    assert timezone.now() - max(event.at for event in events) < datetime.timedelta(minutes=1)


def test_a_copy_links_to_the_rule_preset_stored_now(organiser, make_demo):
    # What a transactional test's flush leaves: the presets stored anew, under other ids.
    RulePreset.objects.all().delete()
    store_presets(RulePreset)
    tournament = make_demo(organiser)
    assert tournament.preset == RulePreset.objects.get(key=demo_data()["tournament"]["preset"])
