"""The schedule's bound and its reason, where zero repeats is impossible."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from domain.seating.bounds import schedule_bound
from domain.seating.sessions import plan_sessions, schedule_repeats


@pytest.mark.parametrize(
    ("players", "size", "sessions", "value", "reason"),
    [
        (30, 6, 6, 25, "at least 5 repeats a session after the first: 5 tables for 6 seats"),
        (42, 7, 4, 18, "at least 6 repeats a session after the first: 6 tables for 7 seats"),
        (48, 8, 4, 36, "at least 12 repeats a session after the first: 6 tables for 8 seats"),
        (26, 6, 3, 2, "at least 1 repeat a session after the first: 5 tables for 6 seats"),
        (36, 6, 5, 2, "at most 3 sessions with no pair meeting twice (there is no pair of"),
        (16, 4, 6, 24, "6 sessions seat 144 pairs at their tables, and there are only 120"),
    ],
)
def test_a_bound_says_why_no_plan_can_do_better(players, size, sessions, value, reason):
    bound = schedule_bound(players, size, sessions)
    assert bound.value == value
    assert reason in bound.reason


@pytest.mark.parametrize(
    ("players", "size", "sessions", "twice"),
    [(30, 6, 6, 75), (26, 6, 3, 3), (42, 7, 4, 36), (48, 8, 4, 72), (36, 6, 4, 0)],
)
def test_the_fewest_with_no_pair_three_times_is_what_the_planner_reaches(
    players, size, sessions, twice
):
    # each session after the first must seat a pair of every earlier session's tables again,
    # different pairs for different sessions when none meets three times
    assert schedule_bound(players, size, sessions).at_most_twice == twice
    if twice and players <= 30:
        # the shuffle numbers bench/seating.py plans them with
        plan = plan_sessions(range(1, players + 1), size, sessions, seed=players + sessions)
        assert plan.total_repeats == twice == plan.at_most_twice


def test_no_reason_where_nothing_forces_a_repeat():
    assert schedule_bound(36, 6, 3).value == 0 and schedule_bound(36, 6, 3).reason == ""
    assert schedule_bound(32, 4, 10).value == 0


def test_a_session_against_the_days_before_counts_on_the_first_too():
    day = [list(range(i, 30, 5)) for i in range(5)]  # 5 tables of 6
    bound = schedule_bound(30, 6, 2, [day])
    assert bound.value == 10  # 5 on the first session against the day before, 5 on the second


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(4, 24),
    size=st.integers(2, 6),
    sessions=st.integers(1, 4),
    seed=st.integers(0, 1000),
)
def test_the_bound_is_never_above_a_plan_that_exists(players, size, sessions, seed):
    plan = plan_sessions(range(players), size, sessions, seed=seed, max_evals=2_000)
    bound = schedule_bound(players, size, sessions)
    assert bound.value <= sum(schedule_repeats(plan.sessions))
    assert bound.value == plan.lower_bound
    most = max(
        (sum(1 for tables in plan.sessions for t in tables if a in t and b in t))
        for a in range(players)
        for b in range(a + 1, players)
    )
    if most <= 2:  # then the fewest with no pair three times holds for it too
        assert bound.at_most_twice <= sum(schedule_repeats(plan.sessions))
