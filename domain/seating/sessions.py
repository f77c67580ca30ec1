"""Seating several sessions at once, so that over all of them every pair meets as few times as
possible (the "social golfer problem").

Pure Python, no Django. The public entry points are :func:`plan_sessions` (seat every remaining
session of an event or season together) and :func:`replan_session` (seat one planned session
again after the field changed, keeping as much of the plan as the change allows); the proven
bound on the repeats of any schedule, with its reason, is
:func:`domain.seating.bounds.schedule_bound`.

A *repeat* is counted as on a single day (see :mod:`domain.seating.day`): a pair sitting together
in a session after having shared a table in any earlier session (of the history or of the plan)
counts once in that session. The total over the planned sessions is what the planner minimises.
A pair that met ``c`` times in all (a meeting in the history counts as one) adds ``c - 1`` repeats
whatever the order of its meetings, so the total is a sum over pairs.

How a plan is made
------------------
1. *Constructions* (:mod:`domain.seating.designs`): when every table has the same size ``g`` and the
   field is one a finite geometry seats with no pair meeting twice (affine planes and spaces,
   Latin squares, the 15 schoolgirls, round robins, partial spreads), its first sessions are the
   start. Points are dealt onto players the way :func:`domain.seating.day.seat` deals (club by
   club, so session 1 spreads the clubs), pinned players take points on one line of a class that
   is not used (so they never meet, and each session's tables are renumbered to put them at
   their tables). Sessions beyond the construction are seated one by one against the ones
   before. When every table has the same size and the construction falls short of the
   sessions, half the search budget first goes to short searches from starts keeping only its
   first sessions (all but three; dealt afresh each time), since its sessions can leave the
   others no room (see :func:`_search_trimmed`); the search goes on from the best found.
2. *Session by session*: each session seated by :func:`domain.seating.day.seat` against the
   history and the sessions before it. The cheaper of the two starts is kept.
3. *The tabu search* of :mod:`domain.seating.search` over the whole schedule, unless the start
   is already at the lower bound: its cost puts keep-apart pairs first, then repeats (a
   pair's k-th meeting weighing more than its (k-1)-th), then club mates sharing a table in
   session 1 (when there is no history and clubs are given; in every session when clubs are
   spread every day). It stops at the lower bound, or when its work budget (swap
   evaluations: 20,000 per player and session, at most 12 million, a few seconds;
   deterministic from ``seed``) runs out; the clock is only a safety net. The best schedule
   found is never worse than its start.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Unpack

from domain.seating.bounds import ScheduleBound, repeat_lower_bound, schedule_bound
from domain.seating.day import SeatingResult, seat_field
from domain.seating.designs import design_name, resolvable_design
from domain.seating.field import SeatingField, SeatingOptions
from domain.seating.pairs import (
    History,
    SeatingError,
    count_repeat_pairs,
    meeting_pairs,
    repeat_pairs_at,
    table_pairs,
    table_sizes,
)
from domain.seating.search import Problem, TabuSearch, Tuning

__all__ = [
    "PLAN_SIZE_LIMIT",
    "SessionPlan",
    "most_sessions",
    "plan_sessions",
    "plan_size",
    "plan_size_refusal",
    "replan_session",
    "schedule_repeats",
]

Tables = list[list[int]]
Schedule = list[list[int]]  # schedule[s][p]: the table of player number p in session s
Start = tuple[str, Schedule, int]  # how it was made, the schedule, the sessions constructed


class _Clock:
    """The plan's safety net: one deadline for every phase, and whether it cut one short (every
    phase has a work budget that normally ends it first, so the plan does not depend on the
    machine's load)."""

    def __init__(self, time_limit: float) -> None:
        self.deadline = time.perf_counter() + time_limit
        self.cut_short = False

    def left(self) -> float:
        return max(0.0, self.deadline - time.perf_counter())

    def saw(self, cut_short: bool) -> None:
        self.cut_short = self.cut_short or cut_short


