"""Prizes per flight (issue 28 with flights): a flight's places and specials are among its players,
ranked within the flight; one prize each passes over a player who won overall; a prize that
could never be given is refused with the field and the reason, and nothing changes."""

import pytest
from scoring_factories import fresh, snapshot, two_days_that_turn_round

from core.errors import ServiceError
from domain.prizes import (
    HIGHEST_TOTAL,
    LOWEST_GAME,
    PLACE,
    Contender,
    PrizeSpec,
    assign_prizes,
    call_order,
)
from scoring.models import GameSheet
from standings.prizes import prize_table
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, Prize, RuleSet
from tournaments.services.prizes import add_prize, set_one_each
from tournaments.services.rules import RuleProblems, change_rules

pytestmark = pytest.mark.django_db


def player(n, rank, flight, flight_rank, lowest=10):
    return Contender(n, n, f"P{n}", rank, rank * 10, 0, None, lowest, flight, flight_rank)


# Overall: P1 (Gold), P2 (Silver), P3 (Gold), P4 (Silver), P5 (Silver).
FIELD = [
    player(1, 1, "Gold", 1),
    player(2, 2, "Silver", 1),
    player(3, 3, "Gold", 2, lowest=3),
    player(4, 4, "Silver", 2, lowest=5),
    player(5, 5, "Silver", 3),
]


def test_a_flights_places_go_by_rank_in_the_flight_passing_over_overall_winners():
    prizes = [
        PrizeSpec(1, PLACE, 1),
        PrizeSpec(2, PLACE, 1, flight="Gold", flight_order=1),
        PrizeSpec(3, PLACE, 2, flight="Gold", flight_order=1),
        PrizeSpec(4, PLACE, 1, flight="Silver", flight_order=2),
    ]
    one_each = assign_prizes(prizes, FIELD, one_each=True, decisions={})
    won = {a.prize.title: a.winner.name if a.winner else a.nobody for a in one_each}
    # P1 won 1st overall, so Gold's 1st goes to P3; Gold has nobody left for a 2nd.
    assert won == {
        "1st place": "P1",
        "1st place · Flight Gold": "P3",
        "2nd place · Flight Gold": "Fewer ranked players in flight Gold than places.",
        "1st place · Flight Silver": "P2",
    }
    many = assign_prizes(prizes, FIELD, one_each=False, decisions={})
    assert [a.winner.name for a in many] == ["P1", "P1", "P3", "P2"]


def test_a_flights_specials_are_among_its_players_and_the_booby_is_its_last():
    prizes = [
        PrizeSpec(1, LOWEST_GAME, flight="Silver", flight_order=2),
        PrizeSpec(2, HIGHEST_TOTAL, flight="Gold", flight_order=1),
        PrizeSpec(3, LOWEST_GAME),
    ]
    awards = assign_prizes(prizes, FIELD, one_each=True, decisions={})
    won = {a.prize.title: a.winner.name for a in awards}
    assert won["Lowest single game"] == "P3"  # overall: P3's game of 3
    assert won["Lowest single game · Flight Silver"] == "P4"  # 5, below P2's and P5's 10
    # Gold's last is P3, who won the lowest game: with one prize each the booby passes to P1.
    assert won["Highest total (booby prize) · Flight Gold"] == "P1"
    many = assign_prizes(prizes, FIELD, one_each=False, decisions={})
    assert {a.prize.title: a.winner.name for a in many}[
        "Highest total (booby prize) · Flight Gold"
    ] == "P3"


def test_the_announcement_calls_the_flights_places_before_the_places_overall():
    prizes = [
        PrizeSpec(1, PLACE, 1),
        PrizeSpec(2, PLACE, 2),
        PrizeSpec(3, PLACE, 1, flight="Gold", flight_order=1),
        PrizeSpec(4, PLACE, 2, flight="Gold", flight_order=1),
        PrizeSpec(5, PLACE, 1, flight="Silver", flight_order=2),
        PrizeSpec(6, HIGHEST_TOTAL),
    ]
    called = call_order(assign_prizes(prizes, FIELD, one_each=False, decisions={}))
    assert [a.prize.key for a in called] == [6, 4, 3, 5, 2, 1]


