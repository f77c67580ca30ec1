"""Seating a planned day: how the tables actually seated compare with the plan.

Pure Python, no Django. The planner (:mod:`domain.seating.sessions`) decides the tables;
this module numbers them so players keep the table number the plan gave them, counts who moved,
checks that a plan kept whole still respects today's pins and keep-apart pairs, and works out
the repeats of a schedule that is part seated, part planned.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from domain.seating.pairs import (
    History,
    broken_keep_aparts,
    count_repeat_pairs,
    keep_apart_set,
    table_sizes,
)

Tables = list[list[int]]


@dataclass(frozen=True)
class PlanChanges:
    """Players the plan seats who no longer play (``gone``) and players it does not know
    (``new``), sorted ids."""

    gone: list[int]
    new: list[int]

    @property
    def count(self) -> int:
        return len(self.gone) + len(self.new)


def plan_changes(planned: Iterable[int], playing: Iterable[int]) -> PlanChanges:
    before, now = set(planned), set(playing)
    return PlanChanges(gone=sorted(before - now), new=sorted(now - before))


def _table_of(tables: Sequence[Sequence[int]]) -> dict[int, int]:
    return {p: number for number, table in enumerate(tables, start=1) for p in table}


def align_to_plan(
    tables: Sequence[Sequence[int]],
    planned: Sequence[Sequence[int]],
    pinned: Mapping[int, int] | None = None,
) -> Tables:
    """``tables`` renumbered so each table takes the planned number of the planned table it
    shares most players with (largest overlaps first), the rest the numbers left over.

    Players read their table number off the printed plan, so a table whose size changed keeps
    its number instead of moving to the end. When the renumbering would move a pinned player
    off their table, ``tables`` are returned in their own order, which the seating respects.
    """
    count = len(tables)
    planned_at = _table_of(planned)
    overlaps: list[tuple[int, int, int]] = []
    for index, table in enumerate(tables):
        shared: dict[int, int] = {}
        for player in table:
            number = planned_at.get(player)
            if number is not None and number <= count:
                shared[number] = shared.get(number, 0) + 1
        overlaps.extend((-n, index, number) for number, n in shared.items())
    numbered: dict[int, int] = {}  # index in ``tables`` -> table number
    for _, index, number in sorted(overlaps):
        if index not in numbered and number not in numbered.values():
            numbered[index] = number
    spare = iter(sorted(set(range(1, count + 1)) - set(numbered.values())))
    for index in range(count):
        if index not in numbered:
            numbered[index] = next(spare)
    aligned: Tables = [[] for _ in range(count)]
    for index, table in enumerate(tables):
        aligned[numbered[index] - 1] = sorted(table)
    if breaks_pins(aligned, pinned or {}):
        return [sorted(table) for table in tables]
    return aligned


def moved_from_plan(tables: Sequence[Sequence[int]], planned: Sequence[Sequence[int]]) -> int:
    """Players in both the seating and the plan whose table number is not the planned one."""
    planned_at = _table_of(planned)
    return sum(
        1
        for player, number in _table_of(tables).items()
        if player in planned_at and planned_at[player] != number
    )


def breaks_pins(tables: Sequence[Sequence[int]], pinned: Mapping[int, int]) -> bool:
    where = _table_of(tables)
    return any(where.get(player, table) != table for player, table in pinned.items())


def breaks_rules(
    tables: Sequence[Sequence[int]],
    pinned: Mapping[int, int],
    keep_apart: Iterable[tuple[int, int]],
) -> bool:
    """A pinned player off their table, or a keep-apart pair at one table (pins and pairs the
    organiser may have set after the plan was made)."""
    apart = keep_apart_set(keep_apart)
    return breaks_pins(tables, pinned) or any(broken_keep_aparts(t, apart) for t in tables)


def seats_everyone_evenly(
    tables: Sequence[Sequence[int]], players: Iterable[int], max_table_size: int
) -> bool:
    """Every player exactly once, nobody else, tables as even as the rules allow."""
    seated = sorted(p for table in tables for p in table)
    sizes = sorted((len(t) for t in tables), reverse=True)
    return seated == sorted(players) and sizes == table_sizes(len(seated), max_table_size)


def running_repeats(history: History, days: Sequence[Sequence[Sequence[int]] | None]) -> list[int]:
    """Repeat pairs of each day of a schedule against ``history`` and the days before it; a
    day given as None (neither seated nor planned) seats nobody and counts 0."""
    earlier: list[Sequence[Sequence[int]]] = list(history)
    counts = []
    for tables in days:
        if tables is None:
            counts.append(0)
            continue
        counts.append(count_repeat_pairs(tables, earlier))
        earlier.append(tables)
    return counts


def pairs_again(repeats: int, bound: int) -> str:
    """What a volunteer reads about the pairs of players who share a table again after an
    earlier day: "pairs who have sat together before: 2 (fewest possible: 2)"; never "repeat
    pairs" and "lower bound". The same words on every page, printout and command, so the
    figures can be compared at a glance."""
    return f"pairs who have sat together before: {repeats} (fewest possible: {bound})"


def schedule_line(repeats: int, bound: int, reason: str = "", at_most_twice: int = 0) -> str:
    """A schedule's pairs who sit together again over its days, in :func:`pairs_again`'s
    words, with why no schedule can have fewer when that is above 0 ("since at least 5
    repeats a session after the first: 5 tables for 6 seats at a table"), and the fewest with
    no pair at a table three times when that is more (the planner takes it: "75 if no pair
    sits together three times")."""
    if not reason or bound <= 0:
        return pairs_again(repeats, bound)
    twice = f"; {at_most_twice} if no pair sits together three times" if at_most_twice else ""
    return (
        f"pairs who have sat together before: {repeats} (fewest possible: {bound}, "
        f"since {reason}{twice})"
    )