@dataclass(frozen=True)
class SessionPlan:
    sessions: list[Tables]  # sessions[d][t] = sorted player ids at table t+1 of planned session d
    repeats: list[int]  # per planned session: pairs meeting again (history and earlier sessions)
    lower_bound: int  # proven lower bound on sum(repeats) for any schedule of these sessions
    method: str  # how the plan was made, in plain words ("affine plane", "search", ...)
    seed: int
    cut_short: bool = False  # the time limit, not the work budget, ended a phase
    bound_reason: str = ""  # why no schedule has fewer repeats, in plain words ("" for 0)
    at_most_twice: int = 0  # the fewest with no pair meeting three times, where that is more

    @property
    def total_repeats(self) -> int:
        return sum(self.repeats)


def schedule_repeats(
    sessions: Sequence[Sequence[Sequence[int]]], history: History = ()
) -> list[int]:
    """Repeat pairs of each session against the history and the sessions before it."""
    met = meeting_pairs(history)  # grows session by session: no session is read twice
    repeats = []
    for tables in sessions:
        repeats.append(sum(len(repeat_pairs_at(table, met)) for table in tables))
        met.update(pair for table in tables for pair in table_pairs(table))
    return repeats


# ---------------------------------------------------------------------------
# How large a plan may be
# ---------------------------------------------------------------------------

# The most a plan may hold (see plan_size): 30 days of 470 players at tables of 7, 5 days of
# 2,000. The search's figures are built before its clock starts, about 50 bytes each: at this
# size that takes 1 to 3.5 s, and the whole plan ends within its time limit in under 230 MB
# (2,000 players over 30 days, 28 million, took 15 s and 1.7 GB before its search began).
PLAN_SIZE_LIMIT = 3_500_000


def plan_size(players: int, max_table_size: int, sessions: int, earlier: int = 0) -> int:
    """What the schedule search holds for ``sessions`` sessions of ``players`` after ``earlier``
    sessions: for every session and player, a figure for each table and for each partner met
    (in the earlier sessions or the other planned ones, at most everyone)."""
    sizes = table_sizes(players, max_table_size)
    if not sizes or sessions <= 0:
        return 0
    partners = min(players - 1, (sessions + earlier) * (sizes[0] - 1))
    return sessions * players * (len(sizes) + partners)


def most_sessions(players: int, max_table_size: int, sessions: int, earlier: int = 0) -> int:
    """The most of ``sessions`` sessions still to seat that can be planned together once those
    before them are seated one by one (0 when not even one can)."""
    for together in range(max(sessions, 0), 0, -1):
        size = plan_size(players, max_table_size, together, earlier + sessions - together)
        if size <= PLAN_SIZE_LIMIT:
            return together
    return 0


def plan_size_refusal(players: int, max_table_size: int, sessions: int, earlier: int = 0) -> str:
    """Why a plan of ``sessions`` days of ``players`` (after ``earlier`` days) is too large to
    make here, in the organiser's words, or "" when it is not."""
    if plan_size(players, max_table_size, sessions, earlier) <= PLAN_SIZE_LIMIT:
        return ""
    most = most_sessions(players, max_table_size, sessions, earlier)
    too_large = (
        f"A plan of {sessions} days for {players:,} players at tables of up to "
        f"{max_table_size} is too large to make here"
    )
    own = "a day seated on its own still avoids pairs who met on earlier days"
    if most <= 1:
        return f"{too_large}: seat each day on its own instead ({own})."
    return (
        f"{too_large}: at most {most} days can be planned together for so many players. Seat "
        f"each day on its own until {most} are left, then plan those ({own})."
    )


# ---------------------------------------------------------------------------
# Planning
# ---------------------------------------------------------------------------

_PLAN_EVALS = 12_000_000  # swap evaluations of the schedule search (about 4 s at most here)
_REPLAN_EVALS = 1_000_000  # a replanned session (about 0.25 s at most): moves settle by then
_ATTEMPT_EVALS = 300_000  # one short search from a trimmed construction start (about 0.15 s)
_ROOM = 3  # sessions of a construction that falls short handed back to the search (see below)


