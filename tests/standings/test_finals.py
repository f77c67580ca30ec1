"""A final (championship round, issue 27): the rule through the rules service, seating the
final through the service and the ``final`` command (each refusal with its reason and nothing
changed), and the standings with the final first in every output."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from scoring_factories import fresh, seated_day, snapshot, stored_sheet
from standings_outputs import every_output

from core.errors import ServiceError
from scoring.models import Game
from standings.finals import draw_final, seat_final
from standings.read import rank_label, standings
from tournaments.access import COMMAND_LINE
from tournaments.models import Day, Seat, Table
from tournaments.services.events import set_public_pages
from tournaments.services.rules import RuleProblems, change_rules
from tournaments.services.seating import seat_day

pytestmark = pytest.mark.django_db

TABLES = (
    ("Ann Lee", "Bob Roe", "Cy Doe", "Di Fox"),
    ("Ed Poe", "Flo Ng", "Gus Ray", "Hal Oz"),
)
# Each player's points in every game of day 1 (6 games): totals 6 times these.
DAY_ONE = {
    "Ann Lee": 1,
    "Bob Roe": 5,
    "Cy Doe": 3,
    "Di Fox": 8,
    "Ed Poe": 2,
    "Flo Ng": 4,
    "Gus Ray": 9,
    "Hal Oz": 7,
}


def event(slug="cup", **final):
    w = seated_day(slug=slug, tables=TABLES)
    rules = {"final_qualify": "overall", "final_qualifiers": 4, "final_tables": 1} | final
    change_rules(w.tournament, rules, by=COMMAND_LINE)
    w.tournament = fresh(w.tournament)
    return w


def play(tables, day, points):
    """Every game of ``day`` at every table, with ``points`` {name: per game}; the first
    lowest at each table is entered as going out only when they scored 0 (else blocked)."""
    for game in Game.objects.filter(day=day).order_by("number"):
        for table in tables:
            seats = list(table.seats.select_related("entry__player"))
            scores = {s.entry: points[s.entry.player.name] for s in seats}
            stored_sheet(table, game, scores, out=None)


def qualifying_played(w):
    play(w.tables, w.day, DAY_ONE)
    return fresh(w.tournament)


def names(members) -> list[str]:
    return [e.player.name for e in members]


def test_best_four_overall_qualify_with_their_reasons():
    w = event()
    tournament = qualifying_played(w)
    draw, outcome = seat_final(tournament)
    assert [q.name for q in draw.qualifying.qualifiers] == ["Ann Lee", "Ed Poe", "Cy Doe", "Flo Ng"]
    assert [q.reason for q in draw.qualifying.qualifiers] == [
        "1st overall (6)",
        "2nd overall (12)",
        "3rd overall (18)",
        "4th overall (24)",
    ]
    assert [names(t) for t in outcome.tables] == [["Ann Lee", "Ed Poe", "Cy Doe", "Flo Ng"]]
    final_day = Day.objects.get(tournament=tournament, number=2)
    assert set(Seat.objects.filter(day=final_day).values_list("entry__player__name", flat=True)) == {
        "Ann Lee",
        "Ed Poe",
        "Cy Doe",
        "Flo Ng",
    }
