"""Table seating for a Mexican Train tournament.

Pure Python, no Django.  The public entry point is :func:`seat`.

Day 1 is a seeded random seating.  From day 2 on we minimise the number of
*repeat pairs*: unordered pairs of players who sit at the same table today and
already shared a table on at least one earlier day (a pair counts once per day
no matter how many times it met before).  Two kinds of hard constraint are
honoured on every day:

* keep-apart pairs -- two players who must never share a table;
* pins -- a player who must sit at a given table number (1-based).

Method
------
1. Table sizes: the fewest tables with none above the maximum, sizes differing
   by at most one, larger tables first (:func:`table_sizes`).
2. A start seating.  On day 2+ the players are listed table by table from the
   latest earlier day and dealt round-robin onto the new tables.  With sizes
   ``b+1`` (first ``r`` tables) and ``b`` the plain deal never meets a full
   table (position ``i`` goes to table ``i % k``; ``N = b*k + r``), so every
   old table -- a contiguous block of the list -- is spread as evenly as
   possible, which is exactly the day-2 lower bound.  A greedy variant (deal,
   but skip tables where the player would meet someone already met) is also
   built and the cheaper of the two is kept.  Pinned players are then swapped
   onto their tables.
3. Tabu search over swaps of two players at different tables.  Objective:
   repeat pairs + ``BIG`` per broken keep-apart pair (``BIG`` exceeds the
   largest possible number of repeats, so feasibility always wins).  Deltas
   are evaluated in O(1) from ``conf[p][t]`` = weighted number of p's
   "conflict partners" at table t, updated incrementally on every move.
   Pinned players never move.  The search stops as soon as the lower bound
   is reached; otherwise it perturbs and restarts from the best seating
   found until a deterministic work budget (or, as a safety net, the wall
   clock ``time_limit``) runs out.

Everything random comes from ``random.Random(seed)`` and all iteration is over
lists / sorted structures, so the same inputs and seed give the same seating
(provided the wall-clock safety net is not what stopped the search; the work
budget is normally hit long before).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from itertools import chain, combinations
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

__all__ = [
    "SeatingError",
    "SeatingResult",
    "table_sizes",
    "seat",
    "meeting_pairs",
    "count_repeat_pairs",
    "repeat_lower_bound",
    "meeting_conflicts",
]


class SeatingError(ValueError):
    """The requested seating is impossible (message names the players)."""


@dataclass(frozen=True)
class SeatingResult:
    tables: list[list[int]]  # tables[i] = sorted player ids at table i+1
    repeat_pairs: int  # pairs who met on an earlier day and meet again
    lower_bound: int  # proven lower bound for repeat_pairs (0 on day 1)
    seed: int


# ---------------------------------------------------------------------------
# Table sizes and pair bookkeeping
# ---------------------------------------------------------------------------


def table_sizes(player_count: int, max_table_size: int) -> list[int]:
    """Fewest tables, none above ``max_table_size``, sizes within one, larger first.

    >>> table_sizes(50, 7)
    [7, 7, 6, 6, 6, 6, 6, 6]
    """
    if max_table_size < 2:
        raise SeatingError(f"A table must seat at least 2 players (got {max_table_size}).")
    if player_count < 0:
        raise SeatingError(f"Player count cannot be negative (got {player_count}).")
    if player_count == 0:
        return []
    k = -(-player_count // max_table_size)
    base, extra = divmod(player_count, k)
    return [base + 1] * extra + [base] * (k - extra)


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def meeting_pairs(history: Sequence[Sequence[Sequence[int]]]) -> set[tuple[int, int]]:
    """All unordered pairs ``(a, b)`` with ``a < b`` who shared a table on some day."""
    met: set[tuple[int, int]] = set()
    for day in history:
        for table in day:
            met.update(combinations(sorted(set(table)), 2))
    return met


def count_repeat_pairs(
    tables: Sequence[Sequence[int]], history: Sequence[Sequence[Sequence[int]]]
) -> int:
    """Pairs sitting together in ``tables`` who met on any earlier day (each once)."""
    met = meeting_pairs(history)
    total = 0
    for table in tables:
        ids = sorted(set(table))
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if (a, b) in met:
                    total += 1
    return total


def meeting_conflicts(
    tables: Sequence[Sequence[int]],
    history: Sequence[Sequence[Sequence[int]]] = (),
    keep_apart: Iterable[tuple[int, int]] = (),
) -> list[tuple[int, int, str]]:
    """List ``(a, b, kind)`` for every problem pair in a seating (``a < b``).

    ``kind`` is ``"keep-apart"`` for a pair that must sit apart but shares a
    table, ``"repeat"`` for a pair that met on an earlier day.  A pair that is
    both appears twice.  Ordered by table, then pair, keep-apart first.
    """
    met = meeting_pairs(history)
    apart = {_pair(a, b) for a, b in keep_apart if a != b}
    out: list[tuple[int, int, str]] = []
    for table in tables:
        ids = sorted(set(table))
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if (a, b) in apart:
                    out.append((a, b, "keep-apart"))
                if (a, b) in met:
                    out.append((a, b, "repeat"))
    return out


# ---------------------------------------------------------------------------
# Lower bound
# ---------------------------------------------------------------------------


def _c2(x: int) -> int:
    return x * (x - 1) // 2


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
            cost += g * _c2(cap)
            m -= g
            if m == 0:
                break
            continue
        q, r = divmod(rem, m)  # every remaining cap >= cap > q, so q+1 fits
        return cost + r * _c2(q + 1) + (m - r) * _c2(q)
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
    return sum(_c2(v) for v in x)


def repeat_lower_bound(
    players: Sequence[int],
    sizes: Sequence[int],
    history: Sequence[Sequence[Sequence[int]]],
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
    return _lower_bound(current, sizes, history, pinned or {}, met)


def _lower_bound(current, sizes, history, pinned, met) -> int:
    """:func:`repeat_lower_bound` with the (current players') meeting pairs precomputed."""
    sizes = [s for s in sizes if s > 0]
    if not sizes or not history:
        return 0
    k = len(sizes)
    groups = sorted(Counter(sizes).items())
    pin_tab = {p: t - 1 for p, t in pinned.items() if p in current and 1 <= t <= k}
    best = 0
    for day in history:
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
        best = max(best, total)

    # degree bound
    met_count = Counter(chain.from_iterable(met))
    n = len(current)
    s_min = min(sizes)
    forced = 0
    for p, c in met_count.items():
        forced += max(0, s_min - 1 - (n - 1 - c))
    best = max(best, (forced + 1) // 2)
    return best


# ---------------------------------------------------------------------------
# Feasibility checks (messages name the players)
# ---------------------------------------------------------------------------


def _join_names(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _greedy_clique(adj: dict[int, set[int]]) -> list[int]:
    """A large clique of the keep-apart graph (greedy from every vertex)."""
    best: list[int] = []
    for v in sorted(adj):
        clique = [v]
        cands = sorted(adj[v], key=lambda u: (-len(adj[u]), u))
        for u in cands:
            if all(u in adj[c] for c in clique):
                clique.append(u)
        if len(clique) > len(best):
            best = clique
    return sorted(best)


def _check_feasible(
    ids: list[int],
    sizes: list[int],
    pins: dict[int, int],
    apart: list[tuple[int, int]],
    name,
) -> None:
    k = len(sizes)
    n = len(ids)
    # pins to tables that do not exist
    for p in sorted(pins):
        t = pins[p]
        if not 1 <= t <= k:
            tables = "1 table" if k == 1 else f"{k} tables"
            raise SeatingError(f"{name(p)} is pinned to table {t}, but there are only {tables}.")
    # too many pins on one table
    by_table: dict[int, list[int]] = {}
    for p in sorted(pins):
        by_table.setdefault(pins[p], []).append(p)
    for t in sorted(by_table):
        who = by_table[t]
        if len(who) > sizes[t - 1]:
            raise SeatingError(
                f"Table {t} has {sizes[t - 1]} seats but {len(who)} players are pinned to it: "
                f"{_join_names([name(p) for p in who])}."
            )
    # keep-apart pair pinned together
    for a, b in apart:
        if a in pins and b in pins and pins[a] == pins[b]:
            raise SeatingError(
                f"{name(a)} and {name(b)} must sit apart but are both pinned to table {pins[a]}."
            )
    adj: dict[int, set[int]] = {}
    for a, b in apart:
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    if not adj:
        return
    if k == 1:
        a, b = apart[0]
        raise SeatingError(
            f"{name(a)} and {name(b)} must sit apart, but there is only one table."
        )
    # a player whose keep-apart partners are pinned to every table
    for p in sorted(adj):
        if p in pins:
            continue
        blocked: dict[int, int] = {}
        for q in sorted(adj[p]):
            if q in pins:
                blocked.setdefault(pins[q], q)
        if len(blocked) == k:
            detail = ", ".join(f"{name(blocked[t])} at table {t}" for t in sorted(blocked))
            raise SeatingError(
                f"{name(p)} must sit apart from players pinned to every table ({detail})."
            )
    # a player who must avoid so many others that no table can be filled
    s_min = min(sizes)
    for p in sorted(adj):
        if n - 1 - len(adj[p]) < s_min - 1:
            raise SeatingError(
                f"{name(p)} must sit apart from {len(adj[p])} of the other {n - 1} players, "
                f"leaving too few possible table-mates for a table of {s_min}."
            )
    if k == 2:
        _check_two_tables(sizes, pins, adj, name)
    # a group who must all sit apart from one another, larger than the table count
    clique = _greedy_clique(adj)
    if len(clique) > k:
        raise SeatingError(
            f"{_join_names([name(p) for p in clique])} must all sit apart from one another, "
            f"but there are only {k} tables."
        )


def _check_two_tables(sizes, pins, adj, name) -> None:
    """Exact keep-apart feasibility for two tables.

    With two tables every connected group of the keep-apart graph must be
    split into its two colour classes (so it must be bipartite), and some
    choice of sides must fit the two table sizes, pinned players included.
    """
    side: dict[int, int] = {}
    reachable = {0}  # possible counts of constrained players at table 1
    total = 0
    for root in sorted(set(adj) | set(pins)):
        if root in side:
            continue
        side[root] = 0
        comp = [root]
        parent = {root: root}
        i = 0
        while i < len(comp):
            v = comp[i]
            i += 1
            for u in sorted(adj.get(v, ())):
                if u not in side:
                    side[u] = 1 - side[v]
                    parent[u] = v
                    comp.append(u)
                elif side[u] == side[v]:
                    # odd cycle: walk both tree paths up to their meeting point
                    path_v, path_u = [v], [u]
                    while path_v[-1] != parent[path_v[-1]]:
                        path_v.append(parent[path_v[-1]])
                    while path_u[-1] != parent[path_u[-1]]:
                        path_u.append(parent[path_u[-1]])
                    common = set(path_v) & set(path_u)
                    cycle = [x for x in path_v if x not in common]
                    cycle += [x for x in path_u if x not in common]
                    cycle.append(next(x for x in path_v if x in common))
                    raise SeatingError(
                        f"{_join_names([name(x) for x in sorted(cycle)])} must sit apart "
                        f"in a ring of {len(cycle)} that cannot be split over 2 tables."
                    )
        counts = [sum(1 for x in comp if side[x] == 0), sum(1 for x in comp if side[x] == 1)]
        total += len(comp)
        options = {0, 1}  # which colour goes to table 1
        for x in comp:
            if x in pins:
                want = 0 if pins[x] == 1 else 1  # colour of x must be at table pins[x]
                options &= {side[x] if want == 0 else 1 - side[x]}
        if not options:
            who = sorted(x for x in comp if x in pins)
            raise SeatingError(
                f"The pins of {_join_names([name(x) for x in who])} cannot be honoured "
                f"together with their keep-apart pairs."
            )
        reachable = {r + counts[o] for r in reachable for o in options}
    if not any(r <= sizes[0] and total - r <= sizes[1] for r in reachable):
        who = sorted(adj)
        shown = _join_names([name(x) for x in who[:6]] + (["others"] if len(who) > 6 else []))
        raise SeatingError(
            f"The keep-apart pairs among {shown} cannot be split over "
            f"two tables of {sizes[0]} and {sizes[1]}."
        )


# ---------------------------------------------------------------------------
# Tabu search
# ---------------------------------------------------------------------------


class _Search:
    """Swap-based tabu search on internal indices 0..n-1 and tables 0..k-1."""

    def __init__(self, n, k, adj, wd, movable, rng):
        self.n = n
        self.k = k
        self.adj = adj  # adj[i] = list of (j, w)
        self.wd = wd  # wd[i] = {j: w}
        self.movable = movable
        self.rng = rng
        self.evals = 0

    def load(self, tab: list[int]) -> None:
        n, k, adj = self.n, self.k, self.adj
        self.tab = tab = list(tab)
        members: list[list[int]] = [[] for _ in range(k)]
        pos = [0] * n
        for i in range(n):
            pos[i] = len(members[tab[i]])
            members[tab[i]].append(i)
        conf = [[0] * k for _ in range(n)]
        for i in range(n):
            row = conf[i]
            for j, w in adj[i]:
                row[tab[j]] += w
        movable = self.movable
        self.members, self.pos, self.conf = members, pos, conf
        self.bad = {i for i in range(n) if movable[i] and conf[i][tab[i]] > 0}
        self.cost = sum(conf[i][tab[i]] for i in range(n)) // 2

    def _move(self, x: int, src: int, dst: int) -> None:
        conf, tab, bad, movable = self.conf, self.tab, self.bad, self.movable
        for y, w in self.adj[x]:
            ry = conf[y]
            ry[src] -= w
            ry[dst] += w
            if movable[y]:
                if ry[tab[y]] > 0:
                    bad.add(y)
                else:
                    bad.discard(y)
        tab[x] = dst
        mem_src = self.members[src]
        p = self.pos[x]
        last = mem_src.pop()
        if last != x:
            mem_src[p] = last
            self.pos[last] = p
        self.pos[x] = len(self.members[dst])
        self.members[dst].append(x)

    def swap(self, a: int, b: int) -> None:
        A, B = self.tab[a], self.tab[b]
        wab = self.wd[a].get(b, 0)
        conf = self.conf
        d = conf[a][B] - conf[a][A] + conf[b][A] - conf[b][B] - 2 * wab
        self._move(a, A, B)
        self._move(b, B, A)
        for x in (a, b):
            if self.movable[x] and conf[x][self.tab[x]] > 0:
                self.bad.add(x)
            else:
                self.bad.discard(x)
        self.cost += d

    def run(self, target: int, deadline: float, max_evals: int, stall_evals: int) -> list[int]:
        """Tabu search from the loaded seating; returns the best seating found."""
        n, k, rng = self.n, self.k, self.rng
        movable, wd = self.movable, self.wd
        best_cost = self.cost
        best_tab = list(self.tab)
        if best_cost <= target:
            return best_tab
        movable_ids = [i for i in range(n) if movable[i]]
        if len(movable_ids) < 2:
            return best_tab
        tabu = [0] * (n * k)
        it = 0
        last_improve_it = 0
        last_improve_evals = 0
        big_field = n > 300
        a_cap = 8 if big_field else n
        t_sample = min(k, 40)
        tenure_lo = 2
        tenure_span = max(2, min(10, n // 4))
        stall_iters = max(60, 8 * n) if not big_field else 400
        perf = time.perf_counter
        while True:
            if self.evals >= max_evals or self.evals - last_improve_evals >= stall_evals:
                break
            if (it & 15) == 0 and perf() > deadline:
                break
            it += 1
            cands = sorted(self.bad)
            if not cands:
                # every remaining conflict is between two pinned players: unavoidable,
                # so this seating (and the best one, no costlier) is optimal
                break
            if it - last_improve_it > stall_iters:
                # perturb: restart from the best seating with a few random swaps
                self.load(best_tab)
                strength = 1 + rng.randrange(max(2, min(len(movable_ids) // 3, 8)))
                for _ in range(strength):
                    a = rng.choice(movable_ids)
                    b = rng.choice(movable_ids)
                    if self.tab[a] != self.tab[b]:
                        self.swap(a, b)
                last_improve_it = it
                tabu = [0] * (n * k)
                self.evals += n
                continue
            if len(cands) > a_cap:
                cands = sorted(rng.sample(cands, a_cap))
            cost = self.cost
            tab, conf, members = self.tab, self.conf, self.members
            best_d = None
            best_move = None
            ties = 0
            evals = 0
            for a in cands:
                A = tab[a]
                row = conf[a]
                caA = row[A]
                wa = wd[a]
                akey = a * k
                if big_field:
                    tables = rng.sample(range(k), t_sample)
                else:
                    tables = range(k)
                for B in tables:
                    if B == A:
                        continue
                    base = row[B] - caA
                    a_tabu = tabu[akey + B] > it
                    mem = members[B]
                    evals += len(mem)
                    for b in mem:
                        if not movable[b]:
                            continue
                        rb = conf[b]
                        d = base + rb[A] - rb[B]
                        if wa:
                            w = wa.get(b)
                            if w:
                                d -= 2 * w
                        if (a_tabu or tabu[b * k + A] > it) and cost + d >= best_cost:
                            continue
                        if best_d is None or d < best_d:
                            best_d = d
                            best_move = (a, b)
                            ties = 1
                        elif d == best_d:
                            ties += 1
                            if rng.randrange(ties) == 0:
                                best_move = (a, b)
            self.evals += evals + 1
            if best_move is None:
                last_improve_it = -stall_iters  # force a perturbation
                continue
            a, b = best_move
            A, B = tab[a], tab[b]
            self.swap(a, b)
            tenure = tenure_lo + rng.randrange(tenure_span)
            tabu[a * k + A] = it + tenure
            tabu[b * k + B] = it + tenure
            if self.cost < best_cost:
                best_cost = self.cost
                best_tab = list(self.tab)
                last_improve_it = it
                last_improve_evals = self.evals
                if best_cost <= target:
                    break
        return best_tab


# ---------------------------------------------------------------------------
# Start seatings
# ---------------------------------------------------------------------------


def _deal(order: list[int], sizes: list[int]) -> list[int]:
    """Plain round-robin deal: position i goes to table i % k (never full, see module doc)."""
    k = len(sizes)
    tab = [0] * len(order)
    room = list(sizes)
    ptr = 0
    for x in order:
        while room[ptr] == 0:  # cannot happen with balanced, larger-first sizes
            ptr = (ptr + 1) % k
        tab[x] = ptr
        room[ptr] -= 1
        ptr = (ptr + 1) % k
    return tab


def _greedy_deal(order, sizes, adj, pin_tab, n) -> list[int]:
    """Round-robin deal that skips tables where the player would meet a conflict partner."""
    k = len(sizes)
    tab = [-1] * n
    room = list(sizes)
    conf = [[0] * k for _ in range(n)]

    def place(x, t):
        tab[x] = t
        room[t] -= 1
        for y, w in adj[x]:
            conf[y][t] += w

    for x in sorted(pin_tab):
        place(x, pin_tab[x])
    ptr = 0
    for x in order:
        if tab[x] >= 0:
            continue
        row = conf[x]
        best = -1
        best_c = 0
        for step in range(k):
            t = (ptr + step) % k
            if room[t] == 0:
                continue
            c = row[t]
            if c == 0:
                best = t
                break
            if best < 0 or c < best_c:
                best, best_c = t, c
        place(x, best)
        ptr = (best + 1) % k
    return tab


def _fix_pins(tab: list[int], pin_tab: dict[int, int], n: int, wd) -> list[int]:
    """Swap every pinned player onto its table, displacing an unpinned player."""
    tab = list(tab)
    for p in sorted(pin_tab):
        target = pin_tab[p]
        src = tab[p]
        if src == target:
            continue
        best_q, best_c = -1, None
        for q in range(n):
            if tab[q] != target or q in pin_tab:
                continue
            # conflicts q brings to src (minus p, who leaves) -- cheap heuristic
            c = sum(w for y, w in wd[q].items() if tab[y] == src and y != p)
            if best_c is None or c < best_c:
                best_q, best_c = q, c
        tab[p], tab[best_q] = target, src
    return tab


def _cost(tab: list[int], adj) -> int:
    return sum(w for i, lst in enumerate(adj) for j, w in lst if j > i and tab[i] == tab[j])


# ---------------------------------------------------------------------------
# Public entry point
# ---------------------------------------------------------------------------


def seat(
    players: Sequence[int],
    max_table_size: int,
    *,
    seed: int,
    history: Sequence[Sequence[Sequence[int]]] = (),
    keep_apart: Iterable[tuple[int, int]] = (),
    pinned: Mapping[int, int] | None = None,
    names: Mapping[int, str] | None = None,
    time_limit: float = 5.0,
    max_evals: int | None = None,
) -> SeatingResult:
    """Seat ``players`` for one day.

    ``history`` holds the earlier days (each a list of tables of player ids;
    it may mention players who no longer play).  ``keep_apart`` pairs and
    ``pinned`` (player id -> 1-based table number) entries about players not
    in ``players`` are ignored.  Raises :class:`SeatingError` when the
    constraints cannot be met.  ``max_evals`` caps the search work (swap
    evaluations, deterministic); ``time_limit`` (seconds) is a wall-clock
    safety net.
    """
    start = time.perf_counter()
    ids = list(players)
    if len(set(ids)) != len(ids):
        dup = sorted(p for p, c in Counter(ids).items() if c > 1)
        who = _join_names([(names or {}).get(p, str(p)) for p in dup])
        raise SeatingError(f"{who} listed more than once.")
    sizes = table_sizes(len(ids), max_table_size)
    n, k = len(ids), len(sizes)

    def name(p: int) -> str:
        if names is not None and p in names:
            return str(names[p])
        return str(p)

    if n == 0:
        return SeatingResult(tables=[], repeat_pairs=0, lower_bound=0, seed=seed)

    ids.sort()
    index = {p: i for i, p in enumerate(ids)}
    pins = {p: int(t) for p, t in (pinned or {}).items() if p in index}
    apart_ids = sorted({_pair(a, b) for a, b in keep_apart if a != b and a in index and b in index})
    _check_feasible(ids, sizes, pins, apart_ids, name)
    pin_tab = {index[p]: t - 1 for p, t in pins.items()}

    # conflict weights: 1 per pair met before, BIG per keep-apart pair
    history = [list(day) for day in history]
    met = [(index[a], index[b]) for a, b in meeting_pairs(history) if a in index and b in index]
    big = sum(_c2(s) for s in sizes) + 1
    wd: list[dict[int, int]] = [{} for _ in range(n)]
    for a, b in met:
        wd[a][b] = 1
        wd[b][a] = 1
    for pa, pb in apart_ids:
        a, b = index[pa], index[pb]
        wd[a][b] = wd[a].get(b, 0) + big
        wd[b][a] = wd[b].get(a, 0) + big
    adj = [sorted(d.items()) for d in wd]
    lower = _lower_bound(set(ids), sizes, history, pins, [(ids[a], ids[b]) for a, b in met])

    rng = random.Random(seed)
    # start order: day 1 -> shuffled; later -> the latest day's tables, in a
    # seeded random order, each table's players consecutively (new players last)
    if not history:
        order = list(range(n))
        rng.shuffle(order)
    else:
        order = []
        placed = set()
        latest = [[index[p] for p in table if p in index] for table in history[-1]]
        rng.shuffle(latest)
        for table in latest:
            block = [x for x in table if x not in placed]
            rng.shuffle(block)
            placed.update(block)
            order.extend(block)
        order.extend(x for x in range(n) if x not in placed)

    starts = [_fix_pins(_deal(order, sizes), pin_tab, n, wd)]
    if history or apart_ids:
        starts.append(_greedy_deal(order, sizes, adj, pin_tab, n))
    costs = [_cost(t, adj) for t in starts]
    tab = starts[costs.index(min(costs))]

    movable = [i not in pin_tab for i in range(n)]
    if min(costs) > lower:
        if max_evals is None:
            max_evals = 4_000_000
        search = _Search(n, k, adj, wd, movable, rng)
        search.load(tab)
        tab = search.run(
            target=lower,
            deadline=start + time_limit,
            max_evals=max_evals,
            stall_evals=max(max_evals // 4, 1),
        )

    tables: list[list[int]] = [[] for _ in range(k)]
    for i, t in enumerate(tab):
        tables[t].append(ids[i])
    for t in tables:
        t.sort()

    # final verification of the hard constraints
    for p, t in sorted(pins.items()):
        if p not in tables[t - 1]:  # pragma: no cover - defensive
            raise SeatingError(f"Could not seat {name(p)} at table {t}.")
    for a, b in apart_ids:
        if tab[index[a]] == tab[index[b]]:
            raise SeatingError(f"Could not find a seating that keeps {name(a)} and {name(b)} apart.")

    met_set = set(met)
    repeats = sum(1 for a, b in met_set if tab[a] == tab[b])
    return SeatingResult(tables=tables, repeat_pairs=repeats, lower_bound=lower, seed=seed)
