"""Standings per flight (issue 27): a flight's players ranked 1..n among themselves by the same
rules, ties and tie-breaks, in every output (page, public page, projector, PDF, workbook, the
command), each saying which flight it shows; a download of every player adds a section or a
sheet per flight; the same queries whatever the flight."""

import io

import pytest
from command_line import run_from_the_shell
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import load_workbook
from scoring_factories import fresh, stored_sheet
from standings_outputs import every_output
from test_standings_exports import pdf_lines

from standings.pdf import render_standings_pdf
from standings.read import FlightError, requested_standings, standings
from standings.report import standings_report
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry
from tournaments.services.events import set_public_pages
from tournaments.services.rules import change_rules

pytestmark = pytest.mark.django_db

FLIGHTS = ["60-69", "70-79", "80+"]
IN_FLIGHT = {
    "Ann Lee": "60-69",
    "Cy Doe": "60-69",
    "Ed Poe": "60-69",
    "Gus Ray": "60-69",
    "Bob Roe": "70-79",
    "Di Fox": "70-79",
    "Flo Ng": "70-79",
}
# Game 1 at both tables: Ann and Ed go out; Bob and Di tie on 10.
POINTS = {"Ann Lee": 0, "Bob Roe": 10, "Cy Doe": 20, "Di Fox": 10, "Ed Poe": 0, "Flo Ng": 15}
POINTS["Gus Ray"] = 30


def flights_day(w):
    change_rules(w.tournament, {"days": 1, "flights": FLIGHTS}, by=COMMAND_LINE)
    for name, flight in IN_FLIGHT.items():
        Entry.objects.filter(pk=w.entries[name].pk).update(flight=flight)
    for table in w.tables:
        seats = list(table.seats.order_by("position"))
        points = {s.entry: POINTS[s.entry.player.name] for s in seats}
        stored_sheet(table, w.games[1], points, out=seats[0].entry)
    set_public_pages(w.tournament, True)
    return fresh(w.tournament)


def ranked(result) -> list[tuple[str, str, int]]:
    from standings.read import rank_label

    return [(rank_label(row), row.record.name, row.total) for row in result.rows]


def test_a_flight_ranks_its_players_among_themselves(world):
    tournament = flights_day(world)
    overall = standings(tournament)
    assert ranked(overall)[:4] == [
        ("=1", "Ann Lee", 0),
        ("=1", "Ed Poe", 0),
        ("=3", "Bob Roe", 10),
        ("=3", "Di Fox", 10),
    ]
    assert ranked(overall.for_flight("70-79")) == [
        ("=1", "Bob Roe", 10),
        ("=1", "Di Fox", 10),
        ("3", "Flo Ng", 15),
    ]
    assert ranked(overall.for_flight("60-69")) == [
        ("=1", "Ann Lee", 0),
        ("=1", "Ed Poe", 0),
        ("3", "Cy Doe", 20),
        ("4", "Gus Ray", 30),
    ]
    assert overall.for_flight("80+").rows == []
    # The flight's clubs are its own players' clubs: none here.
    assert overall.for_flight("70-79").clubs == []
    flight = requested_standings(fresh(tournament), {"flight": "70-79"})
    assert ranked(flight) == ranked(overall.for_flight("70-79"))
    assert requested_standings(fresh(tournament), {"flight": " 80+ "}).flight == "80+"


def test_every_output_shows_the_flight_asked_for(world, client):
    tournament = flights_day(world)
    client.force_login(world.boss)
    shown = every_output(tournament, client, "70-79")
    wanted = {"Bob Roe": "=1", "Di Fox": "=1", "Flo Ng": "3"}
    for output, seen in shown.items():
        assert seen.heading == "Standings \u00b7 Flight 70-79", output
        if output != "workbook":  # its text is the sheet's cells; its heading says the flight
            assert "Flight 70-79" in seen.text, output
        assert seen.ranks == wanted, output
        if output != "pdf":  # the PDF's reader gives ranks only
            assert seen.totals == {"Bob Roe": "10", "Di Fox": "10", "Flo Ng": "15"}, output


