"""A plan too large to make is refused before it is loaded, and a plan too large for one page
is shown day by day: the planner's loading and the seating page stay bounded for a huge event."""

import pytest
from django.utils import timezone
from scoring_factories import organiser_url as url

from core.errors import ServiceError
from domain.seating.pairs import table_sizes
from tournaments.access import COMMAND_LINE
from tournaments.models import Day, Entry, PlannedDay, Player, SeatingPlan
from tournaments.services.planning import plan_remaining_days
from tournaments.services.rules import change_rules
from tournaments.views.seating import INDEX_PLAN_SEATS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_seating")]


@pytest.fixture(autouse=True)
def quick_planning(settings):
    settings.SEATING_PLAN_TIME_LIMIT = 2.0


def big_event(make_tournament, organiser, players: int, days: int, slug="big"):
    """An event of ``players`` checked-in players over ``days`` days, made in a few queries."""
    tournament = make_tournament(slug=slug, organiser=organiser)
    change_rules(tournament, {"days": days, "max_table_size": 7}, by=COMMAND_LINE)
    made = Player.objects.bulk_create(Player(name=f"Player {i}") for i in range(1, players + 1))
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, number=i, status=Entry.CHECKED_IN)
        for i, p in enumerate(made, start=1)
    )
    return tournament


def test_a_plan_too_large_to_make_is_refused_and_nothing_is_stored(make_tournament, organiser):
    tournament = big_event(make_tournament, organiser, players=600, days=30)
    with pytest.raises(ServiceError) as refused:
        plan_remaining_days(tournament, seed=1)
    assert str(refused.value).startswith(
        "A plan of 30 days for 600 players at tables of up to 7 is too large to make here: "
        "at most 21 days can be planned together for so many players."
    )
    assert SeatingPlan.objects.count() == 0
    assert PlannedDay.objects.count() == 0
    assert not Day.objects.filter(tournament=tournament, seated_at__isnull=False).exists()


def test_the_plan_page_says_why_nothing_was_planned(make_tournament, organiser, organiser_client):
    tournament = big_event(make_tournament, organiser, players=600, days=30)
    response = organiser_client.post(url(tournament, "seating/plan/"), {"seed": "1"}, follow=True)
    page = response.content.decode()
    assert "Nothing was planned: A plan of 30 days for 600 players" in page
    assert "Seat each day on its own until 21 are left, then plan those" in page
    assert not SeatingPlan.objects.exists()


def test_the_seating_page_says_a_plan_is_too_large_before_it_is_asked_for(
    make_tournament, organiser, organiser_client
):
    tournament = big_event(make_tournament, organiser, players=600, days=30)
    page = organiser_client.get(url(tournament, "seating/")).content.decode()
    assert "A plan of 30 days for 600 players at tables of up to 7 is too large" in page
    assert 'action="/organiser/t/big/seating/plan/"' not in page
    small = big_event(make_tournament, organiser, players=60, days=3, slug="small")
    page = organiser_client.get(url(small, "seating/")).content.decode()
    assert 'action="/organiser/t/small/seating/plan/"' in page


def store_plan(tournament, days: int) -> None:
    """A plan of every day (each day's tables the players dealt round-robin in a new order),
    stored as the planner stores one, without planning."""
    ids = list(
        Entry.objects.filter(tournament=tournament).order_by("number").values_list("pk", flat=True)
    )
    k = len(table_sizes(len(ids), tournament.rules.max_table_size))
    plan = SeatingPlan.objects.create(
        tournament=tournament,
        planned_at=timezone.now(),
        seed=1,
        method="session by session",
        day_numbers=list(range(1, days + 1)),
        players=ids,
        planned_repeats=0,
        lower_bound=0,
    )
    planned = []
    for day in Day.objects.filter(tournament=tournament).order_by("number"):
        order = ids[day.number :] + ids[: day.number]
        tables = [sorted(order[t::k]) for t in range(k)]
        planned.append(PlannedDay(plan=plan, day=day, tables=tables, repeat_pairs=0, lower_bound=0))
    PlannedDay.objects.bulk_create(planned)


def test_the_seating_page_of_a_huge_plan_shows_its_days_not_their_tables(
    make_tournament, organiser, organiser_client
):
    tournament = big_event(make_tournament, organiser, players=1000, days=10)
    store_plan(tournament, days=10)
    assert INDEX_PLAN_SEATS < 1000 * 10
    response = organiser_client.get(url(tournament, "seating/"))
    page = " ".join(response.content.decode().split())
    assert len(response.content) < 60_000  # every table shown made 5.8 MB (26 MB for 2,000 x 30)
    assert (
        "The planned tables are not shown here: the 10 days still planned hold 10,000 seats in "
        "all, too many for one page." in page
    )
    for number in range(1, 11):
        assert f'href="/organiser/t/big/seating/{number}/">day {number}</a>' in page
    assert "Player 1000" not in page and "Print the plan" not in page
    day_page = organiser_client.get(url(tournament, "seating/3/")).content.decode()
    assert "Day 3 is planned, not seated." in day_page and "Player 1000" in day_page


def test_a_plan_that_fits_the_page_still_shows_every_table(
    make_tournament, organiser, organiser_client
):
    tournament = big_event(make_tournament, organiser, players=400, days=5)
    store_plan(tournament, days=5)
    assert INDEX_PLAN_SEATS >= 400 * 5
    page = organiser_client.get(url(tournament, "seating/")).content.decode()
    assert "The planned tables are not shown here" not in page
    assert page.count('class="badge planned"') == 5
    assert "Player 400" in page and "Print the plan" in page
