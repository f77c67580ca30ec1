"""scoring.table_reads reads a table in SQL written once: what it gives must be what the ORM
gives, field for field (SQLite's text datetimes, booleans, JSON rules), related objects
attached, and no query when they are used."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from scoring_factories import seated_day

from scoring import table_reads
from scoring.models import Game, GameSheet, Score, SheetState, Source, UnplayedGame
from tournaments.models import Seat, Table

pytestmark = pytest.mark.django_db


def values(instance):
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.fixture
def world():
    w = seated_day()
    table = w.tables[0]
    w.table = table
    w.day.closed_at = None
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    now = timezone.now()
    sheet = GameSheet.objects.create(
        table=table,
        game=w.games[1],
        version=1,
        state=SheetState.CONFIRMED,
        engine_used=w.games[1].scheduled_engine,
        went_out_id=seats[0].entry_id,
        blocked=False,
        source=Source.DESK,
        entered_at=now,
        confirmed_at=now,
    )
    Score.objects.bulk_create(
        Score(sheet=sheet, entry_id=s.entry_id, points=i * 3, tiles="") for i, s in enumerate(seats)
    )
    UnplayedGame.objects.create(
        table=table, game=w.games[2], reason="time ran out", marked_by_label="Desk", marked_at=now
    )
    w.sheet = sheet
    return w


def test_a_table_with_its_rules_is_the_orms_and_needs_no_further_query(world):
    expected = Table.objects.select_related("day__tournament__rules").get(pk=world.table.pk)
    for which, args in (
        ("link", [expected.link_token]),
        ("code", [expected.code]),
        ("number", [world.tournament.pk, world.day.number, expected.number]),
    ):
        table = table_reads.table_with_rules(which, *args)
        with CaptureQueriesContext(connection) as captured:
            assert values(table) == values(expected)
            assert values(table.day) == values(expected.day)
            assert values(table.day.tournament) == values(expected.day.tournament)
            assert values(table.day.tournament.rules) == values(expected.day.tournament.rules)
            assert table.day.tournament.rules.tournament is table.day.tournament
        assert len(captured) == 0, [q["sql"] for q in captured]
        assert table._state.adding is False and table._state.db == "default"
    assert table_reads.table_with_rules("link", "no-such-link") is None


def test_games_seats_sheets_marks_and_scores_are_the_orms(world):
    table = world.table
    games = list(Game.objects.filter(day=world.day).order_by("number"))
    assert [values(g) for g in table_reads.day_games(world.day.pk)] == [values(g) for g in games]
    seats = table_reads.table_seats(table.pk)
    expected = list(
        Seat.objects.filter(table=table).select_related("entry__player").order_by("position")
    )
    with CaptureQueriesContext(connection) as captured:
        assert [values(s) for s in seats] == [values(s) for s in expected]
        assert [values(s.entry) for s in seats] == [values(s.entry) for s in expected]
        assert [values(s.entry.player) for s in seats] == [values(s.entry.player) for s in expected]
    assert len(captured) == 0
    sheets = table_reads.table_sheets(table.pk)
    assert [values(s) for s in sheets] == [values(world.sheet)]
    assert isinstance(sheets[0].confirmed_at, type(world.sheet.confirmed_at))
    assert sheets[0].blocked is False
    marks = table_reads.unplayed_marks(table.pk)
    assert [values(m) for m in marks] == [values(UnplayedGame.objects.get())]
    scores = table_reads.sheet_scores([world.sheet.pk])
    assert [values(s) for s in scores] == [
        values(s) for s in Score.objects.filter(sheet=world.sheet).order_by("entry_id")
    ]


def test_the_lock_reads_each_tables_link_and_day(world):
    other = world.tables[1] if len(world.tables) > 1 else world.table
    locked = table_reads.lock_tables([other.pk, world.table.pk])
    assert [pk for pk, _token, _day in locked] == sorted({other.pk, world.table.pk})
    for pk, token, day in locked:
        table = Table.objects.select_related("day").get(pk=pk)
        assert token == table.link_token
        assert values(day) == values(table.day)
