"""The same field, rules and shuffle number give the same plan on any machine at any load: the
work budgets end every phase, and the clock is only a safety net that says when it cut in."""

from __future__ import annotations

import itertools
import time

import pytest

import domain.seating.day
import domain.seating.search
import domain.seating.sessions
from domain.seating.day import seat
from domain.seating.sessions import plan_sessions, replan_session


def busy_clock(monkeypatch, step):
    """A machine so busy that every look at the clock finds ``step`` seconds gone."""
    ticks = itertools.count()
    start = time.perf_counter()

    def clock():
        return start + step * next(ticks)

    for module in (domain.seating.day, domain.seating.search, domain.seating.sessions):
        monkeypatch.setattr(module.time, "perf_counter", clock)


def test_thirty_at_tables_of_five_over_six_sessions_is_the_same_plan_quiet_or_busy(monkeypatch):
    quiet = plan_sessions(range(30), 5, 6, seed=4, max_evals=400_000, time_limit=600)
    assert not quiet.cut_short
    busy_clock(monkeypatch, 0.001)  # a 1 ms gap at each look: minutes for the whole plan
    busy = plan_sessions(range(30), 5, 6, seed=4, max_evals=400_000, time_limit=10**6)
    assert busy.sessions == quiet.sessions and not busy.cut_short


def test_a_small_and_a_huge_time_limit_give_the_same_plan_when_the_work_ends_first():
    short = plan_sessions(range(43), 7, 6, seed=9, max_evals=100_000, time_limit=5)
    long = plan_sessions(range(43), 7, 6, seed=9, max_evals=100_000, time_limit=10_000)
    assert short.sessions == long.sessions
    assert not short.cut_short and not long.cut_short


def test_the_clock_says_when_it_cut_a_plan_short(monkeypatch):
    busy_clock(monkeypatch, 1.0)  # each look at the clock: a second gone
    plan = plan_sessions(range(30), 5, 6, seed=4, time_limit=5)
    assert plan.cut_short
    assert sorted(p for t in plan.sessions[-1] for p in t) == list(range(30))


@pytest.mark.parametrize("limit", [0.0, 30.0])
def test_one_day_and_a_reseat_say_when_the_clock_cut_them_short(limit):
    # three sessions of 24 at tables of 4 leave a fourth no clean start: its search runs
    history = plan_sessions(range(24), 4, 3, seed=0, max_evals=1).sessions
    day = seat(range(24), 4, seed=1, history=history, time_limit=limit)
    again = replan_session(day.tables, range(1, 24), 4, seed=1, history=history, time_limit=limit)
    assert day.cut_short is again.cut_short is (limit == 0)
