"""A table gone quiet, on the desk's grid and the day board: measured from the event's own games,
marked for the desk and for nobody else, and never on a closed day."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from scoring_factories import client_for, seated_day, staff, stored_sheet

from scoring.day_board import day_board
from scoring.models import SheetState, Source
from scoring.selectors import day_grid
from scoring.services import close_day

pytestmark = pytest.mark.django_db

FIVE_TABLES = tuple(tuple(f"P{t}{i} Lee" for i in range(4)) for t in range(1, 6))


def _room(*, paper_table_five=False, organiser=None):
    """Five tables of a day: 1 to 3 enter a game every 20 minutes from their phones, the last 10
    minutes ago; 4 has entered nothing; 5 entered its first game an hour ago and nothing since."""
    world = seated_day(tables=FIVE_TABLES, organiser=organiser)
    now = timezone.now()
    minutes = timedelta(minutes=1)
    for table in world.tables[:3]:
        for number, ago in ((1, 50), (2, 30), (3, 10)):
            stored_sheet(
                table,
                world.games[number],
                state=SheetState.ENTERED,
                source=Source.TABLE_LINK,
                entered_at=now - ago * minutes,
            )
    stored_sheet(
        world.tables[4],
        world.games[1],
        state=SheetState.ENTERED,
        source=Source.DESK if paper_table_five else Source.TABLE_LINK,
        entered_at=now - 60 * minutes,
    )
    return world


def _quiet_numbers(grid):
    return sorted(row["table"].number for row in grid["rows"] if row["quiet"])


def test_the_tables_whose_next_game_is_overdue_are_marked_with_why():
    world = _room()
    grid = day_grid(world.day)
    assert _quiet_numbers(grid) == [4, 5]
    words = {row["table"].number: row["quiet"].words for row in grid["rows"] if row["quiet"]}
    assert words[4] == "No game entered yet; a game usually takes 20 minutes"
    since = timezone.localtime(world.tables[4].sheets.get().entered_at).strftime("%H:%M")
    assert words[5] == f"Nothing entered since {since}; a game usually takes 20 minutes"
    board = day_board(world.day)
    assert [tile.number for tile in board.quiet] == [4, 5]
    assert board.version.split(";")[3].endswith("q") and not board.version.split(";")[0].endswith(
        "q"
    )


def test_a_table_keyed_from_paper_at_the_desk_is_not_marked():
    world = _room(paper_table_five=True)
    assert _quiet_numbers(day_grid(world.day)) == [4]


def test_nothing_is_quiet_on_a_closed_day_or_before_the_event_has_a_usual_time(organiser):
    world = _room(organiser=organiser)
    close_day(world.day, organiser)
    world.day.refresh_from_db()
    assert _quiet_numbers(day_grid(world.day)) == []
    assert day_board(world.day).quiet == []

    early = seated_day(slug="early", tables=FIVE_TABLES)
    stored_sheet(
        early.tables[0],
        early.games[1],
        state=SheetState.ENTERED,
        source=Source.TABLE_LINK,
        entered_at=timezone.now() - timedelta(hours=3),
    )
    assert _quiet_numbers(day_grid(early.day)) == []


def test_the_desk_sees_the_marks_on_both_pages_and_the_public_pages_never():
    world = _room()
    desk = client_for(staff(world.tournament, "desk"))
    slug = world.tournament.slug
    grid = desk.get(reverse("organiser:scores_day", args=[slug, 1])).content.decode()
    assert "Gone quiet:</strong> 2 tables whose next game is overdue" in grid
    assert grid.count('class="quiet-mark"') == 2
    board = desk.get(reverse("organiser:day_board", args=[slug, 1])).content.decode()
    assert 'href="#tile-4">table 4</a>' in board and 'href="#tile-5">table 5</a>' in board
    assert board.count("tile-quiet") == 2
    public = Client().get(f"/{slug}/").content.decode()
    assert "quiet" not in public.lower()