def plan_sessions(
    players: Iterable[int],
    max_table_size: int,
    sessions: int,
    *,
    seed: int,
    **options: Unpack[SeatingOptions],
) -> SessionPlan:
    """Seat ``sessions`` sessions of ``players`` together (see the module doc).

    ``history`` holds the sessions already played (or seated), oldest first; ``pinned`` (player
    id -> 1-based table) and ``keep_apart`` hold in every session; ``clubs`` spreads the clubs in
    the first session when there is no history. Raises
    :class:`~domain.seating.pairs.SeatingError` when the constraints cannot be met, or when the
    plan is too large to make (:func:`plan_size_refusal`: its loading, before the time limit
    counts, would take too long and too much memory).
    ``max_evals`` caps the search work (deterministic from ``seed``); ``time_limit`` (seconds, 10
    unless given) bounds the whole plan as a safety net.
    """
    clock = _Clock(options.get("time_limit", 10.0))
    field = SeatingField.of(players, max_table_size, options)
    sessions = max(sessions, 0)
    refusal = plan_size_refusal(len(field.ids), max_table_size, sessions, len(field.history))
    if refusal:
        raise SeatingError(refusal)
    baseline = _session_by_session(field, sessions, seed, clock)
    proven = _bound_for(field, sessions)
    bound = proven.value
    if not field.ids or not sessions:
        repeats = schedule_repeats(baseline, field.history)
        return SessionPlan(baseline, repeats, bound, "empty", seed, clock.cut_short, proven.reason)
    problem = Problem.of(field, sessions)
    rng = random.Random(seed)
    search = TabuSearch(problem, rng, Tuning.for_schedule(problem.n))
    starts = [("session by session", [field.tab_of(day) for day in baseline])]
    built = _construction_start(field, problem, rng, clock)
    if built is not None:
        starts.insert(0, built[:2])
    method, tabs = _cheapest(search, starts)
    target = problem.target(bound, problem.club_floor())
    if search.cost > target:
        max_evals = options.get("max_evals")
        # small fields settle long before the full budget (and must not keep the organiser waiting)
        budget = min(_PLAN_EVALS, 20_000 * problem.n * sessions) if max_evals is None else max_evals
        method, tabs = _search_plan(
            field, search, rng, built, (method, tabs), target, budget, clock
        )
    clock.saw(search.cut_short)
    planned = [field.tables_of(tab) for tab in tabs]
    repeats = schedule_repeats(planned, field.history)
    return SessionPlan(
        planned, repeats, bound, method, seed, clock.cut_short, proven.reason, proven.at_most_twice
    )


def _search_plan(
    field: SeatingField,
    search: TabuSearch,
    rng: random.Random,
    built: Start | None,
    start: tuple[str, Schedule],
    target: int,
    budget: int,
    clock: _Clock,
) -> tuple[str, Schedule]:
    """The schedule search from ``start`` (loaded in ``search``), after short searches from
    trimmed construction starts when the construction falls short: how the best schedule found
    was made, and that schedule."""
    method, tabs = start
    before = search.cost
    full = len(set(field.sizes)) == 1  # a short field's left-out points already give room
    if built is not None and built[2] < search.d and budget and full:
        # The construction falls short of the sessions and its sessions leave the rest no
        # room (9 of 32 at tables of 4 leave unmet pairs that hold no table of 4 at all):
        # short searches from starts keeping only its first sessions (dealt afresh each
        # time) let the search rebuild the others; it goes on from the best of them.
        half = budget // 2
        keep = built[2] - _ROOM
        trimmed = _search_trimmed(
            search,
            lambda: _construction_start(field, search.problem, rng, clock, keep=keep),
            target,
            half,
            clock.deadline,
        )
        budget -= half
        if trimmed is not None and trimmed[0] < before:
            method, tabs = trimmed[1], trimmed[2]
        search.load(tabs)
    cost = search.cost
    if cost > target:
        tabs = search.run(target, budget, clock.deadline)
        cost = search.best_cost
    return (f"{method}, then searched" if cost < before else method), tabs


