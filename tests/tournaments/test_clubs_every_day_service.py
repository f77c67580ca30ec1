"""The rule "spread the clubs on later days too": seating and planning follow it, the seating
page shows each day's club figure against the best possible."""

import pytest
from scoring_factories import organiser_url as url, text_of

from domain.seating.day import seat
from domain.seating.pairs import club_spread
from tournaments.access import COMMAND_LINE
from tournaments.models import Day, PlannedDay, Seat
from tournaments.services.planning import plan_remaining_days
from tournaments.services.registration import register_player
from tournaments.services.rules import change_rules
from tournaments.services.seating import seat_day

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_seating")]


@pytest.fixture
def clubbed(make_tournament, organiser):
    tournament = make_tournament(slug="clubs", organiser=organiser)
    change_rules(tournament, {"days": 3, "spread_clubs_every_day": True}, by=COMMAND_LINE)
    for i in range(42):
        club = "Lakeside" if i < 9 else "Pines" if i < 15 else ""
        register_player(tournament, name=f"Player {i}", club=club)
    return tournament


def clubs_by_table(day) -> tuple[list[list[int]], dict[int, str]]:
    tables: dict[int, list[int]] = {}
    clubs = {}
    for number, entry, club in Seat.objects.filter(day=day).values_list(
        "table__number", "entry_id", "entry__club"
    ):
        tables.setdefault(number, []).append(entry)
        clubs[entry] = club
    return [tables[n] for n in sorted(tables)], clubs


def test_every_day_spreads_the_clubs_and_the_page_says_so(clubbed, organiser_client, settings):
    settings.SEATING_MAX_EVALS = 4_000_000  # the full budget, as at an event
    history = []
    for number in (1, 2, 3):
        day = Day.objects.get(tournament=clubbed, number=number)
        seat_day(day, seed=number)
        day.refresh_from_db()
        tables, clubs = clubs_by_table(day)
        largest, best = club_spread(tables, clubs)
        assert best == 2
        if number > 1:
            # the clubs cost no repeat, and spread at least as well as without the rule
            assert day.repeat_pairs == day.repeat_lower_bound
            plain = seat([p for t in tables for p in t], 7, seed=number, history=history)
            assert largest <= club_spread(plain.tables, clubs)[0]
        page = text_of(organiser_client.get(url(clubbed, f"seating/{number}/")))
        assert f"at most {largest} of one club at a table (best possible: 2)" in page
        history.append(tables)


def test_a_plan_spreads_the_clubs_on_every_day(clubbed):
    change_rules(clubbed, {"max_table_size": 7}, by=COMMAND_LINE)
    plan_remaining_days(clubbed, seed=3)
    clubs = {e.pk: e.club for e in clubbed.entries.all()}
    for planned in PlannedDay.objects.all():
        assert club_spread(planned.tables, clubs) == (2, 2)


def test_the_rules_page_turns_it_on_and_the_overview_says_so(clubbed, organiser_client):
    change_rules(clubbed, {"spread_clubs_every_day": False}, by=COMMAND_LINE)
    clubbed.rules.refresh_from_db()
    assert not clubbed.rules.spread_clubs_every_day
    change_rules(clubbed, {"spread_clubs_every_day": True}, by=COMMAND_LINE)
    page = text_of(organiser_client.get(url(clubbed, "")))
    assert "and on later days too" in page
