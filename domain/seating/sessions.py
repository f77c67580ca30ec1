"""Seating several sessions at once, so that over all of them every pair meets as few times as
possible (the "social golfer problem").

Pure Python, no Django. The public entry points are :func:`plan_sessions` (seat every remaining
session of an event or season together), :func:`replan_session` (seat one planned session again
after the field changed, keeping as much of the plan as the change allows) and
:func:`schedule_lower_bound` (a proven bound on the repeats of any schedule).

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
3. *Tabu search over the whole schedule* (after Dotu and Van Hentenryck's search for the social
   golfer problem), unless the start is already at the lower bound. A move swaps two players at
   different tables of one session; only swaps moving a player who has a conflict at their
   table are looked at; the best non-tabu swap is made (a tabu one when it beats the best
   schedule found), and a player may not return to the table it left in that session for a few
   steps. After a while without progress the search restarts from the best schedule with a few
   random swaps. The cost is lexicographic: keep-apart pairs together (a weight above everything
   else), then repeats, then, equal last, pairs meeting three or more times (``C(c - 1, 2)`` for
   ``c`` meetings: two pairs meeting twice beat one pair meeting three times) and club mates
   sharing a table in session 1 (when there is no history and clubs are given). Pinned players
   never move. Deltas are O(1): ``conf[s][p*k + t]`` holds what player ``p``'s meetings with
   the players at table ``t`` of session ``s`` cost at the margin, updated on every move for
   the pairs the move touches. The search stops at the lower bound, or when its work budget
   (swap evaluations: 20,000 per player and session, at most 12 million, a few seconds;
   deterministic from ``seed``) runs out; the clock is only a safety net.
   The best schedule found is never worse than its start.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from domain.seating.day import (
    History,
    SeatingResult,
    club_groups,
    count_repeat_pairs,
    keep_apart_set,
    meeting_pairs,
    repeat_lower_bound,
    seat,
    table_sizes,
)
from domain.seating.designs import design_name, resolvable_design

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


# ---------------------------------------------------------------------------
# Lower bound
# ---------------------------------------------------------------------------


def _c2(x: int) -> int:
    return x * (x - 1) // 2


def schedule_lower_bound(
    player_count: int,
    max_table_size: int,
    sessions: int,
    history: History = (),
    *,
    pinned: Mapping[int, int] | None = None,
) -> int:
    """A proven lower bound on the total repeats of ``sessions`` sessions of ``player_count``
    players (ids ``0 .. player_count-1``; ``history`` and ``pinned`` use them) at tables of at
    most ``max_table_size`` (balanced as :func:`table_sizes` balances). The largest of:

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

    *Each session against the history.* Every planned session repeats at least what
    :func:`domain.seating.day.repeat_lower_bound` proves for one session against the history
    alone (its earlier sessions only add meetings), so ``sessions`` times that.

    *Pins.* Two players pinned to one table meet in every session: ``sessions - 1`` repeats,
    ``sessions`` if they met in the history.
    """
    n = player_count
    sizes = table_sizes(n, max_table_size)
    if sessions <= 0 or not sizes:
        return 0
    met = [pr for pr in meeting_pairs(history) if 0 <= pr[0] < n and 0 <= pr[1] < n]
    pair_bound = sessions * sum(_c2(s) for s in sizes) - (_c2(n) - len(met))
    degree_bound = _degree_bound(n, sizes, sessions, met)
    per_session = 0
    if history:
        per_session = sessions * repeat_lower_bound(range(n), sizes, history, _pins_1(pinned, n))
    pin_bound = _pinned_bound(pinned or {}, n, len(sizes), sessions, set(met))
    return max(0, pair_bound, degree_bound, per_session, pin_bound)


def _pins_1(pinned: Mapping[int, int] | None, n: int) -> dict[int, int]:
    return {p: t for p, t in (pinned or {}).items() if 0 <= p < n}


def _degree_bound(n: int, sizes: list[int], sessions: int, met: list[tuple[int, int]]) -> int:
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


def _pinned_bound(
    pinned: Mapping[int, int], n: int, k: int, sessions: int, met: set[tuple[int, int]]
) -> int:
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


# ---------------------------------------------------------------------------
# The search over a whole schedule
# ---------------------------------------------------------------------------


@dataclass
class _Problem:
    """A schedule to search, players as indices ``0 .. n-1``."""

    n: int
    sizes: list[int]
    sessions: int
    hist: list[int]  # n*n: 1 where the pair met in the history
    movable: list[bool]
    apart: list[tuple[int, int]] = field(default_factory=list)
    club: list[tuple[int, int]] = field(default_factory=list)  # club mates: apart in session 1
    club_sizes: list[int] = field(default_factory=list)
    unary: list[list[int]] | None = None  # per session, n*k: cost of player p at table t
    repeat_weight: int = 0
    apart_weight: int = 0

    def __post_init__(self) -> None:
        slots = self.sessions * sum(_c2(s) for s in self.sizes)
        # Everything below a repeat (3+ meetings, club mates, moves) together stays below one.
        self.repeat_weight = slots * (self.sessions + 2) + self.n * self.sessions + 1
        self.apart_weight = self.repeat_weight * (slots + 1)


def _pair_cost(c: int, weight: int) -> int:
    """A pair meeting ``c`` times in all: ``c - 1`` repeats, then the three-times tie-break."""
    r = max(0, c - 1)
    return weight * r + _c2(r)


class _ScheduleSearch:
    """Tabu search over swaps within a session (see the module doc)."""

    def __init__(self, prob: _Problem, rng: random.Random) -> None:
        self.prob = prob
        self.rng = rng
        self.n, self.k, self.d = prob.n, len(prob.sizes), prob.sessions
        top = self.d + 3
        weight = prob.repeat_weight
        self.inc = [_pair_cost(c + 1, weight) - _pair_cost(c, weight) for c in range(top)]
        self.dec = [0] + [_pair_cost(c, weight) - _pair_cost(c - 1, weight) for c in range(1, top)]
        n = self.n
        self.always: dict[int, int] = {}
        for a, b in prob.apart:
            self.always[a * n + b] = self.always[b * n + a] = prob.apart_weight
        self.first: dict[int, int] = {}
        for a, b in prob.club:
            self.first[a * n + b] = self.first[b * n + a] = 1
        self.special: list[set[int]] = [set() for _ in range(n)]
        for key in [*self.always, *self.first]:
            self.special[key // n].add(key % n)
        self.movable_ids = [p for p in range(n) if prob.movable[p]]
        self.sample = max(4, 2000 // max(n, 1))  # about 2,000 swaps looked at a step
        self.tenure_lo, self.tenure_span = 3, 8  # steps a player may not go back (random)
        self.stall = max(300, 4 * n)  # steps without a new best before a restart from it
        self.kick = 4  # at most this many random swaps on a restart
        self.tab: list[list[int]] = []
        self.members: list[list[list[int]]] = []
        self.cnt: list[int] = []
        self.partners: list[set[int]] = []
        self.conf: list[list[int]] = []
        self.cost = 0

    # -- state -------------------------------------------------------------

    def load(self, tabs: Sequence[Sequence[int]]) -> None:
        """Set the schedule (``tabs[s][p]`` = table of player ``p`` in session ``s``)."""
        n, k = self.n, self.k
        self.tab = [list(t) for t in tabs]
        self.members = [[[] for _ in range(k)] for _ in range(self.d)]
        for s, ts in enumerate(self.tab):
            for p, t in enumerate(ts):
                self.members[s][t].append(p)
        cnt = list(self.prob.hist)
        for tables in self.members:
            for table in tables:
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        cnt[a * n + b] += 1
                        cnt[b * n + a] += 1
        self.cnt = cnt
        self.partners = [
            {q for q in range(n) if cnt[p * n + q]} | self.special[p] for p in range(n)
        ]
        unary = self.prob.unary
        self.conf = [list(unary[s]) if unary else [0] * (n * k) for s in range(self.d)]
        for p in range(n):
            for q in self.partners[p]:
                if q > p:
                    self._contrib(p, q, 1)
        self.cost = self.full_cost()

    def full_cost(self) -> int:
        """The cost of the current schedule, from scratch."""
        n, weight = self.n, self.prob.repeat_weight
        total = 0
        for p in range(n):
            for q in range(p + 1, n):
                c = self.cnt[p * n + q]
                total += _pair_cost(c, weight)
                total += self.always.get(p * n + q, 0) * (c - self.prob.hist[p * n + q])
                if self.first.get(p * n + q) and self.tab[0][p] == self.tab[0][q]:
                    total += 1
        if self.prob.unary:
            for s, ts in enumerate(self.tab):
                total += sum(self.prob.unary[s][p * self.k + t] for p, t in enumerate(ts))
        return total

    def repeats(self) -> int:
        """Repeat meetings of the current schedule (history included)."""
        n = self.n
        return sum(max(0, self.cnt[p * n + q] - 1) for p in range(n) for q in range(p + 1, n))

    def _contrib(self, p: int, q: int, sign: int) -> None:
        """Add (``sign`` 1) or take away (-1) what pair ``p, q`` puts into ``conf``."""
        n, k = self.n, self.k
        key = p * n + q
        c = self.cnt[key]
        extra = self.always.get(key, 0) if self.always else 0
        club = self.first.get(key, 0) if self.first else 0
        inc = self.inc[c] + extra
        dec = self.dec[c] + extra
        pk, qk = p * k, q * k
        for s, ts in enumerate(self.tab):
            tp, tq = ts[p], ts[q]
            w = dec if tp == tq else inc
            if s == 0:
                w += club
            if w:
                cs = self.conf[s]
                cs[pk + tq] += sign * w
                cs[qk + tp] += sign * w

    def _bump(self, p: int, q: int, step: int) -> None:
        n = self.n
        self.cnt[p * n + q] += step
        self.cnt[q * n + p] += step
        c = self.cnt[p * n + q]
        if step > 0 and c == 1:
            self.partners[p].add(q)
            self.partners[q].add(p)
        elif c == 0 and q not in self.special[p]:
            self.partners[p].discard(q)
            self.partners[q].discard(p)

    def delta(self, s: int, a: int, b: int) -> int:
        """What swapping ``a`` and ``b`` (at different tables of session ``s``) changes."""
        k = self.k
        ts, cs = self.tab[s], self.conf[s]
        A, B = ts[a], ts[b]
        return cs[a * k + B] - cs[a * k + A] + cs[b * k + A] - cs[b * k + B] - 2 * self._w(s, a, b)

    def _w(self, s: int, a: int, b: int) -> int:
        key = a * self.n + b
        w = self.inc[self.cnt[key]]
        if self.always:
            w += self.always.get(key, 0)
        if s == 0 and self.first:
            w += self.first.get(key, 0)
        return w

    def swap(self, s: int, a: int, b: int, change: int) -> None:
        """Swap ``a`` and ``b`` in session ``s``; ``change`` is :meth:`delta` of the swap.

        Only the pairs whose meeting count changes (``a`` and ``b`` with the two tables, and
        ``a`` with ``b``) are updated in every session; the other partners of ``a`` and ``b``
        only see them change tables in session ``s``."""
        ts, cs, k = self.tab[s], self.conf[s], self.k
        A, B = ts[a], ts[b]
        at_a, at_b = self.members[s][A], self.members[s][B]
        at_a.remove(a)
        at_b.remove(b)
        changed = [(a, b)]
        for x in at_a + at_b:
            changed += [(a, x), (b, x)]
        for p, q in changed:
            self._contrib(p, q, -1)
        near = {a, b, *at_a, *at_b}
        for mover, old, new in ((a, A, B), (b, B, A)):
            for z in self.partners[mover]:
                if z not in near:
                    w = self._w(s, mover, z)
                    cs[z * k + old] -= w
                    cs[z * k + new] += w
        for x in at_a:
            self._bump(a, x, -1)
            self._bump(b, x, 1)
        for y in at_b:
            self._bump(a, y, 1)
            self._bump(b, y, -1)
        at_a.append(b)
        at_b.append(a)
        ts[a], ts[b] = B, A
        for p, q in changed:
            self._contrib(p, q, 1)
        self.cost += change

    # -- search ------------------------------------------------------------

    def run(self, target: int, max_evals: int, deadline: float) -> list[list[int]]:
        """Search until the cost reaches ``target`` or the budget runs out; the best schedule."""
        rng = self.rng
        best_cost, best = self.cost, [list(t) for t in self.tab]
        tabu = [[0] * (self.n * self.k) for _ in range(self.d)]
        stall = self.stall
        step = last_improve = evals = 0
        while best_cost > target and evals < max_evals and self.movable_ids:
            if step & 15 == 0 and time.perf_counter() > deadline:
                break
            step += 1
            move, looked = self._best_swap(tabu, step, best_cost)
            evals += looked + 1
            if move is None or step - last_improve > stall:
                self.load(best)
                self._perturb()
                evals += self.n * self.d
                tabu = [[0] * (self.n * self.k) for _ in range(self.d)]
                last_improve = step
                continue
            s, a, b, change = move
            A, B = self.tab[s][a], self.tab[s][b]
            self.swap(s, a, b, change)
            tenure = self.tenure_lo + rng.randrange(self.tenure_span)
            tabu[s][a * self.k + A] = step + tenure
            tabu[s][b * self.k + B] = step + tenure
            if self.cost < best_cost:
                best_cost, best = self.cost, [list(t) for t in self.tab]
                last_improve = step
        self.load(best)
        return best

    def _conflicts(self) -> list[tuple[int, int]]:
        """(session, player) for every movable player with a cost at their own table."""
        k = self.k
        out: list[tuple[int, int]] = []
        for s, ts in enumerate(self.tab):
            cs = self.conf[s]
            out.extend((s, p) for p in self.movable_ids if cs[p * k + ts[p]] > 0)
        if len(out) > self.sample:
            out = self.rng.sample(out, self.sample)
        return out

    def _best_swap(
        self, tabu: list[list[int]], step: int, best_cost: int
    ) -> tuple[tuple[int, int, int, int] | None, int]:
        """The best swap moving a player in conflict (ties at random), and the swaps looked at;
        a tabu swap only when it beats the best schedule found."""
        k, n, rng, movable = self.k, self.n, self.rng, self.prob.movable
        pins = len(self.movable_ids) < n
        inc, cnt = self.inc, self.cnt
        cost = self.cost
        best_d = 0
        best_move: tuple[int, int, int, int] | None = None
        ties = looked = 0
        for s, a in self._conflicts():
            ts, cs, tb, members = self.tab[s], self.conf[s], tabu[s], self.members[s]
            special = bool(self.always) or (s == 0 and bool(self.first))
            A = ts[a]
            own = cs[a * k + A]
            an = a * n
            for B in range(k):
                if B == A:
                    continue
                base = cs[a * k + B] - own
                a_tabu = tb[a * k + B] > step
                looked += len(members[B])
                for b in members[B]:
                    if pins and not movable[b]:
                        continue
                    d = base + cs[b * k + A] - cs[b * k + B]
                    if special:
                        d -= 2 * self._w(s, a, b)
                    elif cnt[an + b]:
                        d -= 2 * inc[cnt[an + b]]
                    if (a_tabu or tb[b * k + A] > step) and cost + d >= best_cost:
                        continue
                    if best_move is None or d < best_d:
                        best_d, best_move, ties = d, (s, a, b, d), 1
                    elif d == best_d:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            best_move = (s, a, b, d)
        return best_move, looked

    def _perturb(self) -> None:
        """A few random swaps (the search then goes on from there without its tabu list)."""
        rng = self.rng
        for _ in range(1 + rng.randrange(self.kick)):
            s = rng.randrange(self.d)
            a, b = rng.choice(self.movable_ids), rng.choice(self.movable_ids)
            if self.tab[s][a] != self.tab[s][b]:
                self.swap(s, a, b, self.delta(s, a, b))


# ---------------------------------------------------------------------------
# Planning
# ---------------------------------------------------------------------------

_PLAN_EVALS = 12_000_000  # swap evaluations of the schedule search (about 4 s at most here)
_REPLAN_EVALS = 300_000
_ATTEMPT_EVALS = 300_000  # one short search from a trimmed construction start (about 0.15 s)
_ROOM = 3  # sessions of a construction that falls short handed back to the search (see below)


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
    max_evals: int | None = None,
) -> SessionPlan:
    """Seat ``sessions`` sessions of ``players`` together (see the module doc).

    ``history`` holds the sessions already played (or seated), oldest first; ``pinned`` (player
    id -> 1-based table) and ``keep_apart`` hold in every session; ``clubs`` spreads the clubs in
    the first session when there is no history. Raises :class:`SeatingError` when the
    constraints cannot be met. ``max_evals`` caps the search work (deterministic from ``seed``);
    ``time_limit`` (seconds) bounds the whole plan as a safety net.
    """
    start = time.perf_counter()
    ids = sorted(players)
    sessions = max(sessions, 0)
    keep_apart = list(keep_apart)
    baseline = _session_by_session(
        ids, max_table_size, sessions, seed, history, keep_apart, pinned, clubs, names, time_limit
    )
    bound = _bound_for(ids, max_table_size, sessions, history, pinned)
    if not ids or not sessions:
        return SessionPlan(baseline, schedule_repeats(baseline, history), bound, "empty", seed)
    prob, pin_tab = _problem(ids, max_table_size, sessions, history, keep_apart, pinned, clubs)
    rng = random.Random(seed)
    search = _ScheduleSearch(prob, rng)
    index = {p: i for i, p in enumerate(ids)}
    starts = [("session by session", [_tab_of(day, index, len(ids)) for day in baseline])]
    construct = partial(
        _construction_start,
        *(ids, prob, pin_tab, rng, history, keep_apart, pinned, names, max_table_size, clubs),
    )
    built = construct()
    if built is not None:
        starts.insert(0, built[:2])
    method, tabs = _cheapest(search, starts)
    target = prob.repeat_weight * bound + _club_floor(prob)
    if search.cost > target:
        before = search.cost
        deadline = start + time_limit * 0.9
        # small fields settle long before the full budget (and must not keep the organiser waiting)
        budget = min(_PLAN_EVALS, 20_000 * len(ids) * sessions) if max_evals is None else max_evals
        full = len(set(prob.sizes)) == 1  # a short field's left-out points already give room
        if built is not None and built[2] < sessions and budget and full:
            # The construction falls short of the sessions and its sessions leave the rest no
            # room (9 of 32 at tables of 4 leave unmet pairs that hold no table of 4 at all):
            # short searches from starts keeping only its first sessions (dealt afresh each
            # time) let the search rebuild the others; it goes on from the best of them.
            half = budget // 2
            keep = built[2] - _ROOM
            trimmed = _search_trimmed(search, lambda: construct(keep=keep), target, half, deadline)
            budget -= half
            if trimmed is not None and trimmed[0] < before:
                method, tabs = trimmed[1], trimmed[2]
            search.load(tabs)
        if search.cost > target:
            tabs = search.run(target, budget, deadline)
        if search.cost < before:
            method += ", then searched"
    planned = [_tables_of(tab, ids, len(prob.sizes)) for tab in tabs]
    return SessionPlan(planned, schedule_repeats(planned, history), bound, method, seed)


def _search_trimmed(
    search: _ScheduleSearch,
    attempt: Callable[[], tuple[str, list[list[int]], int] | None],
    target: int,
    budget: int,
    deadline: float,
) -> tuple[int, str, list[list[int]]] | None:
    """Short searches from trimmed construction starts until one reaches ``target`` or the
    budget is spent: the best (cost, method, schedule) found, None when none was made."""
    best: tuple[int, str, list[list[int]]] | None = None
    while budget > 0 and time.perf_counter() < deadline:
        start = attempt()
        if start is None:
            break
        search.load(start[1])
        found = search.run(target, min(budget, _ATTEMPT_EVALS), deadline)
        budget -= _ATTEMPT_EVALS
        if best is None or search.cost < best[0]:
            best = (search.cost, start[0], found)
        if best[0] <= target:
            break
    return best


def _session_by_session(
    ids: list[int],
    max_table_size: int,
    sessions: int,
    seed: int,
    history: History,
    keep_apart: list[tuple[int, int]],
    pinned: Mapping[int, int] | None,
    clubs: Mapping[int, str] | None,
    names: Mapping[int, str] | None,
    time_limit: float,
) -> list[Tables]:
    """Each session seated by :func:`seat` against everything before it (it also refuses
    impossible pins and keep-apart pairs, naming the players)."""
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
            time_limit=time_limit / max(sessions, 1) / 4,
            max_evals=400_000,
        )
        planned.append(result.tables)
        earlier.append(result.tables)
    return planned


def _problem(
    ids: list[int],
    max_table_size: int,
    sessions: int,
    history: History,
    keep_apart: list[tuple[int, int]],
    pinned: Mapping[int, int] | None,
    clubs: Mapping[int, str] | None,
) -> tuple[_Problem, dict[int, int]]:
    """The search problem of a plan (indices for ids), and the pins as index -> table index."""
    n = len(ids)
    index = {p: i for i, p in enumerate(ids)}
    sizes = table_sizes(n, max_table_size)
    hist = [0] * (n * n)
    for a, b in meeting_pairs(history):
        if a in index and b in index:
            hist[index[a] * n + index[b]] = hist[index[b] * n + index[a]] = 1
    pin_tab = {index[p]: t - 1 for p, t in (pinned or {}).items() if p in index}
    apart = [
        (index[a], index[b])
        for a, b in sorted(keep_apart_set(keep_apart))
        if a in index and b in index
    ]
    groups = [] if history else club_groups(ids, clubs)
    club: list[tuple[int, int]] = []
    for group in groups:
        members = [index[p] for p in group]
        club.extend((a, b) for i, a in enumerate(members) for b in members[i + 1 :])
    movable = [i not in pin_tab for i in range(n)]
    prob = _Problem(
        n, sizes, sessions, hist, movable, apart, club, club_sizes=[len(g) for g in groups]
    )
    return prob, pin_tab


def _club_floor(prob: _Problem) -> int:
    """The fewest club mates sharing a session-1 table: each club spread evenly (clubs are
    disjoint, so their minima add up)."""
    k = len(prob.sizes)
    total = 0
    for c in prob.club_sizes:
        q, r = divmod(c, k)
        total += r * _c2(q + 1) + (k - r) * _c2(q)
    return total


def _tab_of(tables: Sequence[Sequence[int]], index: Mapping[int, int], n: int) -> list[int]:
    tab = [0] * n
    for t, table in enumerate(tables):
        for p in table:
            tab[index[p]] = t
    return tab


def _tables_of(tab: Sequence[int], ids: list[int], k: int) -> Tables:
    tables: Tables = [[] for _ in range(k)]
    for i, t in enumerate(tab):
        tables[t].append(ids[i])
    return [sorted(table) for table in tables]


def _cheapest(
    search: _ScheduleSearch, starts: list[tuple[str, list[list[int]]]]
) -> tuple[str, list[list[int]]]:
    """The start that costs least (the first on a tie), loaded into ``search``."""
    best: tuple[int, str, list[list[int]]] | None = None
    for method, tabs in starts:
        search.load(tabs)
        if best is None or search.cost < best[0]:
            best = (search.cost, method, tabs)
    assert best is not None
    search.load(best[2])
    return best[1], best[2]


def _bound_for(
    ids: list[int],
    max_table_size: int,
    sessions: int,
    history: History,
    pinned: Mapping[int, int] | None = None,
) -> int:
    index = {p: i for i, p in enumerate(ids)}
    renumbered = [[[index[p] for p in t if p in index] for t in day] for day in history]
    pins = {index[p]: t for p, t in (pinned or {}).items() if p in index}
    return schedule_lower_bound(len(ids), max_table_size, sessions, renumbered, pinned=pins)


def _construction_start(
    ids: list[int],
    prob: _Problem,
    pin_tab: dict[int, int],
    rng: random.Random,
    history: History,
    keep_apart: list[tuple[int, int]],
    pinned: Mapping[int, int] | None,
    names: Mapping[int, str] | None,
    max_table_size: int,
    clubs: Mapping[int, str] | None,
    keep: int | None = None,
) -> tuple[str, list[list[int]], int] | None:
    """A start from a construction of :mod:`domain.seating.designs` when one fits the tables (see
    the module doc), the sessions beyond it (or beyond its first ``keep``) seated one by one,
    and how many of its sessions it holds; None when none fits."""
    n, sizes = prob.n, prob.sizes
    g, k = sizes[0], len(sizes)
    short = g * k - n  # tables of g - 1 (table_sizes puts them last)
    design = resolvable_design(g * k, g)
    if design is None or (short and len(design) < 2):
        return None
    # A short field: leave out the points of one line of a class not used, so that in every
    # other class they fall at different tables (two lines share at most one point).
    removed = set(design.pop()[0][:short]) if short else set()
    used = design[: prob.sessions if keep is None else max(1, min(keep, prob.sessions))]
    spare = design[len(used)] if len(used) < len(design) else None
    dealt = [line[i] for i in range(g) for line in used[0] if i < len(line)]
    point_of = [0] * n
    for player, x in zip(
        _deal_order(ids, history, clubs, rng), (x for x in dealt if x not in removed), strict=False
    ):
        point_of[player] = x
    if spare is not None and len(pin_tab) <= g and not removed:
        _pins_on_line(point_of, sorted(pin_tab), spare[0])
    tabs = []
    for tables in used:
        lines = sorted(range(k), key=lambda t: (-sum(x not in removed for x in tables[t]), t))
        line_of = {x: number for number, t in enumerate(lines) for x in tables[t]}
        tab = [line_of[point_of[p]] for p in range(n)]
        tabs.append(_fix_pins(_renumber_for_pins(tab, pin_tab, sizes), pin_tab))
    index = {p: i for i, p in enumerate(ids)}
    earlier: list[Sequence[Sequence[int]]] = [
        *history,
        *(_tables_of(t, ids, len(sizes)) for t in tabs),
    ]
    for extra in range(prob.sessions - len(used)):
        result = seat(
            ids,
            max_table_size,
            seed=rng.randrange(1 << 30) + extra,
            history=earlier,
            keep_apart=keep_apart,
            pinned=pinned,
            names=names,
            time_limit=0.5,
            max_evals=400_000,
        )
        tabs.append(_tab_of(result.tables, index, n))
        earlier.append(result.tables)
    name = design_name(g * k, g) + (f" less {short} players" if short else "")
    return (name if keep is None else f"{name}, first {len(used)} sessions"), tabs, len(used)


def _deal_order(
    ids: list[int], history: History, clubs: Mapping[int, str] | None, rng: random.Random
) -> list[int]:
    """Players (indices) in the order they take the points: club by club without history (so
    the round-robin deal spreads every club), else at random."""
    index = {p: i for i, p in enumerate(ids)}
    blocks = [[index[p] for p in group] for group in ([] if history else club_groups(ids, clubs))]
    rng.shuffle(blocks)
    placed = {x for block in blocks for x in block}
    rest = [i for i in range(len(ids)) if i not in placed]
    rng.shuffle(rest)
    order = []
    for block in blocks:
        rng.shuffle(block)
        order.extend(block)
    return order + rest


def _deal_points(first_class: list[list[int]], order: list[int]) -> list[int]:
    """``point_of[player]``: the i-th player in ``order`` takes the i-th point of a round-robin
    deal over the lines of the first class (player i to line ``i % k``)."""
    k = len(first_class)
    point_of = [0] * len(order)
    for i, player in enumerate(order):
        point_of[player] = first_class[i % k][i // k]
    return point_of


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
    history: History = (),
    keep_apart: Iterable[tuple[int, int]] = (),
    pinned: Mapping[int, int] | None = None,
    names: Mapping[int, str] | None = None,
    time_limit: float = 5.0,
    max_evals: int | None = None,
) -> SeatingResult:
    """Seat one planned session for the players now playing (a withdrawal, a late entry).

    Fewest repeats against ``history`` and fewest players away from their planned table
    number, one repeat weighing as much as moving the players of two full tables (so a table
    is renumbered, or a few players moved, rather than a pair meeting again, but the plan is
    not thrown away to save a repeat): the same search as :func:`plan_sessions` on this one
    session, started from the plan (with the players of over-full or vanished tables, and
    newcomers, seated where there is room) and from a fresh :func:`seat`, whichever costs
    less. When everyone can sit as planned (the same field, or a withdrawal that leaves the
    tables balanced), the plan stands. The result's ``repeat_pairs`` and ``lower_bound`` are
    against ``history``.
    """
    start = time.perf_counter()
    ids = sorted(players)
    keep_apart = list(keep_apart)
    fresh = seat(
        ids,
        max_table_size,
        seed=seed,
        history=history,
        keep_apart=keep_apart,
        pinned=pinned,
        names=names,
        time_limit=time_limit / 2,
        max_evals=_REPLAN_EVALS,
    )
    if not ids:
        return fresh
    prob, pin_tab = _problem(ids, max_table_size, 1, history, keep_apart, pinned, None)
    k, n = len(prob.sizes), len(ids)
    index = {p: i for i, p in enumerate(ids)}
    home = [-1] * n
    for t, table in enumerate(planned):
        for p in table:
            if p in index and t < k:
                home[index[p]] = t
    # A repeat is worth moving two tables' worth of players, no more (see the docstring).
    move = max(1, prob.repeat_weight // (2 * max(prob.sizes)))
    prob.unary = [[move * (0 <= home[p] != t) for p in range(n) for t in range(k)]]
    search = _ScheduleSearch(prob, random.Random(seed))
    kept = _keep_plan(home, prob.sizes, pin_tab)
    lower = repeat_lower_bound(ids, prob.sizes, history, pinned)
    search.load([kept])
    if kept == home and search.cost < prob.apart_weight:
        # Everyone can sit as planned: the plan weighed this session's repeats against the
        # later sessions', which this one session cannot see, so it stands.
        tables = _tables_of(kept, ids, k)
        return SeatingResult(tables, count_repeat_pairs(tables, history), lower, seed)
    _, tabs = _cheapest(search, [("plan", [kept]), ("fresh", [_tab_of(fresh.tables, index, n)])])
    must_move = sum(max(0, home.count(t) - size) for t, size in enumerate(prob.sizes))
    must_move += sum(1 for p, t in pin_tab.items() if 0 <= home[p] != t)
    target = prob.repeat_weight * lower + move * must_move
    if search.cost > target:
        budget = _REPLAN_EVALS if max_evals is None else max_evals
        tabs = search.run(target, budget, start + time_limit)
    tables = _tables_of(tabs[0], ids, k)
    return SeatingResult(
        tables=tables,
        repeat_pairs=count_repeat_pairs(tables, history),
        lower_bound=lower,
        seed=seed,
    )


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
