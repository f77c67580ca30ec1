"""Flights (issue 27): the event defines them as a rule, each entry holds one (the entry's, so a
new season's age group rewrites no history), and every refusal names the field and the reason
and changes nothing: a flight the event does not have, a flight taken away while players hold
it, a change once play has started."""

import pytest
from scoring_factories import (
    ROSTER_MODELS,
    csv_bytes,
    fresh,
    organiser_url,
    seated_day,
    snapshot,
    stored_sheet,
)

from core.errors import ServiceError
from domain.flights import age_range, flight_for_age, flight_problems, parse_flights
from domain.rules import parse_rule
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, RuleSet
from tournaments.presenters import rule_rows
from tournaments.services.importing import ImportRefused, import_players
from tournaments.services.registration import register_player, update_entry
from tournaments.services.rules import RuleProblems, change_rules

pytestmark = pytest.mark.django_db

AGES = ["50-59", "60-69", "70-79", "80+"]


def with_flights(tournament, flights=AGES):
    change_rules(tournament, {"flights": list(flights)}, by=COMMAND_LINE)
    return fresh(tournament)


def edit(entry, user, **changes):
    details = {
        "name": entry.player.name,
        "club": entry.club,
        "contact": entry.contact,
        "pinned_table": entry.pinned_table,
    }
    return update_entry(entry, **details | changes, user=user)


def flights_held(tournament) -> dict[str, str]:
    return dict(Entry.objects.filter(tournament=tournament).values_list("player__name", "flight"))


# --- The domain's reading of flights ---------------------------------------------------------


def test_flight_names_are_read_and_age_ranges_found():
    assert parse_flights("50-59, 60-69,70-79 ,  80+") == AGES
    assert parse_flights("") == []
    assert age_range("50-59") == (50, 59) and age_range("80+") == (80, None)
    assert age_range("Gold") is None and age_range("59-50") is None
    assert flight_for_age(AGES, 50) == "50-59" and flight_for_age(AGES, 95) == "80+"
    assert flight_for_age(AGES, 49) is None
    assert flight_for_age(["Gold", "60-69"], 61) == "60-69"


def test_a_list_of_flights_that_cannot_be_used_is_explained():
    assert flight_problems(AGES) == []
    assert flight_problems([]) == []
    assert flight_problems(["Gold", "gold"]) == ['The flight "gold" is listed twice.']
    assert "workbook sheet" in flight_problems(["60/69"])[0]
    assert "longer than 24" in flight_problems(["x" * 25])[0]
    assert flight_problems("50-59") != []


# --- The event's flights: a rule ---------------------------------------------------------------


def test_an_event_defines_its_flights_as_a_rule(tournament):
    assert tournament.rules.flights == []  # as every event before flights
    change = change_rules(
        tournament, {"flights": parse_rule("flights", "50-59, 60-69, 80+")}, by=COMMAND_LINE
    )
    assert change.changed == ["flights"]
    rules = RuleSet.objects.get(tournament=tournament)
    assert rules.flights == ["50-59", "60-69", "80+"]
    shown = {row.field: row.value for row in rule_rows(rules, tournament.preset)}
    assert shown["flights"] == "50-59, 60-69, 80+"


def test_the_rules_page_sets_the_flights(organiser_client, tournament):
    page = organiser_client.get(organiser_url(tournament, "rules/"))
    form = page.context["form"]
    data = {name: value for name, value in form.initial.items() if value not in (None, False)}
    data["flights"] = "Gold, Silver"
    data["tie_breaks"] = []
    response = organiser_client.post(organiser_url(tournament, "rules/"), data)
    assert response.status_code == 302, response.context["form"].errors
    assert fresh(tournament).rules.flights == ["Gold", "Silver"]
    data["flights"] = "Gold, GOLD"
    refused = organiser_client.post(organiser_url(tournament, "rules/"), data)
    assert refused.context["form"].errors["flights"] == ['The flight "GOLD" is listed twice.']
    assert fresh(tournament).rules.flights == ["Gold", "Silver"]


def test_removing_a_flight_players_hold_is_refused_naming_them(tournament, organiser):
    tournament = with_flights(tournament)
    register_player(tournament, name="Ann Lee", flight="80+", user=organiser)
    register_player(tournament, name="Bob Roe", flight="80+", user=organiser)
    register_player(tournament, name="Cy Doe", flight="60-69", user=organiser)
    before = snapshot(RuleSet, *ROSTER_MODELS)
    with pytest.raises(RuleProblems) as refused:
        change_rules(tournament, {"flights": ["50-59", "60-69", "70-79"]}, by=COMMAND_LINE)
    assert refused.value.field == "flights"
    assert refused.value.problems["flights"] == [
        "Players still hold the flight 80+ (#1 Ann Lee, #2 Bob Roe): give them another flight "
        "on their player page first."
    ]
    assert snapshot(RuleSet, *ROSTER_MODELS) == before
    # The flights nobody holds may go.
    change_rules(tournament, {"flights": ["60-69", "80+"]}, by=COMMAND_LINE)
    assert fresh(tournament).rules.flights == ["60-69", "80+"]
    assert flights_held(tournament) == {"Ann Lee": "80+", "Bob Roe": "80+", "Cy Doe": "60-69"}


