"""Seating within flights: each flight at tables of its own, numbered one flight after another.

Pure Python, no Django. When an event seats within flights, its players are split into groups
(one per flight, in the order the rules list the flights, then the players with no flight), and
every seating, plan and bound is made per group by the ordinary planners; the tables are then
numbered group after group ("Flight 50-59: tables 1-3, flight 60-69: tables 4-6").

A group too small for a table of its own (one player: a table needs two) sits with the
group listed next to it, the following one or, for the last, the one before, and the seating
says so; a player never sits alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from domain.seating.pairs import SeatingError, table_sizes
from domain.seating.sessions import SessionPlan

__all__ = [
    "FlightGroup",
    "flight_groups",
    "group_pins",
    "joined_plans",
    "joined_tables",
    "mixed_flights",
    "seat_groups",
]

NO_FLIGHT = ""
MIN_GROUP = 2  # a table seats at least two


@dataclass(frozen=True)
class FlightGroup:
    """Players seated together: one flight's (or two flights', when one was too small)."""

    flights: tuple[str, ...]  # the flights seated here, in the rules' order ("" for none)
    ids: tuple[int, ...]

    @property
    def label(self) -> str:
        return " and ".join(_flight_words(f) for f in self.flights)

    def table_count(self, max_table_size: int) -> int:
        return len(table_sizes(len(self.ids), max_table_size))


def _flight_words(flight: str) -> str:
    return f"flight {flight}" if flight else "players with no flight"


def flight_groups(
    players: Sequence[int], flight_of: Mapping[int, str], flights: Sequence[str]
) -> tuple[list[FlightGroup], list[str]]:
    """The groups ``players`` are seated in, and a note for each flight that had to sit with
    another ("Flight 80+ has one player, who sits with flight 70-79.")."""
    order = {name: i for i, name in enumerate(flights)}
    members: dict[str, list[int]] = {}
    for p in players:
        flight = flight_of.get(p, NO_FLIGHT)
        members.setdefault(flight if flight in order else NO_FLIGHT, []).append(p)
    rank = lambda flight: order.get(flight, len(order))  # noqa: E731
    groups = [
        FlightGroup((name,), tuple(sorted(members[name]))) for name in sorted(members, key=rank)
    ]
    notes: list[str] = []
    small = _first_small(groups)
    while small is not None and len(groups) > 1:
        alone = groups.pop(small)
        into = min(small, len(groups) - 1)  # the group after it, or the one before the last
        notes.append(
            f"{_flight_words(alone.flights[0]).capitalize()} has one player, who sits with "
            f"{groups[into].label}."
        )
        flights_here = tuple(sorted(groups[into].flights + alone.flights, key=rank))
        groups[into] = FlightGroup(flights_here, tuple(sorted(groups[into].ids + alone.ids)))
        small = _first_small(groups)
    return groups, notes


def _first_small(groups: Sequence[FlightGroup]) -> int | None:
    return next((i for i, group in enumerate(groups) if len(group.ids) < MIN_GROUP), None)


def group_pins(
    groups: Sequence[FlightGroup],
    pins: Mapping[int, int],
    max_table_size: int,
    name: Callable[[int], str],
) -> list[dict[int, int]]:
    """Each group's pins as table numbers within the group (its first table is 1); a pin to a
    table another group sits at is refused, naming the player and the tables of their flight."""
    local: list[dict[int, int]] = []
    first = 1
    for group in groups:
        count = group.table_count(max_table_size)
        last = first + count - 1
        mine: dict[int, int] = {}
        for p in group.ids:
            if p not in pins:
                continue
            if not first <= pins[p] <= last:
                tables = f"table {first}" if count == 1 else f"tables {first} to {last}"
                raise SeatingError(
                    f"{name(p)} is pinned to table {pins[p]}, but {group.label} sits at "
                    f"{tables} when each flight is seated at tables of its own. Change the pin."
                )
            mine[p] = pins[p] - first + 1
        local.append(mine)
        first = last + 1
    return local


def joined_tables(per_group: Sequence[Sequence[Sequence[int]]]) -> list[list[int]]:
    """The groups' tables numbered one group after another."""
    return [list(table) for tables in per_group for table in tables]


def mixed_flights(tables: Sequence[Sequence[int]], groups: Sequence[FlightGroup]) -> list[int]:
    """The 1-based numbers of the tables that seat players of two groups (none, when the
    tables keep the flights apart as these groups do)."""
    group_of = {p: i for i, group in enumerate(groups) for p in group.ids}
    return [
        number
        for number, table in enumerate(tables, start=1)
        if len({group_of.get(p) for p in table}) > 1
    ]


def seat_groups(
    groups: Sequence[FlightGroup],
    pins: Mapping[int, int],
    max_table_size: int,
    name: Callable[[int], str],
    seat_group: Callable[[FlightGroup, dict[int, int]], Sequence[Sequence[int]]],
) -> list[list[int]]:
    """One seating of every group, each by ``seat_group`` (given the group and its pins within
    it), numbered one group after another."""
    local = group_pins(groups, pins, max_table_size, name)
    return joined_tables([seat_group(group, p) for group, p in zip(groups, local, strict=True)])


def joined_plans(
    plans: Sequence[SessionPlan], seed: int, labels: Sequence[str] = ()
) -> SessionPlan:
    """The groups' plans as one: each session's tables group after group. No pair of two groups
    ever meets, so the repeats and the bounds add up; each bound's reason is said with its
    group's label ("flight 60-69: ...")."""
    sessions = [
        joined_tables(tables) for tables in zip(*(plan.sessions for plan in plans), strict=True)
    ]
    repeats = [sum(counts) for counts in zip(*(plan.repeats for plan in plans), strict=True)]
    methods = list(dict.fromkeys(plan.method for plan in plans))
    named = labels or [f"group {i}" for i in range(1, len(plans) + 1)]
    reasons = [
        f"{label}: {plan.bound_reason}"
        for label, plan in zip(named, plans, strict=True)
        if plan.bound_reason
    ]
    twice = sum(plan.at_most_twice or plan.lower_bound for plan in plans)
    return SessionPlan(
        sessions=sessions,
        repeats=repeats,
        lower_bound=sum(plan.lower_bound for plan in plans),
        method="each flight on its own: " + ", ".join(methods),
        seed=seed,
        cut_short=any(plan.cut_short for plan in plans),
        bound_reason="; ".join(reasons),
        at_most_twice=twice if any(plan.at_most_twice for plan in plans) else 0,
    )
