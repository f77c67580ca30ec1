"""Seating several sessions at once, so that over all of them every pair meets as few times as
possible (the "social golfer problem").

Pure Python, no Django. The public entry points are :func:`plan_sessions` (seat every remaining
session of an event or season together), :func:`replan_session` (seat one planned session again
after the field changed, keeping as much of the plan as the change allows) and
:func:`schedule_lower_bound` (a proven bound on the repeats of any schedule).

A *repeat* is counted as on a single day (see :mod:`tournaments.seating`): a pair sitting together
in a session after having shared a table in any earlier session (of the history or of the plan)
counts once in that session. The total over the planned sessions is what the planner minimises.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.seating import (
    History,
    SeatingResult,
    count_repeat_pairs,
    repeat_lower_bound,
    seat,
    table_sizes,
)

__all__ = [
    "SessionPlan",
    "plan_sessions",
    "replan_session",
    "schedule_lower_bound",
    "schedule_repeats",
]

Tables = list[list[int]]


@dataclass(frozen=True)
class SessionPlan:
    sessions: list[Tables]  # sessions[d][t] = sorted player ids at table t+1 of planned session d
    repeats: list[int]  # per planned session: pairs meeting again (history and earlier sessions)
    lower_bound: int  # proven lower bound on sum(repeats) for any schedule of these sessions
    method: str  # how the plan was made, in plain words ("affine plane", "search", ...)
    seed: int

    @property
    def total_repeats(self) -> int:
        return sum(self.repeats)


def schedule_repeats(
    sessions: Sequence[Sequence[Sequence[int]]], history: History = ()
) -> list[int]:
    """Repeat pairs of each session against the history and the sessions before it."""
    earlier: list[Sequence[Sequence[int]]] = list(history)
    repeats = []
    for tables in sessions:
        repeats.append(count_repeat_pairs(list(tables), earlier))
        earlier.append(tables)
    return repeats


def schedule_lower_bound(
    player_count: int, max_table_size: int, sessions: int, history: History = ()
) -> int:
    """A proven lower bound on the total repeats of ``sessions`` sessions of ``player_count``
    players at tables of at most ``max_table_size`` (balanced as :func:`table_sizes` balances).

    Without history: the sessions seat ``sessions * sum(C(s, 2))`` pairs, but only
    ``C(n, 2)`` pairs are distinct, and each player meets ``sum(s_p - 1)`` others against only
    ``n - 1`` distinct ones. With history, the first session's bound against it is added
    (every later session can only add to it).
    """
    sizes = table_sizes(player_count, max_table_size)
    if sessions <= 0 or not sizes:
        return 0
    seated_pairs = sessions * sum(s * (s - 1) // 2 for s in sizes)
    distinct = player_count * (player_count - 1) // 2
    pair_bound = max(0, seated_pairs - distinct)
    # The smallest tables bound what each player must meet.
    per_player = max(0, sessions * (min(sizes) - 1) - (player_count - 1))
    degree_bound = (player_count * per_player + 1) // 2
    first = 0
    if history:
        first = repeat_lower_bound(range(player_count), sizes, history)
    return max(pair_bound, degree_bound, first)


def plan_sessions(
    players: Iterable[int],
    max_table_size: int,
    sessions: int,
    *,
    seed: int,
    history: History = (),
    keep_apart: Iterable[tuple[int, int]] = (),
    pinned: Mapping[int, int] | None = None,
    clubs: Mapping[int, str] | None = None,
    names: Mapping[int, str] | None = None,
    time_limit: float = 10.0,
) -> SessionPlan:
    """Seat ``sessions`` sessions of ``players`` together.

    ``history`` holds the sessions already played (or seated), oldest first; ``pinned`` (player
    id -> 1-based table) and ``keep_apart`` hold in every session; ``clubs`` spreads the clubs in
    the first session when there is no history. Raises :class:`SeatingError` when the
    constraints cannot be met. ``time_limit`` (seconds) bounds the whole plan.
    """
    ids = sorted(players)
    keep_apart = list(keep_apart)
    earlier: list[Sequence[Sequence[int]]] = list(history)
    planned: list[Tables] = []
    for number in range(sessions):
        result = seat(
            ids,
            max_table_size,
            seed=seed + number,
            history=earlier,
            keep_apart=keep_apart,
            pinned=pinned,
            names=names,
            clubs=clubs if not earlier else None,
            time_limit=time_limit / max(sessions, 1),
        )
        planned.append(result.tables)
        earlier.append(result.tables)
    bound = _bound_for(ids, max_table_size, sessions, history)
    return SessionPlan(
        sessions=planned,
        repeats=schedule_repeats(planned, history),
        lower_bound=bound,
        method="session by session",
        seed=seed,
    )


def _bound_for(ids: list[int], max_table_size: int, sessions: int, history: History) -> int:
    index = {p: i for i, p in enumerate(ids)}
    renumbered = [[[index[p] for p in t if p in index] for t in day] for day in history]
    return schedule_lower_bound(len(ids), max_table_size, sessions, renumbered)


def replan_session(
    planned: Sequence[Sequence[int]],
    players: Iterable[int],
    max_table_size: int,
    *,
    seed: int,
    history: History = (),
    keep_apart: Iterable[tuple[int, int]] = (),
    pinned: Mapping[int, int] | None = None,
    names: Mapping[int, str] | None = None,
    time_limit: float = 5.0,
) -> SeatingResult:
    """Seat one planned session for the players now playing (a withdrawal, a late entry).

    Keeps the planned tables when they still fit; otherwise seats afresh against ``history``.
    The result's ``repeat_pairs`` and ``lower_bound`` are against ``history``.
    """
    ids = sorted(players)
    sizes = table_sizes(len(ids), max_table_size)
    present = set(ids)
    kept = [sorted(p for p in table if p in present) for table in planned]
    if sorted(len(t) for t in kept) == sorted(sizes) and sum(map(len, kept)) == len(ids):
        kept.sort(key=len, reverse=True)
        repeats = count_repeat_pairs(kept, history)
        bound = repeat_lower_bound(ids, sizes, history)
        return SeatingResult(tables=kept, repeat_pairs=repeats, lower_bound=bound, seed=seed)
    return seat(
        ids,
        max_table_size,
        seed=seed,
        history=history,
        keep_apart=keep_apart,
        pinned=pinned,
        names=names,
        time_limit=time_limit,
    )