def test_a_flights_new_spelling_carries_its_players(tournament, organiser):
    tournament = with_flights(tournament, ["gold", "silver"])
    register_player(tournament, name="Ann Lee", flight="gold", user=organiser)
    change_rules(tournament, {"flights": ["Gold", "Silver"]}, by=COMMAND_LINE)
    assert flights_held(tournament) == {"Ann Lee": "Gold"}


def test_flights_are_fixed_once_play_has_started():
    w = seated_day()
    with_flights(w.tournament)
    stored_sheet(w.tables[0], w.games[1], {s.entry: 5 for s in w.tables[0].seats.all()})
    before = snapshot(RuleSet, *ROSTER_MODELS)
    with pytest.raises(ServiceError) as refused:
        change_rules(w.tournament, {"flights": ["Gold"]}, by=COMMAND_LINE)
    assert refused.value.field == "flights"
    assert "Play has started (day 1 has scores), so the rules are fixed" in str(refused.value)
    assert "Not changed: flights." in str(refused.value)
    assert snapshot(RuleSet, *ROSTER_MODELS) == before


# --- An entry's flight -------------------------------------------------------------------------


def test_a_player_is_entered_in_a_flight_in_the_events_spelling(tournament, organiser):
    tournament = with_flights(tournament, ["Gold", "Silver"])
    entry = register_player(tournament, name="Ann Lee", flight=" gold ", user=organiser)
    assert Entry.objects.get(pk=entry.pk).flight == "Gold"
    assert register_player(tournament, name="Bob Roe", user=organiser).flight == ""


def test_a_flight_the_event_does_not_have_is_refused_and_nothing_changes(tournament, organiser):
    tournament = with_flights(tournament)
    entry = register_player(tournament, name="Ann Lee", flight="60-69", user=organiser)
    before = snapshot(*ROSTER_MODELS)
    with pytest.raises(ServiceError) as refused:
        register_player(tournament, name="Bob Roe", flight="90+", user=organiser)
    assert refused.value.field == "flight"
    assert str(refused.value) == (
        'Flight "90+" is not one of this event\'s flights (50-59, 60-69, 70-79, 80+).'
    )
    with pytest.raises(ServiceError) as refused:
        edit(entry, organiser, club="Elks", flight="90+")
    assert refused.value.field == "flight"
    assert snapshot(*ROSTER_MODELS) == before


def test_a_players_flight_is_set_and_cleared_on_their_entry(tournament, organiser):
    tournament = with_flights(tournament)
    entry = register_player(tournament, name="Ann Lee", user=organiser)
    edit(entry, organiser, flight="70-79")
    assert flights_held(tournament) == {"Ann Lee": "70-79"}
    edit(Entry.objects.get(pk=entry.pk), organiser)  # no flight given: as it was
    assert flights_held(tournament) == {"Ann Lee": "70-79"}
    edit(Entry.objects.get(pk=entry.pk), organiser, flight="")
    assert flights_held(tournament) == {"Ann Lee": ""}


def test_a_flight_belongs_to_the_entry_not_the_person(make_tournament, organiser):
    last_year = with_flights(make_tournament(slug="games-2025", organiser=organiser))
    this_year = with_flights(make_tournament(slug="games-2026", organiser=organiser))
    old = register_player(last_year, name="Ann Lee", flight="60-69", user=organiser)
    register_player(this_year, player=old.player, flight="70-79", user=organiser)
    assert flights_held(last_year) == {"Ann Lee": "60-69"}
    assert flights_held(this_year) == {"Ann Lee": "70-79"}


def test_a_players_flight_is_fixed_once_they_have_played():
    w = seated_day()
    tournament = with_flights(w.tournament)
    ann, gus = w.entries["Ann Lee"], w.entries["Gus Ray"]
    Entry.objects.filter(pk=ann.pk).update(flight="60-69")
    stored_sheet(w.tables[0], w.games[1], {s.entry: 5 for s in w.tables[0].seats.all()})
    before = snapshot(*ROSTER_MODELS)
    for entry in (Entry.objects.get(pk=ann.pk), gus):  # Gus's table has not entered a game yet
        with pytest.raises(ServiceError) as refused:
            edit(entry, None, flight="70-79")
        assert refused.value.field == "flight"
        assert "Day 1 already has scores" in str(refused.value)
        assert "Not changed: flight." in str(refused.value)
    assert snapshot(*ROSTER_MODELS) == before
    # Anything else about them may still be corrected.
    edit(Entry.objects.get(pk=ann.pk), None, club="Elks")
    assert Entry.objects.get(pk=ann.pk).club == "Elks"
    assert tournament.rules.flights == AGES


