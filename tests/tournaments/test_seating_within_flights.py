"""Seating within flights (issue 27): a rule of the event; each flight at tables of its own on
every day, in a plan and when reseated; a pin on another flight's table refused with nothing
changed; a hand move that mixes the flights warned; the seating page says so."""

import pytest
from scoring_factories import fresh, organiser_url, snapshot

from core.errors import ServiceError
from domain.seating.pairs import table_sizes
from tournaments.access import COMMAND_LINE
from tournaments.models import Day, Entry, PlannedDay, RuleSet, Seat, SeatingPlan, Table
from tournaments.services.planning import plan_remaining_days
from tournaments.services.registration import register_player, update_entry
from tournaments.services.rules import RuleProblems, change_rules
from tournaments.services.seating import check_swap, seat_day

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_seating")]

AGES = ["50-59", "60-69", "70-79", "80+"]
SEATING_MODELS = (Seat, Table, Day, SeatingPlan, PlannedDay)


@pytest.fixture
def senior_games(make_tournament, organiser):
    """17 players over two days at tables of at most 4: 9 aged 60-69, 7 aged 70-79, 1 aged 80+."""
    event = make_tournament(slug="senior", organiser=organiser)
    change_rules(
        event,
        {"days": 2, "max_table_size": 4, "flights": AGES, "seat_within_flights": True},
        by=COMMAND_LINE,
    )
    for i in range(9):
        register_player(event, name=f"Sixty {i}", flight="60-69", user=organiser)
    for i in range(7):
        register_player(event, name=f"Seventy {i}", flight="70-79", user=organiser)
    register_player(event, name="Eighty Alone", flight="80+", user=organiser)
    return fresh(event)


def day(event, number) -> Day:
    return Day.objects.select_related("tournament__rules").get(tournament=event, number=number)


def tables_by_flight(event, number) -> list[set[str]]:
    tables: dict[int, set[str]] = {}
    rows = Seat.objects.filter(day__tournament=event, day__number=number)
    for table, flight in rows.values_list("table__number", "entry__flight"):
        tables.setdefault(table, set()).add(flight)
    return [tables[n] for n in sorted(tables)]


def assert_seated_by_flight(tables: list[set[str]]) -> None:
    """60-69 at tables 1-3; 70-79 with the lone 80+ player at tables 4-5."""
    assert tables[:3] == [{"60-69"}] * 3
    assert len(tables) == 5 and all(t <= {"70-79", "80+"} for t in tables[3:])
    assert "80+" in tables[3] | tables[4]


def sizes(event, number) -> list[int]:
    counts: dict[int, int] = {}
    for table in Seat.objects.filter(day__tournament=event, day__number=number).values_list(
        "table__number", flat=True
    ):
        counts[table] = counts.get(table, 0) + 1
    return [counts[n] for n in sorted(counts)]


def test_seating_within_flights_needs_flights_and_is_refused_without_them(tournament):
    before = snapshot(RuleSet)
    with pytest.raises(RuleProblems) as refused:
        change_rules(tournament, {"seat_within_flights": True}, by=COMMAND_LINE)
    assert refused.value.problems["seat_within_flights"] == [
        'Seating within flights needs the event\'s flights: list them under "Flights", or seat '
        "the flights mixed."
    ]
    assert snapshot(RuleSet) == before


def test_each_flight_sits_at_tables_of_its_own_numbered_flight_after_flight(senior_games):
    seat_day(day(senior_games, 1), seed=11)
    # 60-69 (9): tables of 3, 3, 3; 70-79 (7) with the lone 80+ player (8): 4 and 4.
    assert_seated_by_flight(tables_by_flight(senior_games, 1))
    assert sizes(senior_games, 1) == table_sizes(9, 4) + table_sizes(8, 4)


def test_the_second_day_reshuffles_within_the_flights(senior_games):
    seat_day(day(senior_games, 1), seed=11)
    seat_day(day(senior_games, 2), seed=12)
    assert_seated_by_flight(tables_by_flight(senior_games, 2))