def _search_trimmed(
    search: TabuSearch,
    attempt: Callable[[], Start | None],
    target: int,
    budget: int,
    deadline: float,
) -> tuple[int, str, Schedule] | None:
    """Short searches from trimmed construction starts until one reaches ``target`` or the
    budget is spent: the best (cost, method, schedule) found, None when none was made."""
    best: tuple[int, str, Schedule] | None = None
    while budget > 0 and not search.cut_short:
        start = attempt()
        if start is None:
            break
        search.load(start[1])
        found = search.run(target, min(budget, _ATTEMPT_EVALS), deadline)
        budget -= _ATTEMPT_EVALS
        if best is None or search.best_cost < best[0]:
            best = (search.best_cost, start[0], found)
        if best[0] <= target:
            break
    return best


def _session_by_session(
    field: SeatingField, sessions: int, seed: int, clock: _Clock
) -> list[Tables]:
    """Each session seated by :func:`seat_field` against everything before it (it also
    refuses impossible pins and keep-apart pairs, naming the players)."""
    earlier: list[Sequence[Sequence[int]]] = list(field.history)
    planned: list[Tables] = []
    for number in range(sessions):
        result = seat_field(
            field.with_history(earlier),
            seed=seed + number,
            time_limit=clock.left(),
            max_evals=400_000,
        )
        clock.saw(result.cut_short)
        planned.append(result.tables)
        earlier.append(result.tables)
    return planned


def _cheapest(search: TabuSearch, starts: list[tuple[str, Schedule]]) -> tuple[str, Schedule]:
    """The start that costs least (the first on a tie), loaded into ``search``."""
    best: tuple[int, str, Schedule] | None = None
    for method, tabs in starts:
        search.load(tabs)
        if best is None or search.cost < best[0]:
            best = (search.cost, method, tabs)
    assert best is not None
    if best[2] is not starts[-1][1]:  # the last one loaded is loaded already
        search.load(best[2])
    return best[1], best[2]


def _bound_for(field: SeatingField, sessions: int) -> ScheduleBound:
    """:func:`schedule_bound` of the field's players (numbered as the search numbers
    them)."""
    index = field.index
    renumbered = [[[index[p] for p in t if p in index] for t in day] for day in field.history]
    pins = {index[p]: t for p, t in field.pins.items()}
    return schedule_bound(len(field.ids), field.max_table_size, sessions, renumbered, pinned=pins)


# ---------------------------------------------------------------------------
# Starts from a construction
# ---------------------------------------------------------------------------


def _construction_start(
    field: SeatingField,
    problem: Problem,
    rng: random.Random,
    clock: _Clock,
    keep: int | None = None,
) -> Start | None:
    """A start from a construction of :mod:`domain.seating.designs` when one fits the tables (see
    the module doc), the sessions beyond it (or beyond its first ``keep``) seated one by one,
    and how many of its sessions it holds; None when none fits."""
    sizes = problem.sizes
    g, k = sizes[0], len(sizes)
    short = g * k - problem.n  # tables of g - 1 (table_sizes puts them last)
    # the sessions used, a spare class and the last (for a short field) are all it reads
    design = resolvable_design(g * k, g, most=problem.sessions + 1)
    if design is None or (short and len(design) < 2):
        return None
    # A short field: leave out the points of one line of a class not used, so that in every
    # other class they fall at different tables (two lines share at most one point).
    removed = set(design.pop()[0][:short]) if short else set()
    used = design[: problem.sessions if keep is None else max(1, min(keep, problem.sessions))]
    spare = design[len(used)] if len(used) < len(design) else None
    dealt = [line[i] for i in range(g) for line in used[0] if i < len(line)]
    point_of = [0] * problem.n
    points = (x for x in dealt if x not in removed)
    for player, x in zip(_deal_order(field, rng), points, strict=False):
        point_of[player] = x
    pin_tab = field.pin_tables
    if spare is not None and len(pin_tab) <= g and not removed:
        _pins_on_line(point_of, sorted(pin_tab), spare[0])
    tabs = [_design_session(tables, point_of, removed, field) for tables in used]
    tabs += _seat_the_rest(field, tabs, problem.sessions - len(used), rng, clock)
    name = design_name(g * k, g) + (f" less {short} players" if short else "")
    return (name if keep is None else f"{name}, first {len(used)} sessions"), tabs, len(used)