def test_the_player_pages_offer_the_events_flights(organiser_client, tournament, organiser):
    bare = organiser_client.get(organiser_url(tournament, "players/add/")).content.decode()
    assert 'name="flight"' not in bare  # an event without flights asks nothing
    tournament = with_flights(tournament)
    register_player(tournament, name="Ann Lee", user=organiser)
    page = organiser_client.get(organiser_url(tournament, "players/1/")).content.decode()
    assert '<select name="flight"' in page and '<option value="80+">80+</option>' in page
    response = organiser_client.post(
        organiser_url(tournament, "players/1/"), {"name": "Ann Lee", "flight": "80+"}
    )
    assert response.status_code == 302
    assert flights_held(tournament) == {"Ann Lee": "80+"}
    listing = organiser_client.get(organiser_url(tournament, "players/")).content.decode()
    assert "<th>Flight</th>" in listing and "<td>80+</td>" in listing
    refused = organiser_client.post(
        organiser_url(tournament, "players/1/"), {"name": "Ann Lee", "flight": "90+"}
    )
    assert "is not one of this event" in refused.context["form"].errors["flight"][0]
    assert flights_held(tournament) == {"Ann Lee": "80+"}


# --- Importing a Flight or an Age column -------------------------------------------------------


def imported(tournament, organiser, rows) -> dict[str, str]:
    import_players(tournament, csv_bytes(rows), "players.csv", user=organiser)
    return flights_held(tournament)


def refused_rows(tournament, organiser, rows) -> list[str]:
    with pytest.raises(ImportRefused) as refused:
        import_players(tournament, csv_bytes(rows), "players.csv", user=organiser)
    assert not Entry.objects.filter(tournament=tournament).exists()
    return [str(problem) for problem in refused.value.problems]


def test_a_flight_column_is_read_in_the_events_spelling(tournament, organiser):
    tournament = with_flights(tournament, ["Gold", "Silver"])
    rows = [["Name", "Flight"], ["Ann Lee", "gold"], ["Bob Roe", "SILVER"], ["Cy Doe", ""]]
    assert imported(tournament, organiser, rows) == {
        "Ann Lee": "Gold",
        "Bob Roe": "Silver",
        "Cy Doe": "",
    }


def test_a_flight_the_event_does_not_have_is_a_row_problem(tournament, organiser):
    tournament = with_flights(tournament)
    rows = [["Name", "Flight"], ["Ann Lee", "60-69"], ["Bob Roe", "70-79"], ["Cy Doe", "80+"]]
    rows.append(["Di Fox", "90+"])
    assert refused_rows(tournament, organiser, rows) == [
        'Row 5: flight "90+" is not one of this event\'s flights (50-59, 60-69, 70-79, 80+).'
    ]


def test_an_age_column_puts_each_player_in_the_flight_of_their_age(tournament, organiser):
    tournament = with_flights(tournament)
    rows = [["Name", "Age"], ["Ann Lee", "50"], ["Bob Roe", "69"], ["Cy Doe", "91"]]
    assert imported(tournament, organiser, rows) == {
        "Ann Lee": "50-59",
        "Bob Roe": "60-69",
        "Cy Doe": "80+",
    }


def test_an_age_that_fits_no_flight_is_a_row_problem(tournament, organiser):
    tournament = with_flights(tournament)
    rows = [["Name", "Age", "Flight"], ["Ann Lee", "47", ""], ["Bob Roe", "sixty", ""]]
    rows.append(["Cy Doe", "72", "60-69"])
    assert refused_rows(tournament, organiser, rows) == [
        "Row 2: age 47 fits none of this event's flights (50-59, 60-69, 70-79, 80+).",
        'Row 3: age "sixty" is not a whole number of years.',
        "Row 4: flight 60-69 and age 72 (flight 70-79) disagree.",
    ]


def test_without_flights_an_age_column_is_ignored_and_a_flight_refused(tournament, organiser):
    assert imported(tournament, organiser, [["Name", "Age"], ["Ann Lee", "71"]]) == {"Ann Lee": ""}
    Entry.objects.all().delete()
    assert refused_rows(tournament, organiser, [["Name", "Flight"], ["Bob Roe", "70-79"]]) == [
        'Row 2: flight "70-79" is not one of this event\'s flights: it has none (the Rules '
        "page defines them)."
    ]
