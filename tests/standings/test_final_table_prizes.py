"""A prize per table of the final (issue 28 with the final of issue 27): the lowest total in
the final at that table wins it; it needs a final and one of its tables, and is refused with
the field and the reason otherwise, nothing changed."""

import pytest
from scoring_factories import fresh, snapshot
from test_finals import FINAL_POINTS, event, final_played

from core.errors import ServiceError
from domain.prizes import FINAL_TABLE, PLACE, Contender, PrizeSpec, assign_prizes, call_order
from standings.prizes import prize_table
from tournaments.access import COMMAND_LINE
from tournaments.models import Prize
from tournaments.services.prizes import add_prize, set_one_each

pytestmark = pytest.mark.django_db


def finalist(n, rank, table, final_total):
    return Contender(n, n, f"P{n}", rank, rank * 10, 0, None, 5, "", None, table, final_total)


def test_the_lowest_in_the_final_at_each_table_wins_its_prize():
    field = [
        finalist(1, 1, 1, 30),
        finalist(2, 2, 2, 12),
        finalist(3, 3, 1, 25),
        finalist(4, 4, 2, 40),
    ]
    field.append(Contender(5, 5, "P5", 5, 50, 0, None, 1))  # not in the final
    prizes = [PrizeSpec(1, FINAL_TABLE, 1), PrizeSpec(2, FINAL_TABLE, 2), PrizeSpec(3, PLACE, 1)]
    awards = assign_prizes(prizes, field, one_each=False, decisions={})
    won = {a.prize.title: (a.winner.name, a.what) for a in awards}
    assert won == {
        "1st place": ("P1", "total 10"),
        "Lowest at table 1 of the final": ("P3", "a final total of 25"),
        "Lowest at table 2 of the final": ("P2", "a final total of 12"),
    }
    # Called after the other specials, the last table first, then the places.
    assert [a.prize.key for a in call_order(awards)] == [2, 1, 3]
    # With one prize each, 1st place's winner is passed over at their final table.
    one_each = assign_prizes(
        [PrizeSpec(1, PLACE, 1), PrizeSpec(2, FINAL_TABLE, 1)],
        [finalist(1, 1, 1, 10), finalist(3, 3, 1, 25)],
        one_each=True,
        decisions={},
    )
    assert one_each[1].winner.name == "P3"


def test_the_prize_table_gives_the_final_tables_prize_from_the_final_alone():
    tournament = final_played(event(), FINAL_POINTS)
    add_prize(tournament, FINAL_TABLE, 1, "", by=COMMAND_LINE)
    add_prize(tournament, PLACE, 1, "", by=COMMAND_LINE)
    set_one_each(tournament, False, by=COMMAND_LINE)
    table = prize_table(fresh(tournament))
    won = {a.prize.title: (a.winner.name, a.what) for a in table.awards}
    # Flo scores 1 a game in the final: 6 over its six games, the lowest at its one table.
    assert won["Lowest at table 1 of the final"] == ("Flo Ng", "a final total of 6")
    assert won["1st place"][0] == "Flo Ng"


@pytest.mark.parametrize(
    "table, flight, field, reason",
    [
        (2, "", "place", "Give the final's table: it has table 1."),
        (None, "", "place", "Give the final's table: it has table 1."),
        (1, "", "place", "There is a prize for table 1 of the final already."),
    ],
)
def test_a_final_tables_prize_needs_one_of_its_tables(table, flight, field, reason):
    w = event()
    add_prize(w.tournament, FINAL_TABLE, 1, "", by=COMMAND_LINE)
    before = snapshot(Prize)
    with pytest.raises(ServiceError) as refused:
        add_prize(fresh(w.tournament), FINAL_TABLE, table, "", by=COMMAND_LINE, flight=flight)
    assert (refused.value.field, str(refused.value)) == (field, reason)
    assert snapshot(Prize) == before


def test_without_a_final_there_is_no_final_tables_prize(client):
    from scoring_factories import seated_day

    w = seated_day(slug="plain")
    before = snapshot(Prize)
    with pytest.raises(ServiceError) as refused:
        add_prize(w.tournament, FINAL_TABLE, 1, "", by=COMMAND_LINE)
    assert (refused.value.field, str(refused.value)) == (
        "kind",
        "This event has no final: set one on the Rules page first.",
    )
    assert snapshot(Prize) == before
