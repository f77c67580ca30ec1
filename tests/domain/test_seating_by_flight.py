"""Seating within flights (issue 27): the groups, their table numbers, pins within a flight, and
every seating keeping the flights apart at tables as even as each flight allows."""

import pytest
from hypothesis import given, settings, strategies as st

from domain.seating.by_flight import (
    flight_groups,
    group_pins,
    joined_plans,
    mixed_flights,
    seat_groups,
)
from domain.seating.day import seat
from domain.seating.pairs import SeatingError, table_sizes
from domain.seating.sessions import SessionPlan

AGES = ["50-59", "60-69", "70-79", "80+"]


def test_groups_follow_the_rules_order_then_the_players_with_no_flight():
    flight_of = {1: "70-79", 2: "50-59", 3: "", 4: "50-59", 5: "70-79", 6: "", 7: "Gold"}
    groups, notes = flight_groups(range(1, 8), flight_of, AGES)
    # "Gold" is not one of the event's flights, so it counts as none.
    assert [(g.flights, g.ids) for g in groups] == [
        (("50-59",), (2, 4)),
        (("70-79",), (1, 5)),
        (("",), (3, 6, 7)),
    ]
    assert notes == []
    assert groups[2].label == "players with no flight"


def test_a_flight_of_one_sits_with_the_flight_listed_after_it_or_the_last_before_it():
    groups, notes = flight_groups(
        [1, 2, 3, 4, 5], {1: "50-59", 2: "60-69", 3: "60-69", 4: "80+", 5: "80+"}, AGES
    )
    assert [(g.flights, g.ids) for g in groups] == [
        (("50-59", "60-69"), (1, 2, 3)),
        (("80+",), (4, 5)),
    ]
    assert notes == ["Flight 50-59 has one player, who sits with flight 60-69."]
    groups, notes = flight_groups([1, 2, 3], {1: "50-59", 2: "50-59", 3: "80+"}, AGES)
    assert [(g.flights, g.ids) for g in groups] == [(("50-59", "80+"), (1, 2, 3))]
    assert notes == ["Flight 80+ has one player, who sits with flight 50-59."]
    assert groups[0].label == "flight 50-59 and flight 80+"


def test_one_player_alone_in_the_event_is_one_group():
    groups, notes = flight_groups([9], {9: "80+"}, AGES)
    assert [(g.flights, g.ids) for g in groups] == [(("80+",), (9,))]
    assert notes == []


def test_pins_become_table_numbers_within_the_flight_or_are_refused_with_the_tables():
    groups, _ = flight_groups(
        range(1, 15), {p: "50-59" if p <= 8 else "60-69" for p in range(1, 15)}, AGES
    )
    # 8 players at tables of at most 4: tables 1-2; 6 players: tables 3-4.
    assert group_pins(groups, {1: 2, 9: 4}, 4, str) == [{1: 2}, {9: 2}]
    with pytest.raises(SeatingError) as refused:
        group_pins(groups, {9: 1}, 4, lambda p: f"Player {p}")
    assert str(refused.value) == (
        "Player 9 is pinned to table 1, but flight 60-69 sits at tables 3 to 4 when each "
        "flight is seated at tables of its own. Change the pin."
    )


def test_mixed_tables_are_named():
    groups, _ = flight_groups([1, 2, 3, 4], {1: "50-59", 2: "50-59", 3: "80+", 4: "80+"}, AGES)
    assert mixed_flights([[1, 2], [3, 4]], groups) == []
    assert mixed_flights([[1, 3], [2, 4]], groups) == [1, 2]


def test_plans_join_session_by_session_with_repeats_and_bounds_added():
    a = SessionPlan(
        sessions=[[[1, 2]], [[1, 2]]], repeats=[0, 1], lower_bound=1, method="search", seed=5
    )
    b = SessionPlan(
        sessions=[[[3, 4], [5, 6]], [[3, 5], [4, 6]]],
        repeats=[0, 0],
        lower_bound=0,
        method="affine plane",
        seed=5,
    )
    joined = joined_plans([a, b], 5)
    assert joined.sessions == [[[1, 2], [3, 4], [5, 6]], [[1, 2], [3, 5], [4, 6]]]
    assert joined.repeats == [0, 1] and joined.lower_bound == 1
    assert joined.method == "each flight on its own: search, affine plane"


@settings(max_examples=40, deadline=None)
@given(
    flights=st.lists(
        st.sampled_from(["50-59", "60-69", "70-79", "80+", ""]), min_size=2, max_size=40
    ),
    max_size=st.integers(min_value=2, max_value=8),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_every_seating_within_flights_keeps_them_apart_and_even(flights, max_size, seed):
    flight_of = dict(enumerate(flights, start=1))
    groups, notes = flight_groups(list(flight_of), flight_of, AGES)
    assert sorted(p for g in groups for p in g.ids) == sorted(flight_of)  # nobody lost
    assert all(len(g.ids) >= 2 for g in groups) or len(groups) == 1
    tables = seat_groups(
        groups,
        {},
        max_size,
        str,
        lambda group, pins: (
            seat(group.ids, max_size, seed=seed, pinned=pins, max_evals=2_000).tables
        ),
    )
    assert sorted(p for t in tables for p in t) == sorted(flight_of)
    assert mixed_flights(tables, groups) == []
    expected = [s for g in groups for s in table_sizes(len(g.ids), max_size)]
    assert [len(t) for t in tables] == expected  # group after group, each as even as it can be
    merged = sum(len(g.flights) - 1 for g in groups)
    assert len(notes) == merged