def _design_session(
    tables: list[list[int]], point_of: list[int], removed: set[int], field: SeatingField
) -> list[int]:
    """One class of the design as a session (player number -> table), its fullest lines first
    and its tables renumbered, then players swapped, to put pinned players at their tables."""
    k = len(tables)
    lines = sorted(range(k), key=lambda t: (-sum(x not in removed for x in tables[t]), t))
    line_of = {x: number for number, t in enumerate(lines) for x in tables[t]}
    tab = [line_of[x] for x in point_of]
    pin_tab = field.pin_tables
    return _fix_pins(_renumber_for_pins(tab, pin_tab, field.sizes), pin_tab)


def _seat_the_rest(
    field: SeatingField, tabs: list[list[int]], count: int, rng: random.Random, clock: _Clock
) -> list[list[int]]:
    """``count`` more sessions, each seated by :func:`seat_field` against the history, the
    sessions ``tabs`` and the ones before it."""
    earlier: list[Sequence[Sequence[int]]] = [
        *field.history,
        *(field.tables_of(tab) for tab in tabs),
    ]
    rest = []
    for extra in range(count):
        result = seat_field(
            field.with_history(earlier),
            seed=rng.randrange(1 << 30) + extra,
            time_limit=clock.left(),
            max_evals=400_000,
        )
        clock.saw(result.cut_short)
        rest.append(field.tab_of(result.tables))
        earlier.append(result.tables)
    return rest


def _deal_order(field: SeatingField, rng: random.Random) -> list[int]:
    """Players (numbers) in the order they take the points: club by club without history (so
    the round-robin deal spreads every club), else at random."""
    index = field.index
    blocks = [[index[p] for p in group] for group in field.club_groups]
    rng.shuffle(blocks)
    placed = {x for block in blocks for x in block}
    rest = [i for i in range(len(field.ids)) if i not in placed]
    rng.shuffle(rest)
    order = []
    for block in blocks:
        rng.shuffle(block)
        order.extend(block)
    return order + rest


def _pins_on_line(point_of: list[int], pinned_players: list[int], line: list[int]) -> None:
    """Give the pinned players the points of one line of an unused class: any two points of a
    design share exactly one line, so these never share a table in the sessions used."""
    holder = {x: p for p, x in enumerate(point_of)}
    for p, x in zip(pinned_players, line, strict=False):
        q = holder[x]
        point_of[p], point_of[q] = point_of[q], point_of[p]
        holder[point_of[p]], holder[point_of[q]] = p, q


def _renumber_for_pins(tab: list[int], pin_tab: Mapping[int, int], sizes: list[int]) -> list[int]:
    """Renumber one session's tables (among tables of one size) so that pinned players sit at
    their tables, where the tables they are at allow it."""
    number = list(range(len(sizes)))  # number[t]: the new number of table t
    fixed: set[int] = set()
    for p, want in sorted(pin_tab.items()):
        t = tab[p]
        if number[t] == want or t in fixed or sizes[t] != sizes[want]:
            fixed.add(t)
            continue
        other = number.index(want)
        if other in fixed:
            continue
        number[t], number[other] = want, number[t]
        fixed.add(t)
    return [number[t] for t in tab]


def _fix_pins(tab: list[int], pin_tab: Mapping[int, int]) -> list[int]:
    """Swap every pinned player still elsewhere onto their table, displacing a player not
    pinned there (the feasibility checks leave a seat for everyone pinned to a table)."""
    tab = list(tab)
    for _ in range(len(pin_tab) + 1):
        moved = False
        for p, target in sorted(pin_tab.items()):
            if tab[p] == target:
                continue
            there = [q for q, t in enumerate(tab) if t == target and pin_tab.get(q) != target]
            q = min(there, key=lambda x: (x in pin_tab, x))
            tab[p], tab[q] = target, tab[p]
            moved = True
        if not moved:
            break
    return tab


# ---------------------------------------------------------------------------
# Seating a planned session again
# ---------------------------------------------------------------------------


