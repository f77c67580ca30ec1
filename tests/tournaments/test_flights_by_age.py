"""Flights by age (issue 27): a birth year or date on the person, read from the player's page or
a Born column, places each player in the flight of their age on a date; what cannot be placed
is named with the reason, and bad input is refused with nothing changed."""

import datetime
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
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
from domain.flights import Birth, ages_reached_on, flight_by_birth, read_birth
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, Player
from tournaments.services.flight_ages import set_flights_by_age
from tournaments.services.importing import ImportRefused, import_players
from tournaments.services.registration import register_player
from tournaments.services.rules import change_rules

pytestmark = pytest.mark.django_db

AGES = ["50-59", "60-69", "70-79", "80+"]
TODAY = datetime.date(2026, 12, 7)
YEAR_END = datetime.date(2026, 12, 31)


# --- The domain: reading a birth and the age it gives -----------------------------------------


@pytest.mark.parametrize(
    "typed, birth",
    [
        ("1948", Birth(1948)),
        ("1948-03-21", Birth(1948, datetime.date(1948, 3, 21))),
        ("21/3/1948", Birth(1948, datetime.date(1948, 3, 21))),
        ("3/21/1948", Birth(1948, datetime.date(1948, 3, 21))),
        ("5/5/1950", Birth(1950, datetime.date(1950, 5, 5))),
        ("1948.0", Birth(1948)),
        ("", Birth()),
    ],
)
def test_a_birth_is_read_as_a_year_or_a_date(typed, birth):
    assert read_birth(typed, TODAY) == (birth, "")


@pytest.mark.parametrize(
    "typed, why",
    [
        (
            "3/4/1948",
            'born "3/4/1948" could be 3 April or 4 March: write it as 1948-04-03 or 1948-03-04.',
        ),
        ("1899", 'born "1899" is not a birth year from 1900 to today.'),
        ("2027", 'born "2027" is not a birth year from 1900 to today.'),
        ("1950-02-30", 'born "1950-02-30" is not a date of the calendar.'),
        ("sixty", 'born "sixty" is not a year (1948) or a date (1948-03-21).'),
    ],
)
def test_a_birth_that_cannot_be_read_says_why(typed, why):
    assert read_birth(typed, TODAY) == (Birth(), why)


def test_the_age_on_a_date_places_the_flight_and_a_year_alone_may_not_decide():
    # On 31 December every birthday of the year has passed: the year alone decides.
    assert flight_by_birth(AGES, Birth(1956), YEAR_END).flight == "70-79"
    june = datetime.date(2026, 6, 1)
    unsure = flight_by_birth(AGES, Birth(1956), june)
    assert (unsure.flight, unsure.needs_date) == (None, True)
    assert unsure.why == "born 1956: 69 or 70 on 2026-06-01, in two flights (60-69 or 70-79)"
    assert flight_by_birth(AGES, Birth(1956, datetime.date(1956, 3, 1)), june).flight == "70-79"
    assert flight_by_birth(AGES, Birth(1956, datetime.date(1956, 7, 1)), june).flight == "60-69"
    assert flight_by_birth(AGES, Birth(1955), june).flight == "70-79"  # 70 or 71: both 70-79
    assert flight_by_birth(AGES, Birth(1990), june).why == (
        "age 35 or 36 on 2026-06-01 fits none of the flights"
    )
    assert flight_by_birth(AGES, Birth(), june).why == "no birth year on file"
    assert ages_reached_on(datetime.date(2027, 3, 1), TODAY) == datetime.date(2027, 12, 31)
    assert ages_reached_on(None, TODAY) == YEAR_END


# --- The service, the page and the command -----------------------------------------------------