def test_every_player_first_then_each_flight_in_the_pdf_and_the_workbook(world):
    tournament = flights_day(world)
    result = standings(tournament)
    lines = [" ".join(line) for line in pdf_lines(render_standings_pdf(result))]
    sections = [i for i, line in enumerate(lines) if line.startswith("Flight ")]
    assert [lines[i] for i in sections] == [
        "Flight 60-69 standings",
        "Flight 70-79 standings",
        "Flight 80+ standings",
    ]
    flight_70 = lines[sections[1] : sections[2]]
    assert any(line.startswith("=1 2 Bob Roe") for line in flight_70), flight_70
    assert any(line.startswith("3 6 Flo Ng") for line in flight_70), flight_70
    assert "No player in this flight yet." in lines[sections[2] :]

    book = load_workbook(io.BytesIO(standings_report(result).as_xlsx()))
    assert book.sheetnames[:4] == ["Standings", "Flight 60-69", "Flight 70-79", "Flight 80+"]
    rows = list(book["Flight 70-79"].iter_rows(values_only=True))
    header = rows[0]
    assert [(r[header.index("Rank")], r[header.index("Player")]) for r in rows[1:]] == [
        (1, "Bob Roe"),
        (1, "Di Fox"),
        (3, "Flo Ng"),
    ]
    # One flight's download holds that flight only, and its name says so.
    flight = requested_standings(tournament, {"flight": "80+"})
    report = standings_report(flight)
    assert report.name == "cup-standings-flight-80-plus"
    assert "Flight" not in " ".join(load_workbook(io.BytesIO(report.as_xlsx())).sheetnames)


def test_an_event_without_flights_shows_no_flight_choice(world, client):
    set_public_pages(world.tournament, True)
    page = client.get(f"/t/{world.tournament.slug}/standings/").content.decode()
    assert 'name="flight"' not in page
    assert standings_report(standings(fresh(world.tournament))).name == "cup-standings"


def test_the_page_offers_each_flight_and_keeps_the_search_and_sort(world, client):
    tournament = flights_day(world)
    page = client.get(
        f"/t/{tournament.slug}/standings/", {"flight": "70-79", "q": "Roe", "sort": "name"}
    ).content.decode()
    assert '<option value="" >All players</option>' in page
    assert '<option value="70-79" selected>Flight 70-79</option>' in page
    assert 'name="q"' in page and 'value="Roe"' in page
    assert '<input type="hidden" name="sort" value="name">' in page
    assert "standings.pdf?flight=70-79" in page and "standings.xlsx?flight=70-79" in page
    assert "Clubs \u00b7 Flight 70-79" in page
    unknown = client.get(f"/t/{tournament.slug}/standings/", {"flight": "90+"})
    assert unknown.status_code == 400
    assert unknown.content.decode() == (
        'There is no flight "90+": this event\'s flights are 60-69, 70-79, 80+.'
    )


def test_a_flight_costs_no_extra_query(world, django_assert_num_queries):
    tournament = flights_day(world)
    with django_assert_num_queries(3):
        standings(tournament)
    tournament = fresh(tournament)
    with django_assert_num_queries(3):
        requested_standings(tournament, {"flight": "70-79", "after_day": ""})
    result = standings(tournament)
    with django_assert_num_queries(0):
        [result.for_flight(flight) for flight in FLIGHTS]


def test_the_command_prints_a_flight_and_refuses_an_unknown_one(world):
    tournament = flights_day(world)
    out = io.StringIO()
    call_command("standings", tournament.slug, "--flight", "70-79", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Cup: Standings \u00b7 Flight 70-79"
    assert "Flo Ng" in out.getvalue() and "Ann Lee" not in out.getvalue()
    with pytest.raises(CommandError) as refused:
        call_command("standings", tournament.slug, "--flight", "90+", stdout=io.StringIO())
    assert str(refused.value) == (
        'There is no flight "90+": this event\'s flights are 60-69, 70-79, 80+.'
    )
    with pytest.raises(FlightError):
        requested_standings(tournament, {"flight": "Gold"})


@pytest.mark.django_db(transaction=True)  # see run_from_the_shell
def test_the_commands_exit_codes(capsys):
    from scoring_factories import seated_day

    w = seated_day()
    tournament = flights_day(w)
    run_from_the_shell("standings", tournament.slug, "--flight", "70-79")  # exit 0: no raise
    assert "Flight 70-79" in capsys.readouterr().out
    with pytest.raises(SystemExit) as ended:
        run_from_the_shell("standings", tournament.slug, "--flight", "90+")
    assert ended.value.code == 1
    assert "60-69, 70-79, 80+" in capsys.readouterr().err


def test_a_flight_with_no_flights_defined_names_none(world):
    with pytest.raises(FlightError, match="this event's flights are none"):
        requested_standings(fresh(world.tournament), {"flight": "70-79"})
    assert requested_standings(fresh(world.tournament), {"flight": ""}).flight == ""


def test_every_players_outputs_rank_every_player_whatever_the_flight_sections(world, client):
    tournament = flights_day(world)
    client.force_login(world.boss)
    wanted = {name: rank for rank, name, _ in ranked(standings(tournament))}
    for output, seen in every_output(tournament, client).items():
        assert seen.heading == "Standings", output
        assert seen.ranks == wanted, output
