"""Clubs spread on every day, as an option: below every repeat, never at its cost."""

from __future__ import annotations

import pytest

from domain.seating.day import seat
from domain.seating.pairs import club_spread
from domain.seating.sessions import plan_sessions

# 9 of one club and 6 of another among 42 players at 6 tables of 7
CLUBS = dict.fromkeys(range(9), "Lakeside") | dict.fromkeys(range(9, 15), "Pines")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_later_day_spreads_the_clubs_with_no_more_repeats(seed):
    day_1 = seat(range(42), 7, seed=seed, clubs=CLUBS).tables
    plain = seat(range(42), 7, seed=seed, history=[day_1], clubs=CLUBS, max_evals=200_000)
    spread = seat(
        range(42),
        7,
        seed=seed,
        history=[day_1],
        clubs=CLUBS,
        clubs_every_day=True,
        max_evals=200_000,
    )
    assert spread.repeat_pairs == plain.repeat_pairs == spread.lower_bound
    assert club_spread(spread.tables, CLUBS) == (2, 2)


def test_without_the_option_later_days_ignore_clubs():
    day_1 = seat(range(42), 7, seed=4, clubs=CLUBS).tables
    plain = seat(range(42), 7, seed=4, history=[day_1])
    assert seat(range(42), 7, seed=4, history=[day_1], clubs=CLUBS) == plain


def test_a_plan_spreads_the_clubs_in_every_session():
    plan = plan_sessions(range(49), 7, 4, seed=5, clubs=CLUBS, clubs_every_day=True)
    assert plan.total_repeats == plan.lower_bound == 0
    first_only = plan_sessions(range(49), 7, 4, seed=5, clubs=CLUBS)
    assert club_spread(first_only.sessions[0], CLUBS) == (2, 2)
    # without the option a later session may seat many of one club together
    assert max(club_spread(tables, CLUBS)[0] for tables in first_only.sessions[1:]) > 2
    assert [club_spread(tables, CLUBS) for tables in plan.sessions] == [(2, 2)] * 4