@pytest.fixture
def seniors(make_tournament, organiser):
    event = make_tournament(
        slug="seniors", organiser=organiser, start_date=datetime.date(2026, 6, 1)
    )
    change_rules(event, {"flights": AGES}, by=COMMAND_LINE)
    event = fresh(event)
    register_player(event, name="Ann Old", birth=Birth(1940), user=organiser)
    register_player(event, name="Bob Mid", birth=Birth(1956), user=organiser)
    register_player(
        event, name="Cy Exact", birth=Birth(1956, datetime.date(1956, 3, 1)), user=organiser
    )
    register_player(event, name="Di Young", birth=Birth(1990), user=organiser)
    register_player(event, name="Ed None", user=organiser)
    return event


def flights(event) -> dict[str, str]:
    return dict(Entry.objects.filter(tournament=event).values_list("player__name", "flight"))


def test_flights_are_set_by_the_age_on_the_date_and_the_rest_named(seniors):
    outcome = set_flights_by_age(seniors, on=datetime.date(2026, 6, 1))
    assert flights(seniors) == {
        "Ann Old": "80+",
        "Bob Mid": "",
        "Cy Exact": "70-79",
        "Di Young": "",
        "Ed None": "",
    }
    assert outcome.lines() == [
        "Flights by age on 2026-06-01: 2 set, 0 already right, 3 left as they were.",
        "#1 Ann Old: 80+",
        "#3 Cy Exact: 70-79",
        "Left: #2 Bob Mid (born 1956: 69 or 70 on 2026-06-01, in two flights (60-69 or 70-79); "
        "give the birth date)",
        "Left: #4 Di Young (age 35 or 36 on 2026-06-01 fits none of the flights)",
        "Left: #5 Ed None (no birth year on file)",
    ]
    # At the year's end the year alone decides; those already right are counted, not moved.
    again = set_flights_by_age(seniors, on=YEAR_END)
    assert flights(seniors)["Bob Mid"] == "70-79"
    assert (len(again.moved), again.already) == (1, 2)


def test_without_flights_by_age_it_is_refused_and_nothing_changes(seniors):
    change_rules(seniors, {"flights": ["Gold", "Silver"]}, by=COMMAND_LINE)
    before = snapshot(*ROSTER_MODELS)
    with pytest.raises(ServiceError) as refused:
        set_flights_by_age(fresh(seniors), on=YEAR_END)
    assert "no flights by age" in str(refused.value)
    assert snapshot(*ROSTER_MODELS) == before


def test_a_player_who_has_played_keeps_their_flight():
    w = seated_day()
    change_rules(w.tournament, {"flights": AGES}, by=COMMAND_LINE)
    Player.objects.filter(entries__tournament=w.tournament).update(birth_year=1950)
    stored_sheet(w.tables[0], w.games[1], {s.entry: 5 for s in w.tables[0].seats.all()})
    outcome = set_flights_by_age(fresh(w.tournament), on=YEAR_END)
    # Everyone seated on a day with scores: its flights' standings count them already.
    played = {s.entry_id for t in w.tables for s in t.seats.all()}
    assert {e.pk for e, _ in outcome.left} == played
    assert all(why == "has played in no flight, which is fixed" for _, why in outcome.left)
    assert all(e.flight == "70-79" for e, _ in outcome.moved)


def test_the_player_page_stores_the_birth_and_refuses_an_unclear_one(seniors, organiser_client):
    entry = Entry.objects.get(tournament=seniors, player__name="Ed None")
    address = organiser_url(seniors, f"players/{entry.number}/")
    page = organiser_client.get(address)
    data = {k: v for k, v in page.context["form"].initial.items() if v is not None}
    before = snapshot(*ROSTER_MODELS)
    refused = organiser_client.post(address, data | {"birth": "3/4/1948"})
    assert refused.context["form"].errors["birth"] == [
        'Born "3/4/1948" could be 3 April or 4 March: write it as 1948-04-03 or 1948-03-04.'
    ]
    assert snapshot(*ROSTER_MODELS) == before
    assert organiser_client.post(address, data | {"birth": "1948-04-03"}).status_code == 302
    player = Player.objects.get(pk=entry.player_id)
    assert (player.birth_year, player.birth_date) == (1948, datetime.date(1948, 4, 3))
    assert organiser_client.get(address).context["form"].initial["birth"] == "1948-04-03"
    # Emptying the field forgets it.
    organiser_client.post(address, data | {"birth": ""})
    assert Player.objects.get(pk=entry.player_id).birth == Birth()