@pytest.fixture
def flighted():
    """The turned-round two days: Gus 55, Flo 71, Ed 87, Di 103, Cy 119, Bob 135, Ann 151;
    Gus, Ed and Cy in flight 60-69, the others in 70-79."""
    t = two_days_that_turn_round()
    # As if set before play began (the rules are fixed once it has).
    RuleSet.objects.filter(tournament=t).update(flights=["60-69", "70-79"])
    entries = Entry.objects.filter(tournament=t)
    entries.filter(player__name__in=["Gus Ray", "Ed Poe", "Cy Doe"]).update(flight="60-69")
    entries.exclude(player__name__in=["Gus Ray", "Ed Poe", "Cy Doe"]).update(flight="70-79")
    return fresh(t)


def test_the_prize_table_gives_each_flight_its_own_places(flighted):
    add_prize(flighted, PLACE, 1, "", by=COMMAND_LINE)
    add_prize(flighted, PLACE, 1, "", by=COMMAND_LINE, flight="60-69")
    add_prize(flighted, PLACE, 2, "", by=COMMAND_LINE, flight="60-69")
    add_prize(flighted, PLACE, 1, "", by=COMMAND_LINE, flight="70-79")
    table = prize_table(fresh(flighted))
    assert {a.prize.title: a.winner.name for a in table.awards} == {
        "1st place": "Gus Ray",
        "1st place · Flight 60-69": "Ed Poe",  # Gus won overall: one prize each
        "2nd place · Flight 60-69": "Cy Doe",
        "1st place · Flight 70-79": "Flo Ng",
    }
    set_one_each(flighted, False, by=COMMAND_LINE)
    again = prize_table(fresh(flighted))
    assert [a.winner.name for a in again.awards] == ["Gus Ray", "Gus Ray", "Ed Poe", "Flo Ng"]


@pytest.mark.parametrize(
    "kind, place, flight, field, reason",
    [
        (
            PLACE,
            4,
            "60-69",
            "place",
            "Flight 60-69 has 3 players: there is no 4th place in flight 60-69 to give.",
        ),
        (PLACE, 8, "", "place", "The event has 7 players: there is no 8th place to give."),
        (
            PLACE,
            1,
            "80+",
            "flight",
            'Flight "80+" is not one of this event\'s flights (60-69, 70-79).',
        ),
        (PLACE, 1, "60-69", "place", "There is a prize for 1st place in flight 60-69 already."),
    ],
)
def test_a_prize_that_could_never_be_given_is_refused(flighted, kind, place, flight, field, reason):
    add_prize(flighted, PLACE, 1, "", by=COMMAND_LINE, flight="60-69")
    before = snapshot(Prize)
    with pytest.raises(ServiceError) as refused:
        add_prize(fresh(flighted), kind, place, "", by=COMMAND_LINE, flight=flight)
    assert (refused.value.field, str(refused.value)) == (field, reason)
    assert snapshot(Prize) == before


def test_a_flight_with_prizes_cannot_be_taken_away(flighted):
    add_prize(flighted, PLACE, 1, "", by=COMMAND_LINE, flight="70-79")
    # Before play: a fresh event with the same flights and that prize.
    Entry.objects.filter(tournament=flighted).update(flight="60-69")
    GameSheet.objects.filter(table__day__tournament=flighted).delete()
    before = snapshot(RuleSet, Prize)
    with pytest.raises(RuleProblems) as refused:
        change_rules(fresh(flighted), {"flights": ["60-69"]}, by=COMMAND_LINE)
    assert refused.value.problems["flights"] == [
        "The prize table has prizes for flight 70-79: remove them on the Prizes page first."
    ]
    assert snapshot(RuleSet, Prize) == before
    Prize.objects.filter(tournament=flighted).update(flight="")  # the prize is for everyone now
    change_rules(fresh(flighted), {"flights": ["60-69"]}, by=COMMAND_LINE)
    assert fresh(flighted).rules.flights == ["60-69"]
