"""Proven lower bounds on repeat pairs: for one day (:func:`repeat_lower_bound`) and for a
schedule of several sessions (:func:`schedule_lower_bound`). A search that reaches its bound
stops, and pages show how far a seating is from it.

Pure Python, no Django.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

from domain.seating.pairs import History, Pair, meeting_pairs, pair_count, table_sizes

__all__ = [
    "ScheduleBound",
    "day_lower_bound",
    "repeat_lower_bound",
    "schedule_bound",
    "schedule_lower_bound",
]

# The most sessions with no pair meeting twice, where it is proven below what counting gives:
# (players, table size) -> (sessions, why). Two clean sessions of 36 at tables of 6 are a grid
# of rows and columns, a third is a Latin square on it and a fourth would be a second Latin
# square orthogonal to the third, which order 6 does not have (Tarry, 1900).
KNOWN_MOST_CLEAN = {
    (36, 6): (3, "there is no pair of orthogonal Latin squares of order 6"),
}


def _spread_cost(t: int, cap_groups: Sequence[tuple[int, int]]) -> int:
    """min sum C(x_j, 2) over 0 <= x_j <= cap_j, sum x_j = t (water filling).

    ``cap_groups`` is a sorted list of (capacity, number of tables).  Without
    binding capacities this is the even spread q=t//k, r=t%k:
    r*C(q+1,2) + (k-r)*C(q,2).  Tables whose capacity is below the water
    level are filled to capacity first (smallest capacities first).
    """
    if t <= 1:
        return 0
    m = sum(g for _, g in cap_groups)
    rem = t
    cost = 0
    for cap, g in cap_groups:
        level = rem // m
        if cap <= level:  # this group is capped
            rem -= cap * g
            cost += g * pair_count(cap)
            m -= g
            if m == 0:
                break
            continue
        q, r = divmod(rem, m)  # every remaining cap >= cap > q, so q+1 fits
        return cost + r * pair_count(q + 1) + (m - r) * pair_count(q)
    return cost


def _spread_cost_with_floors(t: int, caps: Sequence[int], floors: Sequence[int]) -> int:
    """Like :func:`_spread_cost` but table j must take at least floors[j].

    C(x, 2) is convex, so adding the free players one at a time to the
    cheapest table (smallest current x among tables with room) is optimal.
    """
    x = list(floors)
    for _ in range(t - sum(floors)):
        best = -1
        for j, cap in enumerate(caps):
            if x[j] < cap and (best < 0 or x[j] < x[best]):
                best = j
        if best < 0:  # more players than seats: caller's sizes are wrong
            break
        x[best] += 1
    return sum(pair_count(v) for v in x)


def repeat_lower_bound(
    players: Iterable[int],
    sizes: Sequence[int],
    history: History,
    pinned: Mapping[int, int] | None = None,
) -> int:
    """A proven lower bound on the repeat pairs of any seating of ``players``.

    Two bounds are computed and the larger is returned.

    *Single-day spread bound.*  Fix one earlier day.  Its tables (restricted
    to today's players, each player counted in one table only) split that
    day's meeting pairs into disjoint cliques.  Whatever the seating, an old
    table of t players has its players distributed x_1..x_k over the new
    tables with x_j <= size_j (and x_j >= number of them pinned to table j),
    creating sum C(x_j, 2) repeats, at least the water-filling minimum.  The
    cliques are disjoint, so the minima add up, giving a bound on the
    repeats with respect to that day.  The repeats with respect to *all*
    earlier days are a superset of those, so every single day's bound is a
    bound, and so is their maximum.

    *Degree bound.*  A player p with u(p) unmet players among the other
    current players sits with at least s_min - 1 others (s_min = smallest
    table), so at least s_min - 1 - u(p) of p's table-mates are repeats.
    Every repeat pair is counted at both of its players, hence
    ceil(sum_p max(0, s_min - 1 - u(p)) / 2) is a bound too.
    """
    current = set(players)
    if not history:
        return 0
    met = [pr for pr in meeting_pairs(history) if pr[0] in current and pr[1] in current]
    return day_lower_bound(current, sizes, history, pinned or {}, met)


def day_lower_bound(
    current: set[int],
    sizes: Sequence[int],
    history: History,
    pinned: Mapping[int, int],
    met: Sequence[Pair],
) -> int:
    """:func:`repeat_lower_bound` with the current players' meeting pairs (``met``) at hand."""
    sizes = [s for s in sizes if s > 0]
    if not sizes or not history:
        return 0
    k = len(sizes)
    pin_tab = {p: t - 1 for p, t in pinned.items() if p in current and 1 <= t <= k}
    spread = max(_day_spread_bound(day, current, sizes, pin_tab) for day in history)
    return max(spread, _day_degree_bound(len(current), min(sizes), met))


def _day_spread_bound(
    day: Sequence[Sequence[int]], current: set[int], sizes: list[int], pin_tab: Mapping[int, int]
) -> int:
    """The single-day spread bound of :func:`repeat_lower_bound` for one earlier day."""
    k = len(sizes)
    groups = sorted(Counter(sizes).items())
    seen: set[int] = set()
    total = 0
    for table in day:
        members = [p for p in table if p in current and p not in seen]
        if len(members) != len(set(members)):
            members = list(dict.fromkeys(members))
        seen.update(members)
        t = len(members)
        if t <= 1:
            continue
        if pin_tab and any(p in pin_tab for p in members):
            floors = [0] * k
            for p in members:
                if p in pin_tab:
                    floors[pin_tab[p]] += 1
            total += _spread_cost_with_floors(t, sizes, floors)
        else:
            total += _spread_cost(t, groups)
    return total


def _day_degree_bound(n: int, s_min: int, met: Sequence[Pair]) -> int:
    """The degree bound of :func:`repeat_lower_bound`: ``n`` players, smallest table ``s_min``."""
    met_count = Counter(chain.from_iterable(met))
    forced = 0
    for c in met_count.values():
        forced += max(0, s_min - 1 - (n - 1 - c))
    return (forced + 1) // 2


@dataclass(frozen=True)
class ScheduleBound:
    """A proven lower bound on a schedule's repeats, and why, in the organiser's words ("" for
    0: nothing forces a repeat that the bound knows of)."""

    value: int
    reason: str
    # the fewest when no pair sits together three times (what the planner prefers), where that
    # is more: each session after the first spreads each earlier one's tables (pigeonhole), and
    # the pairs it forces for different earlier sessions are different pairs
    at_most_twice: int = 0


def schedule_lower_bound(
    player_count: int,
    max_table_size: int,
    sessions: int,
    history: History = (),
    *,
    pinned: Mapping[int, int] | None = None,
) -> int:
    """:attr:`ScheduleBound.value` of :func:`schedule_bound`."""
    return schedule_bound(player_count, max_table_size, sessions, history, pinned=pinned).value


def schedule_bound(
    player_count: int,
    max_table_size: int,
    sessions: int,
    history: History = (),
    *,
    pinned: Mapping[int, int] | None = None,
) -> ScheduleBound:
    """A proven lower bound on the total repeats of ``sessions`` sessions of ``player_count``
    players (ids ``0 .. player_count-1``; ``history`` and ``pinned`` use them) at tables of at
    most ``max_table_size`` (balanced as :func:`table_sizes` balances), with its reason. The
    largest of:

    *Pairs.* The sessions seat ``sessions * sum(C(s, 2))`` meetings. A meeting that is not a
    repeat is the first meeting of a pair that has not met in the history, and there are only
    ``C(n, 2) - M`` such pairs (``M`` pairs met in the history), so at least the difference are
    repeats.

    *Players.* Player ``p`` has ``u_p`` others still to meet, and every meeting of ``p``
    beyond ``u_p`` is a repeat counted at ``p`` (each repeat is counted at both its players,
    hence the halving). With tables of ``b`` and ``b + 1``, ``p`` meets at least ``b - 1``
    others a session and one more in each session at a large table; the large tables hold
    ``E = sessions * r * (b + 1)`` seats over the schedule (``r`` large tables), at most
    ``sessions`` of them one player's. Fewest excess meetings: every player's forced excess
    ``max(0, sessions*(b-1) - u_p)``, plus the large-table seats that do not fit in the slack
    ``min(sessions, max(0, u_p - sessions*(b-1)))`` players have left.

    *Each session against the one before* (pigeonhole). Whatever the plan, a session's tables
    have the sizes :func:`table_sizes` gives, and the next session spreads each of them over
    ``k`` tables: a table of more than ``k`` players leaves some of them together again. So
    every session after the first repeats at least what one session against a day of those
    sizes must (:func:`_spread_cost`), and the first at least what it must against the
    history: ``repeat_lower_bound`` against the history alone, since earlier sessions only
    add meetings.

    *Known maxima.* With at most ``m`` sessions in which no pair meets twice
    (:data:`KNOWN_MOST_CLEAN`), the sessions with no repeat share no pair, so at most ``m`` of
    them: at least one repeat in each of the others.

    *Pins.* Two players pinned to one table meet in every session: ``sessions - 1`` repeats,
    ``sessions`` if they met in the history.
    """
    n = player_count
    sizes = table_sizes(n, max_table_size)
    if sessions <= 0 or not sizes:
        return ScheduleBound(0, "")
    met = [pr for pr in meeting_pairs(history) if 0 <= pr[0] < n and 0 <= pr[1] < n]
    candidates = [
        _pairs_bound(n, sizes, sessions, len(met)),
        _players_bound(n, sizes, sessions, met),
        _session_bound(n, sizes, sessions, history, pinned),
        _known_bound(n, sizes, sessions, bool(history)),
        _pins_bound(pinned or {}, n, len(sizes), sessions, set(met)),
    ]
    best = max(candidates, key=lambda b: b.value)
    if best.value <= 0:
        return ScheduleBound(0, "")
    twice = 0 if history or pinned else _pigeonhole(sizes) * pair_count(sessions)
    return ScheduleBound(best.value, best.reason, twice if twice > best.value else 0)


def _pigeonhole(sizes: list[int]) -> int:
    """The fewest repeats one session has against any one earlier session: each table of the
    earlier one spread over the tables (:func:`_spread_cost`)."""
    groups = sorted(Counter(sizes).items())
    return sum(_spread_cost(s, groups) for s in sizes)


def _pairs_bound(n: int, sizes: list[int], sessions: int, met: int) -> ScheduleBound:
    meetings = sessions * sum(pair_count(s) for s in sizes)
    free = pair_count(n) - met
    value = meetings - free
    who = "pairs of players who have not met" if met else "pairs of players"
    return ScheduleBound(
        value,
        f"{sessions} sessions seat {meetings:,} pairs at their tables, and there are only "
        f"{free:,} {who}",
    )


def _players_bound(n: int, sizes: list[int], sessions: int, met: list[Pair]) -> ScheduleBound:
    value = _schedule_degree_bound(n, sizes, sessions, met)
    return ScheduleBound(
        value,
        f"over {sessions} sessions a player sits with more others than there are for them "
        "still to meet",
    )


def _session_bound(
    n: int,
    sizes: list[int],
    sessions: int,
    history: History,
    pinned: Mapping[int, int] | None,
) -> ScheduleBound:
    k = len(sizes)
    pigeon = _pigeonhole(sizes)
    first = repeat_lower_bound(range(n), sizes, history, _pins_1(pinned, n)) if history else 0
    value = first + (sessions - 1) * max(first, pigeon)
    if pigeon >= first and pigeon:
        seats = max(sizes)
        return ScheduleBound(
            value,
            f"at least {_repeats(pigeon)} a session after the first: {k} tables for "
            f"{seats} seats at a table"
            + (f", and {first} on the first against the days before" if first else ""),
        )
    return ScheduleBound(
        value, f"at least {_repeats(first)} a session against the days already seated"
    )


def _known_bound(n: int, sizes: list[int], sessions: int, history: bool) -> ScheduleBound:
    known = KNOWN_MOST_CLEAN.get((n, sizes[0])) if len(set(sizes)) == 1 else None
    if known is None:
        return ScheduleBound(0, "")
    most, why = known
    # with history the first session may repeat too: the bound only grows, this stays true
    value = max(0, sessions - most)
    return ScheduleBound(
        value,
        f"{n} players at tables of {sizes[0]} can have at most {most} sessions with no pair "
        f"meeting twice ({why})",
    )


def _pins_bound(
    pinned: Mapping[int, int], n: int, k: int, sessions: int, met: set[Pair]
) -> ScheduleBound:
    value = _pinned_bound(pinned, n, k, sessions, met)
    return ScheduleBound(value, "players pinned to one table sit together every session")


def _repeats(count: int) -> str:
    return f"{count} repeat" if count == 1 else f"{count} repeats"


def _pins_1(pinned: Mapping[int, int] | None, n: int) -> dict[int, int]:
    return {p: t for p, t in (pinned or {}).items() if 0 <= p < n}


def _schedule_degree_bound(n: int, sizes: list[int], sessions: int, met: list[Pair]) -> int:
    """The *players* bound of :func:`schedule_lower_bound`."""
    b = min(sizes)
    large = sum(1 for s in sizes if s > b)
    met_count = [0] * n
    for a, c in met:
        met_count[a] += 1
        met_count[c] += 1
    base = sessions * (b - 1)
    forced = 0
    slack = 0
    for p in range(n):
        unmet = n - 1 - met_count[p]
        forced += max(0, base - unmet)
        slack += min(sessions, max(0, unmet - base))
    excess = forced + max(0, sessions * large * (b + 1) - slack)
    return (excess + 1) // 2


def _pinned_bound(pinned: Mapping[int, int], n: int, k: int, sessions: int, met: set[Pair]) -> int:
    """The *pins* bound of :func:`schedule_lower_bound`."""
    by_table: dict[int, list[int]] = {}
    for p, t in sorted(pinned.items()):
        if 0 <= p < n and 1 <= t <= k:
            by_table.setdefault(t, []).append(p)
    total = 0
    for group in by_table.values():
        for i, a in enumerate(group):
            for c in group[i + 1 :]:
                total += sessions - 1 + ((min(a, c), max(a, c)) in met)
    return total