def test_the_players_page_sets_the_flights_and_names_who_kept_theirs(seniors, organiser_client):
    page = organiser_client.get(organiser_url(seniors, "players/"))
    assert page.context["flights_by_age"].initial["on"] == YEAR_END
    response = organiser_client.post(
        organiser_url(seniors, "players/flights-by-age/"), {"on": "2026-12-31"}, follow=True
    )
    said = [str(m) for m in response.context["messages"]]
    assert said[0] == "Flights by age on 2026-12-31: 3 set, 0 already right, 2 left as they were."
    assert "#5 Ed None keeps their flight: no birth year on file." in said
    assert flights(seniors)["Bob Mid"] == "70-79"
    before = snapshot(*ROSTER_MODELS)
    bad = organiser_client.post(
        organiser_url(seniors, "players/flights-by-age/"), {"on": "soon"}, follow=True
    )
    assert "Give the date to count the ages on" in str(next(iter(bad.context["messages"])))
    assert snapshot(*ROSTER_MODELS) == before


def test_the_command_sets_them_and_refuses_a_bad_date(seniors):
    out = io.StringIO()
    call_command("flights_by_age", "seniors", "--on", "2026-06-01", stdout=out)
    assert out.getvalue().splitlines()[0] == (
        "Flights by age on 2026-06-01: 2 set, 0 already right, 3 left as they were."
    )
    with pytest.raises(CommandError, match=r'--on "June" is not a date written YYYY-MM-DD\.'):
        call_command("flights_by_age", "seniors", "--on", "June")
    out = io.StringIO()
    call_command("flights_by_age", "seniors", stdout=out)  # 31 December of the event's year
    assert "Flights by age on 2026-12-31: 1 set" in out.getvalue()


# --- The import's Born column ----------------------------------------------------------------


def test_a_born_column_places_rows_without_a_flight_and_fills_the_directory(seniors, organiser):
    ann = Entry.objects.get(tournament=seniors, player__name="Ann Old").player
    other = fresh(seniors)
    rows = [
        ["Name", "Born", "Flight"],
        ["Fay New", "1950", ""],  # 76 at the year's end
        ["Gus New", "1962-08-01", "50-59"],  # a Flight given is the row's, whatever the age
    ]
    outcome = import_players(other, csv_bytes(rows), "list.csv", user=organiser)
    made = {e.player.name: e for e in outcome.entries}
    assert made["Fay New"].flight == "70-79"
    assert made["Gus New"].flight == "50-59"
    assert made["Gus New"].player.birth == Birth(1962, datetime.date(1962, 8, 1))
    assert ann.birth == Birth(1940)


def test_a_born_cell_that_cannot_be_read_or_placed_is_refused_by_row(seniors, organiser):
    rows = [
        ["Name", "Date of birth"],
        ["Hal Two", "3/4/1948"],
        ["Ivy Young", "1995"],
        ["Jo Fine", "1944"],
    ]
    before = snapshot(*ROSTER_MODELS)
    with pytest.raises(ImportRefused) as refused:
        import_players(seniors, csv_bytes(rows), "list.csv", user=organiser)
    said = [str(p) for p in refused.value.problems]
    assert said == [
        'Row 2: Born "3/4/1948" could be 3 April or 4 March: write it as 1948-04-03 or 1948-03-04.',
        "Row 3: Age 31 on 2026-12-31 fits none of the flights: give a Flight or an Age.",
    ]
    assert snapshot(*ROSTER_MODELS) == before
