"""A pair's k-th meeting weighs more than its (k-1)-th: plans spread the repeats over pairs."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from domain.seating.pairs import table_sizes
from domain.seating.sessions import plan_sessions


def meetings(sessions):
    """How often each pair sits together over the sessions."""
    count: Counter[tuple[int, int]] = Counter()
    for tables in sessions:
        for table in tables:
            count.update(itertools.combinations(sorted(table), 2))
    return count


def weighed(sessions):
    """The planner's measure: a pair meeting c times costs (c - 1) ** 2."""
    return sum((c - 1) ** 2 for c in meetings(sessions).values())


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_good_sam_26_at_tables_of_6_never_seats_a_pair_together_on_all_three_days(seed):
    # 5 tables for a table of 6 forces a repeat each day after the first; with only two, one
    # pair would sit together every day, so the plan takes a third repeat instead
    plan = plan_sessions(range(1, 27), 6, 3, seed=seed)
    count = meetings(plan.sessions)
    assert max(count.values()) == 2
    assert plan.total_repeats == 3
    assert sorted(Counter(count.values()).items()) == [(1, 159), (2, 3)]


def _splits(players, sizes):
    """Every seating of ``players`` at tables of ``sizes`` (tables of one size unordered): the
    first player's table takes each size there is in turn."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes), reverse=True):
        left_sizes = list(sizes)
        left_sizes.remove(size)
        for others in itertools.combinations(rest, size - 1):
            left = [p for p in rest if p not in others]
            for tail in _splits(left, left_sizes):
                yield [[first, *others], *tail]


@pytest.mark.parametrize(
    ("n", "size", "sessions"),
    [(5, 3, 4), (6, 3, 3), (6, 3, 4), (7, 4, 3), (7, 4, 4), (8, 4, 3), (8, 4, 4), (9, 3, 3)],
)
def test_no_pair_meets_more_often_than_the_best_schedule_needs(n, size, sessions):
    """Every schedule tried (session 1 fixed: without history it is arbitrary): the plan's
    most meetings of one pair is the fewest any schedule manages, and so is its measure."""
    seatings = list(_splits(list(range(n)), sorted(table_sizes(n, size), reverse=True)))
    fewest_most, least = None, None
    for rest in itertools.product(seatings, repeat=sessions - 1):
        count = meetings([seatings[0], *rest])
        most = max(count.values())
        fewest_most = most if fewest_most is None else min(fewest_most, most)
        cost = sum((c - 1) ** 2 for c in count.values())
        least = cost if least is None else min(least, cost)
    plan = plan_sessions(range(n), size, sessions, seed=0, max_evals=200_000)
    assert max(meetings(plan.sessions).values()) == fewest_most
    assert weighed(plan.sessions) == least