def test_a_plan_of_both_days_keeps_the_flights_apart_and_is_followed(senior_games):
    outcome = plan_remaining_days(senior_games, seed=5)
    flight_of = dict(Entry.objects.filter(tournament=senior_games).values_list("pk", "flight"))
    for session in outcome.sessions:
        assert_seated_by_flight([{flight_of[e.pk] for e in table} for table in session.tables])
    assert outcome.plan.method.startswith("each flight on its own")
    seat_day(day(senior_games, 1))
    seat_day(day(senior_games, 2))
    assert_seated_by_flight(tables_by_flight(senior_games, 2))


def test_a_pin_on_another_flights_table_is_refused_and_nothing_is_seated(senior_games, organiser):
    sixty = Entry.objects.get(tournament=senior_games, player__name="Sixty 0")
    update_entry(
        sixty,
        name=sixty.player.name,
        club="",
        contact="",
        pinned_table=5,
        flight="60-69",
        user=organiser,
    )
    before = snapshot(*SEATING_MODELS)
    with pytest.raises(ServiceError) as refused:
        seat_day(day(senior_games, 1), seed=1)
    assert str(refused.value) == (
        "Sixty 0 (#1) is pinned to table 5, but flight 60-69 sits at tables 1 to 3 when each "
        "flight is seated at tables of its own. Change the pin."
    )
    assert snapshot(*SEATING_MODELS) == before


def test_swapping_players_of_two_flights_is_warned(senior_games):
    seat_day(day(senior_games, 1), seed=3)
    sixty = Entry.objects.get(tournament=senior_games, player__name="Sixty 0")
    here = Seat.objects.get(entry=sixty).table.number
    seventy = Seat.objects.filter(
        day__number=1, entry__flight="70-79", entry__tournament=senior_games
    ).first()
    there = seventy.table.number
    warnings = check_swap(day(senior_games, 1), sixty, seventy.entry)
    assert (
        f"Table {here} would seat flights 60-69 and 70-79 together: the rules seat each "
        "flight at tables of its own."
    ) in warnings
    assert any(w.startswith(f"Table {there} would seat flights 60-69 and 70-79") for w in warnings)
    same = (
        Seat.objects.filter(day__number=1, entry__flight="60-69", entry__tournament=senior_games)
        .exclude(table__number=here)
        .first()
    )
    assert not any(
        "would seat flights" in w for w in check_swap(day(senior_games, 1), sixty, same.entry)
    )


def test_the_seating_page_names_each_tables_flight_and_the_lone_player(
    senior_games, organiser_client
):
    seat_day(day(senior_games, 1), seed=11)
    page = organiser_client.get(organiser_url(senior_games, "seating/1/"))
    text = page.content.decode()
    assert (
        "Each flight sits at tables of its own. Flight 80+ has one player, who sits with "
        "flight 70-79." in text
    )
    assert "(3) · flight 60-69" in text
    assert "(4) · flight 70-79 and 80+" in text
    assert "(4) · flight 70-79</span>" in text


def test_with_the_rule_off_the_tables_mix_the_flights(senior_games):
    change_rules(senior_games, {"seat_within_flights": False}, by=COMMAND_LINE)
    seat_day(day(senior_games, 1), seed=11)
    assert sizes(senior_games, 1) == table_sizes(17, 4)


def test_a_flight_of_one_is_allowed_and_warned_on_the_rules_and_players_pages(
    senior_games, organiser_client
):
    warning = (
        "Flight 80+ has one player: they are ranked alone and win its prizes unopposed, and sit "
        "with the flight listed next to it."
    )
    for page in ("rules/", "players/"):
        text = organiser_client.get(organiser_url(senior_games, page)).content.decode()
        assert warning in text, page
    change_rules(senior_games, {"seat_within_flights": False}, by=COMMAND_LINE)
    text = organiser_client.get(organiser_url(senior_games, "rules/")).content.decode()
    assert "Flight 80+ has one player: they are ranked alone and win its prizes unopposed." in text
    assert "Flight 60-69 has" not in text
