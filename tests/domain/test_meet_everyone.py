"""Everyone meets everyone: the fewest sessions found, and the bound on them."""

from __future__ import annotations

import itertools

import pytest

from domain.seating.meet_everyone import meet_everyone, meet_everyone_bound
from domain.seating.pairs import SeatingError, table_sizes


def everyone_met(sessions, players):
    met = {pair for tables in sessions for t in tables for pair in itertools.combinations(t, 2)}
    return met == set(itertools.combinations(sorted(players), 2))


@pytest.mark.parametrize(
    ("players", "size", "bound"), [(16, 4, 5), (21, 3, 10), (20, 4, 7), (24, 6, 5), (30, 6, 6)]
)
def test_every_pair_meets_and_never_in_fewer_sessions_than_the_bound(players, size, bound):
    ids = list(range(100, 100 + players))
    found = meet_everyone(ids, size, seed=2)
    assert found.bound == bound == meet_everyone_bound(players, size)[0]
    assert everyone_met(found.sessions, ids)
    assert len(found.sessions) >= found.bound
    for tables in found.sessions:
        assert sorted(map(len, tables), reverse=True) == table_sizes(players, size)
        assert sorted(p for t in tables for p in t) == ids


def test_a_design_meets_everyone_at_the_bound():
    found = meet_everyone(list(range(49)), 7, seed=0)
    assert len(found.sessions) == found.bound == 8


def test_the_greedy_cover_is_within_two_sessions_of_the_published_values():
    # the Happy Diner table: 20 at tables of at most 4 in 7, 24 at 6 in 6, 30 at 6 in 7
    for players, size, published in ((20, 4, 7), (24, 6, 6), (30, 6, 7)):
        found = meet_everyone(list(range(players)), size, seed=1)
        assert len(found.sessions) <= published + 2


def test_the_bound_says_why():
    assert meet_everyone_bound(20, 4) == (
        7,
        "each player has 19 others to meet and meets at most 3 a session",
    )


def test_too_many_sessions_are_refused():
    with pytest.raises(SeatingError, match="at least 49 sessions"):
        meet_everyone(list(range(50)), 2, seed=0, most=20)
