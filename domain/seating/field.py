"""What a seating is asked: the players, the table size, the earlier days and what binds them.

Every entry point (:func:`domain.seating.day.seat`, :func:`domain.seating.sessions.plan_sessions`
and :func:`domain.seating.sessions.replan_session`) takes the same keywords,
:class:`SeatingOptions`, and turns them into one :class:`SeatingField`, which the start seatings,
the bounds and the search read.

Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TypedDict

from domain.seating.feasibility import Namer, check_feasible, check_listed_once, namer
from domain.seating.pairs import (
    History,
    Pair,
    club_groups,
    keep_apart_set,
    meeting_pairs,
    table_sizes,
)

__all__ = ["SeatingField", "SeatingOptions"]


class SeatingOptions(TypedDict, total=False):
    """The keywords every seating takes after its players and table size, all optional."""

    history: History  # the days (sessions) already seated, oldest first; may name players gone
    keep_apart: Iterable[tuple[int, int]]  # pairs who must never share a table
    pinned: Mapping[int, int] | None  # player id -> 1-based table number
    clubs: Mapping[int, str] | None  # player id -> club (blank for none), spread without history
    clubs_every_day: bool  # spread the clubs with a history too (below every repeat)
    names: Mapping[int, str] | None  # how refusals name a player (else by id)
    time_limit: float  # seconds: a wall-clock safety net
    max_evals: int | None  # the search's work (swap evaluations), deterministic from the seed


@dataclass(frozen=True)
class SeatingField:
    """The players to seat (sorted by id; the search numbers them ``0 .. n-1`` in that order)
    with the rules that bind them, keep-apart pairs and pins reduced to the players present."""

    ids: list[int]
    max_table_size: int
    sizes: list[int]  # as table_sizes balances them
    history: list[Sequence[Sequence[int]]]
    apart: list[Pair]  # keep-apart pairs of players present, sorted
    pins: dict[int, int]  # player present -> 1-based table number
    clubs: Mapping[int, str] | None
    name: Namer
    clubs_every_day: bool = False

    @classmethod
    def of(
        cls, players: Iterable[int], max_table_size: int, options: SeatingOptions
    ) -> SeatingField:
        """The field of ``players``; a player listed twice, or a table size below 2, is
        refused (:class:`~domain.seating.pairs.SeatingError`)."""
        ids = list(players)
        name = namer(options.get("names"))
        check_listed_once(ids, name)
        sizes = table_sizes(len(ids), max_table_size)
        ids.sort()
        present = set(ids)
        pinned = options.get("pinned") or {}
        apart = keep_apart_set(options.get("keep_apart", ()))
        return cls(
            ids=ids,
            max_table_size=max_table_size,
            sizes=sizes,
            history=list(options.get("history", ())),
            apart=sorted(pr for pr in apart if pr[0] in present and pr[1] in present),
            pins={p: int(t) for p, t in pinned.items() if p in present},
            clubs=options.get("clubs"),
            name=name,
            clubs_every_day=bool(options.get("clubs_every_day", False)),
        )

    def with_history(self, history: History) -> SeatingField:
        """The same players and rules after ``history``."""
        return replace(self, history=list(history))

    def check(self) -> None:
        """Refuse, naming the players, pins and keep-apart pairs no seating honours."""
        check_feasible(self.ids, self.sizes, self.pins, self.apart, self.name)

    @cached_property
    def index(self) -> dict[int, int]:
        """Player id -> the player's number in the search."""
        return {p: i for i, p in enumerate(self.ids)}

    @cached_property
    def pin_tables(self) -> dict[int, int]:
        """The pins as player number -> table index (0-based)."""
        return {self.index[p]: t - 1 for p, t in self.pins.items()}

    @cached_property
    def met(self) -> list[Pair]:
        """The pairs of players present who met in the history."""
        index = self.index
        return [pr for pr in meeting_pairs(self.history) if pr[0] in index and pr[1] in index]

    @cached_property
    def club_groups(self) -> list[list[int]]:
        """The clubs to spread (ids, clubs of two or more): only when there is no history,
        unless they are spread every day."""
        if self.history and not self.clubs_every_day:
            return []
        return club_groups(self.ids, self.clubs)

    def tab_of(self, tables: Sequence[Sequence[int]]) -> list[int]:
        """``tab[i]``: the table index of player number ``i`` in ``tables`` (of ids)."""
        tab = [0] * len(self.ids)
        index = self.index
        for t, table in enumerate(tables):
            for p in table:
                tab[index[p]] = t
        return tab

    def tables_of(self, tab: Sequence[int]) -> list[list[int]]:
        """The tables (sorted ids) of ``tab`` (player number -> table index)."""
        tables: list[list[int]] = [[] for _ in self.sizes]
        for i, t in enumerate(tab):
            tables[t].append(self.ids[i])
        for table in tables:
            table.sort()
        return tables
