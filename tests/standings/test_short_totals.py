"""A short total is marked in every output (issue 23): under "a game not played counts
nothing", a player whose table did not play a game ranks among players with one game more, and
every output says so beside the total, not only in the Games column."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from django.utils import timezone
from openpyxl import load_workbook
from scoring_factories import fresh, stored_sheet
from standings_outputs import every_output

from domain.ranking import PlayerRecord, mark_short_totals, rank_players
from scoring.unplayed import mark_not_played
from standings.read import SHORT_LEGEND, SHORT_LEGEND_BRIEF, standings
from tournaments.access import COMMAND_LINE
from tournaments.models import Day
from tournaments.services.events import set_public_pages
from tournaments.services.rules import change_rules

pytestmark = pytest.mark.django_db

TABLE_1 = ("Ann Lee", "Bob Roe", "Cy Doe", "Di Fox")
TABLE_2 = ("Ed Poe", "Flo Ng", "Gus Ray")


def game_6_not_played_at_table_1(w, unplayed_counts="nothing"):
    """Six games a day; table 1 did not play game 6; every other game is confirmed."""
    change_rules(w.tournament, {"days": 1, "unplayed_counts": unplayed_counts}, by=COMMAND_LINE)
    for table in w.tables:
        seats = list(table.seats.order_by("position"))
        for number in range(1, 7):
            if table == w.tables[0] and number == 6:
                continue
            points = {s.entry: (0 if i == 0 else 10 * i + number) for i, s in enumerate(seats)}
            stored_sheet(table, w.games[number], points, out=seats[0].entry)
    mark_not_played(w.tables[0], w.games[6], reason="time ran out", user=w.desk)
    Day.objects.filter(pk=w.day.pk).update(closed_at=timezone.now())
    set_public_pages(w.tournament, True)
    return fresh(w.tournament)


def workbook_notes(tournament) -> dict[str, tuple]:
    data = Client().get(f"/t/{tournament.slug}/standings.xlsx").content
    rows = list(load_workbook(io.BytesIO(data))["Standings"].iter_rows(values_only=True))
    header = rows[0]
    at = {name: header.index(name) for name in ("Player", "Total", "Note")}
    return {r[at["Player"]]: (r[at["Total"]], r[at["Note"]]) for r in rows[1:]}


def test_a_total_a_game_short_is_marked_in_every_output(world, client):
    tournament = game_6_not_played_at_table_1(world)
    client.force_login(world.boss)
    shown = every_output(tournament, client)
    bob = 11 + 12 + 13 + 14 + 15
    for output, seen in shown.items():
        if output == "workbook":  # its totals stay numbers: the Note column says it (below)
            continue
        # The projector's footer has one line: its legend is the brief one.
        assert (SHORT_LEGEND_BRIEF if output == "projector" else SHORT_LEGEND) in seen.text, output
        if output == "pdf":
            assert f"Bob Roe {bob} {bob}*" in seen.text  # the day column, then the total
            continue
        assert all(seen.totals[name].endswith("*") for name in TABLE_1), output
        assert seen.totals["Bob Roe"] == f"{bob}*", output
        assert not any(seen.totals[name].endswith("*") for name in TABLE_2), output
    notes = workbook_notes(tournament)
    assert notes["Bob Roe"] == (bob, "5 of 6 games")
    assert notes["Flo Ng"] == (81, None)
    player = client.get(f"/t/{tournament.slug}/player/2/").content.decode()
    assert "5 of 6 games counted: fewer than the others" in player
    player = client.get(f"/t/{tournament.slug}/player/6/").content.decode()
    assert "6 games counted" in player and "of 6 games" not in player


def test_under_the_average_rule_a_game_not_played_counts_and_no_total_is_short(world, client):
    tournament = game_6_not_played_at_table_1(world, unplayed_counts="average")
    client.force_login(world.boss)
    for output, seen in every_output(tournament, client).items():
        assert SHORT_LEGEND not in seen.text and SHORT_LEGEND_BRIEF not in seen.text, output
        assert not any(total.endswith("*") for total in seen.totals.values()), output
    assert not any(note for _, note in workbook_notes(tournament).values())


def test_with_every_total_over_the_same_games_nothing_is_marked(world):
    change_rules(world.tournament, {"days": 1}, by=COMMAND_LINE)
    for table in world.tables:
        seats = list(table.seats.order_by("position"))
        points = {s.entry: 0 if i == 0 else 5 for i, s in enumerate(seats)}
        stored_sheet(table, world.games[1], points, out=seats[0].entry)
    result = standings(fresh(world.tournament))
    assert [row.short_of for row in result.rows] == [0] * 7


def record(entry_id: int, games: int) -> PlayerRecord:
    return PlayerRecord(entry_id, entry_id, f"P{entry_id}", "", (games * 10,), games, 0, 10)


def test_a_total_is_short_of_the_most_games_counted_with_credited_games_counting():
    rows = rank_players([record(1, 12), record(2, 11), record(3, 11), record(4, 0)])
    mark_short_totals(rows, {3: 1})
    assert {row.record.entry_id: row.short_of for row in rows} == {1: 0, 2: 12, 3: 0, 4: 12}
    mark_short_totals([], {})  # nobody: nothing to mark