def replan_session(
    planned: Sequence[Sequence[int]],
    players: Iterable[int],
    max_table_size: int,
    *,
    seed: int,
    **options: Unpack[SeatingOptions],
) -> SeatingResult:
    """Seat one planned session for the players now playing (a withdrawal, a late entry).

    Fewest repeats against ``history`` and fewest players away from their planned table
    number, one repeat weighing as much as moving the players of two full tables (so a table
    is renumbered, or a few players moved, rather than a pair meeting again, but the plan is
    not thrown away to save a repeat): the same search as :func:`plan_sessions` on this one
    session, started from the plan (with the players of over-full or vanished tables, and
    newcomers, seated where there is room) and from a fresh :func:`seat_field`, whichever
    costs less. When everyone can sit as planned (the same field, or a withdrawal that leaves
    the tables balanced), the plan stands. The result's ``repeat_pairs`` and ``lower_bound``
    are against ``history``; ``time_limit`` is 5 seconds unless given.
    """
    clock = _Clock(options.get("time_limit", 5.0))
    field = SeatingField.of(players, max_table_size, options)
    fresh = seat_field(field, seed=seed, time_limit=clock.left(), max_evals=_REPLAN_EVALS)
    clock.saw(fresh.cut_short)
    if not field.ids:
        return fresh
    home = _homes(field, planned)
    problem, move = _replan_problem(field, home)
    search = TabuSearch(problem, random.Random(seed), Tuning.for_schedule(problem.n))
    kept = _keep_plan(home, field.sizes, field.pin_tables)
    lower = repeat_lower_bound(field.ids, field.sizes, field.history, field.pins)
    search.load([kept])
    tabs = [kept]
    # When everyone can sit as planned the plan stands: it weighed this session's repeats
    # against the later sessions', which this one session cannot see.
    if kept != home or search.cost >= problem.apart_weight:
        _, tabs = _cheapest(search, [("plan", [kept]), ("fresh", [field.tab_of(fresh.tables)])])
        target = problem.target(lower) + move * _must_move(home, field)
        if search.cost > target:
            max_evals = options.get("max_evals")
            budget = _REPLAN_EVALS if max_evals is None else max_evals
            tabs = search.run(target, budget, clock.deadline)
    clock.saw(search.cut_short)
    tables = field.tables_of(tabs[0])
    repeats = count_repeat_pairs(tables, field.history)
    return SeatingResult(tables, repeats, lower, seed, clock.cut_short)


def _homes(field: SeatingField, planned: Sequence[Sequence[int]]) -> list[int]:
    """``home[i]``: the planned table of player number ``i``, -1 for a newcomer or a table
    that no longer exists."""
    home = [-1] * len(field.ids)
    index, k = field.index, len(field.sizes)
    for t, table in enumerate(planned):
        for p in table:
            if p in index and t < k:
                home[index[p]] = t
    return home


def _replan_problem(field: SeatingField, home: list[int]) -> tuple[Problem, int]:
    """The one-session problem of a replanned session, with what moving a player from their
    planned table costs: a repeat is worth moving two tables' worth of players, no more (see
    :func:`replan_session`)."""
    problem = Problem.of(field, 1)
    move = max(1, problem.repeat_weight // (2 * max(field.sizes)))
    k = len(field.sizes)
    unary = [[move if 0 <= home[p] != t else 0 for t in range(k)] for p in range(problem.n)]
    return replace(problem, unary=[unary]), move


def _must_move(home: list[int], field: SeatingField) -> int:
    """Players who cannot sit at their planned table: beyond a table's seats, or pinned
    elsewhere."""
    moves = sum(max(0, home.count(t) - size) for t, size in enumerate(field.sizes))
    return moves + sum(1 for p, t in field.pin_tables.items() if 0 <= home[p] != t)


def _keep_plan(home: list[int], sizes: list[int], pin_tab: Mapping[int, int]) -> list[int]:
    """Pinned players at their tables, then everyone at their planned table while it has
    room, then the rest (over-full or vanished tables, newcomers) where there is room."""
    room = list(sizes)
    tab = [-1] * len(home)
    for p, t in pin_tab.items():
        tab[p] = t
        room[t] -= 1
    for p, t in enumerate(home):
        if tab[p] < 0 and t >= 0 and room[t] > 0:
            tab[p] = t
            room[t] -= 1
    for p in range(len(home)):
        if tab[p] < 0:
            t = max(range(len(sizes)), key=lambda x: (room[x], -x))
            tab[p] = t
            room[t] -= 1
    return tab
