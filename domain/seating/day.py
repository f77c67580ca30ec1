"""Table seating for a Mexican Train tournament.

Pure Python, no Django.  The public entry point is :func:`seat`.  The pair
rules it works by (who met on an earlier day, who must sit apart) are public
too, from :func:`table_pairs` down, so that code checking a seating someone
changed by hand judges it the same way.

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

Clubs on day 1
--------------
Clubs play to meet other clubs.  When ``clubs`` is given on a day with no
history (day 1), each club is treated like one table of an earlier day: club
mates sharing a table cost 1 per pair, the club blocks are dealt round-robin
(which spreads every club as evenly as the numbers allow, the same argument as
for day 2), and the search works on from there under the same pins and
keep-apart pairs.  The repeat pairs reported stay those of real earlier days
(none on day 1).  Later days ignore clubs, so their repeat pairs are never
traded for club spread.

Everything random comes from ``random.Random(seed)`` and all iteration is over
lists / sorted structures, so the same inputs and seed give the same seating
(provided the wall-clock safety net is not what stopped the search; the work
budget is normally hit long before).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set as AbstractSet
from dataclasses import dataclass
from itertools import chain

__all__ = [
    "Pair",
    "SeatingError",
    "SeatingResult",
    "broken_keep_aparts",
    "club_groups",
    "club_spread",
    "count_repeat_pairs",
    "keep_apart_set",
    "meeting_conflicts",
    "meeting_pairs",
    "ordered_pair",
    "repeat_lower_bound",
    "repeat_pairs_at",
    "seat",
    "table_conflicts",
    "table_pairs",
    "table_sizes",
]

Pair = tuple[int, int]  # two player ids, the smaller first (see ordered_pair)
History = Sequence[Sequence[Sequence[int]]]  # earlier days, each a list of tables of ids
Namer = Callable[[int], str]


class SeatingError(ValueError):
    """The requested seating is impossible (message names the players)."""


@dataclass(frozen=True)
class SeatingResult:
    tables: list[list[int]]  # tables[i] = sorted player ids at table i+1
    repeat_pairs: int  # pairs who met on an earlier day and meet again
    lower_bound: int  # proven lower bound for repeat_pairs (0 on day 1)
    seed: int


# ---------------------------------------------------------------------------
# Table sizes
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


# ---------------------------------------------------------------------------
# Pairs at a table: the "met before" and "must sit apart" rules, written once
# ---------------------------------------------------------------------------


def ordered_pair(a: int, b: int) -> Pair:
    """``(a, b)`` with the smaller id first: the one form pairs are stored and looked up in."""
    return (a, b) if a < b else (b, a)


def keep_apart_set(keep_apart: Iterable[tuple[int, int]]) -> set[Pair]:
    """Keep-apart pairs as ordered pairs, in whichever order each was given; a player paired
    with themself is dropped."""
    return {ordered_pair(a, b) for a, b in keep_apart if a != b}


def table_pairs(table: Iterable[int]) -> Iterator[Pair]:
    """Each pair of players sharing one table, once, as an ordered pair.

    Pairs come in the order the table lists its players (first with second, first with third,
    ..., second with third, ...); a player listed twice counts once.
    """
    ids = list(dict.fromkeys(table))
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            yield ordered_pair(a, b)


def broken_keep_aparts(table: Iterable[int], apart: AbstractSet[Pair]) -> list[Pair]:
    """The pairs at ``table`` that must sit apart (``apart`` as :func:`keep_apart_set` gives)."""
    return [pair for pair in table_pairs(table) if pair in apart]


def repeat_pairs_at(table: Iterable[int], met: AbstractSet[Pair]) -> list[Pair]:
    """The pairs at ``table`` who already met (``met`` as :func:`meeting_pairs` gives)."""
    return [pair for pair in table_pairs(table) if pair in met]


def table_conflicts(
    table: Iterable[int], met: AbstractSet[Pair], apart: AbstractSet[Pair]
) -> list[tuple[int, int, str]]:
    """``(a, b, kind)`` for each problem pair at one table, in :func:`table_pairs` order.

    ``kind`` is ``"keep-apart"`` for a pair in ``apart`` and ``"repeat"`` for a pair in
    ``met``; a pair that is both appears twice, keep-apart first.
    """
    out: list[tuple[int, int, str]] = []
    for a, b in table_pairs(table):
        if (a, b) in apart:
            out.append((a, b, "keep-apart"))
        if (a, b) in met:
            out.append((a, b, "repeat"))
    return out


def meeting_pairs(history: History) -> set[Pair]:
    """All unordered pairs ``(a, b)`` with ``a < b`` who shared a table on some day."""
    met: set[Pair] = set()
    for day in history:
        for table in day:
            met.update(table_pairs(table))
    return met


def count_repeat_pairs(tables: Sequence[Sequence[int]], history: History) -> int:
    """Pairs sitting together in ``tables`` who met on any earlier day (each once)."""
    met = meeting_pairs(history)
    return sum(len(repeat_pairs_at(table, met)) for table in tables)


def meeting_conflicts(
    tables: Sequence[Sequence[int]],
    history: History = (),
    keep_apart: Iterable[tuple[int, int]] = (),
) -> list[tuple[int, int, str]]:
    """List ``(a, b, kind)`` for every problem pair in a seating (``a < b``).

    ``kind`` is ``"keep-apart"`` for a pair that must sit apart but shares a
    table, ``"repeat"`` for a pair that met on an earlier day.  A pair that is
    both appears twice.  Ordered by table, then pair, keep-apart first.
    """
    met = meeting_pairs(history)
    apart = keep_apart_set(keep_apart)
    out: list[tuple[int, int, str]] = []
    for table in tables:
        out.extend(table_conflicts(sorted(set(table)), met, apart))
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
    return _lower_bound(current, sizes, history, pinned or {}, met)


def _lower_bound(
    current: set[int],
    sizes: Sequence[int],
    history: History,
    pinned: Mapping[int, int],
    met: Sequence[Pair],
) -> int:
    """:func:`repeat_lower_bound` with the (current players') meeting pairs precomputed."""
    sizes = [s for s in sizes if s > 0]
    if not sizes or not history:
        return 0
    k = len(sizes)
    pin_tab = {p: t - 1 for p, t in pinned.items() if p in current and 1 <= t <= k}
    spread = max(_day_spread_bound(day, current, sizes, pin_tab) for day in history)
    return max(spread, _degree_bound(len(current), min(sizes), met))


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


def _degree_bound(n: int, s_min: int, met: Sequence[Pair]) -> int:
    """The degree bound of :func:`repeat_lower_bound`: ``n`` players, smallest table ``s_min``."""
    met_count = Counter(chain.from_iterable(met))
    forced = 0
    for c in met_count.values():
        forced += max(0, s_min - 1 - (n - 1 - c))
    return (forced + 1) // 2


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
    apart: list[Pair],
    name: Namer,
) -> None:
    """Refuse, naming the players, a seating that the pins and keep-apart pairs rule out.

    The checks run from the plainest to the most involved, so the message names the simplest
    reason when there are several.
    """
    _check_pins(sizes, pins, name)
    for a, b in apart:
        if a in pins and b in pins and pins[a] == pins[b]:
            raise SeatingError(
                f"{name(a)} and {name(b)} must sit apart but are both pinned to table {pins[a]}."
            )
    adj = _apart_graph(apart)
    if not adj:
        return
    if len(sizes) == 1:
        a, b = apart[0]
        raise SeatingError(f"{name(a)} and {name(b)} must sit apart, but there is only one table.")
    _check_partners_leave_a_table(len(ids), sizes, pins, adj, name)
    if len(sizes) == 2:
        _check_two_tables(sizes, pins, adj, name)
    # a group who must all sit apart from one another, larger than the table count
    clique = _greedy_clique(adj)
    if len(clique) > len(sizes):
        raise SeatingError(
            f"{_join_names([name(p) for p in clique])} must all sit apart from one another, "
            f"but there are only {len(sizes)} tables."
        )


def _check_pins(sizes: list[int], pins: dict[int, int], name: Namer) -> None:
    """Every pin names an existing table, and no table has more pinned players than seats."""
    k = len(sizes)
    for p in sorted(pins):
        t = pins[p]
        if not 1 <= t <= k:
            tables = "1 table" if k == 1 else f"{k} tables"
            raise SeatingError(f"{name(p)} is pinned to table {t}, but there are only {tables}.")
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


def _apart_graph(apart: list[Pair]) -> dict[int, set[int]]:
    """Player -> the players they must sit apart from (only players with a keep-apart pair)."""
    adj: dict[int, set[int]] = {}
    for a, b in apart:
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    return adj


def _check_partners_leave_a_table(
    n: int, sizes: list[int], pins: dict[int, int], adj: dict[int, set[int]], name: Namer
) -> None:
    """Each player with keep-apart partners still has a table they may sit at, with enough
    possible table-mates to fill it."""
    k = len(sizes)
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


def _check_two_tables(
    sizes: list[int], pins: dict[int, int], adj: dict[int, set[int]], name: Namer
) -> None:
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
        comp = _two_colour(root, adj, side, name)
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


def _two_colour(
    root: int, adj: dict[int, set[int]], side: dict[int, int], name: Namer
) -> list[int]:
    """Colour ``root``'s connected group of the keep-apart graph 0/1 into ``side`` so that
    partners differ; returns the group.  An odd ring cannot be coloured and is refused."""
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
                cycle = _odd_ring(v, u, parent)
                raise SeatingError(
                    f"{_join_names([name(x) for x in sorted(cycle)])} must sit apart "
                    f"in a ring of {len(cycle)} that cannot be split over 2 tables."
                )
    return comp


def _odd_ring(v: int, u: int, parent: dict[int, int]) -> list[int]:
    """The ring closed by the edge ``v``-``u`` in the colouring tree: both tree paths walked
    up to where they meet."""
    path_v, path_u = [v], [u]
    while path_v[-1] != parent[path_v[-1]]:
        path_v.append(parent[path_v[-1]])
    while path_u[-1] != parent[path_u[-1]]:
        path_u.append(parent[path_u[-1]])
    common = set(path_v) & set(path_u)
    cycle = [x for x in path_v if x not in common]
    cycle += [x for x in path_u if x not in common]
    cycle.append(next(x for x in path_v if x in common))
    return cycle


# ---------------------------------------------------------------------------
# Tabu search
# ---------------------------------------------------------------------------


Adjacency = list[list[tuple[int, int]]]  # adj[i] = sorted (j, weight) of i's conflict partners
Weights = list[dict[int, int]]  # wd[i] = {j: weight} for the same partners


@dataclass(frozen=True)
class _Tuning:
    """How hard the search looks at each step, fixed by the size of the field."""

    big_field: bool  # sample candidates and tables instead of trying them all
    a_cap: int  # players in conflict tried per step
    t_sample: int  # tables tried per player (big fields)
    tenure_lo: int  # a swapped player may not go back for tenure_lo + randrange(tenure_span)
    tenure_span: int
    stall_iters: int  # steps without improvement before a perturbation

    @classmethod
    def for_field(cls, n: int, k: int) -> _Tuning:
        big_field = n > 300
        return cls(
            big_field=big_field,
            a_cap=8 if big_field else n,
            t_sample=min(k, 40),
            tenure_lo=2,
            tenure_span=max(2, min(10, n // 4)),
            stall_iters=max(60, 8 * n) if not big_field else 400,
        )


class _Search:
    """Swap-based tabu search on internal indices 0..n-1 and tables 0..k-1."""

    tab: list[int]  # tab[i] = table of player i
    members: list[list[int]]  # members[t] = players at table t (any order)
    pos: list[int]  # pos[i] = index of i in members[tab[i]]
    conf: list[list[int]]  # conf[i][t] = weight of i's conflict partners at table t
    bad: set[int]  # movable players with a conflict partner at their own table
    cost: int
    # state of one run()
    best_cost: int
    best_tab: list[int]
    tabu: list[int]  # tabu[i * k + t] = step until which i may not move to table t
    step: int
    last_improve_step: int
    last_improve_evals: int

    def __init__(
        self, n: int, k: int, adj: Adjacency, wd: Weights, movable: list[bool], rng: random.Random
    ) -> None:
        self.n = n
        self.k = k
        self.adj = adj
        self.wd = wd
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
        """Tabu search from the loaded seating; returns the best seating found.

        Each step swaps the best pair (one of them in conflict) that is not tabu, unless the swap
        beats the best seating so far.  After ``stall_iters`` steps without improvement the
        search restarts from the best seating with a few random swaps.  It stops at ``target``,
        when no movable player is in conflict, or when a budget runs out.
        """
        self.best_cost = self.cost
        self.best_tab = list(self.tab)
        if self.best_cost <= target:
            return self.best_tab
        movable_ids = [i for i in range(self.n) if self.movable[i]]
        if len(movable_ids) < 2:
            return self.best_tab
        tuning = _Tuning.for_field(self.n, self.k)
        self.tabu = [0] * (self.n * self.k)
        self.step = self.last_improve_step = self.last_improve_evals = 0
        while not self._out_of_budget(deadline, max_evals, stall_evals):
            self.step += 1
            in_conflict = sorted(self.bad)
            if not in_conflict:
                # every remaining conflict is between two pinned players: unavoidable,
                # so this seating (and the best one, no costlier) is optimal
                break
            if self.step - self.last_improve_step > tuning.stall_iters:
                self._perturb(movable_ids)
                continue
            if len(in_conflict) > tuning.a_cap:
                in_conflict = sorted(self.rng.sample(in_conflict, tuning.a_cap))
            move = self._best_swap(in_conflict, tuning)
            if move is None:
                self.last_improve_step = -tuning.stall_iters  # force a perturbation
                continue
            self._make_tabu_swap(*move, tuning)
            if self._keep_if_best() and self.best_cost <= target:
                break
        return self.best_tab

    def _out_of_budget(self, deadline: float, max_evals: int, stall_evals: int) -> bool:
        if self.evals >= max_evals or self.evals - self.last_improve_evals >= stall_evals:
            return True
        # the clock is only a safety net (see the module docstring): every 16th step will do
        return (self.step & 15) == 0 and time.perf_counter() > deadline

    def _perturb(self, movable_ids: list[int]) -> None:
        """Restart from the best seating with a few random swaps, forgetting the tabu list."""
        rng = self.rng
        self.load(self.best_tab)
        strength = 1 + rng.randrange(max(2, min(len(movable_ids) // 3, 8)))
        for _ in range(strength):
            a = rng.choice(movable_ids)
            b = rng.choice(movable_ids)
            if self.tab[a] != self.tab[b]:
                self.swap(a, b)
        self.last_improve_step = self.step
        self.tabu = [0] * (self.n * self.k)
        self.evals += self.n

    def _best_swap(self, in_conflict: list[int], tuning: _Tuning) -> tuple[int, int] | None:
        """The swap of a player in conflict with a movable player elsewhere that lowers the cost
        most (ties broken at random); a tabu swap only if it beats the best seating found."""
        k, rng, movable, wd = self.k, self.rng, self.movable, self.wd
        tab, conf, members, tabu, it = self.tab, self.conf, self.members, self.tabu, self.step
        cost, best_cost = self.cost, self.best_cost
        best_d: int | None = None
        best_move: tuple[int, int] | None = None
        ties = 0
        evals = 0
        for a in in_conflict:
            A = tab[a]
            row = conf[a]
            caA = row[A]
            wa = wd[a]
            akey = a * k
            tables: Iterable[int] = (
                rng.sample(range(k), tuning.t_sample) if tuning.big_field else range(k)
            )
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
        return best_move

    def _make_tabu_swap(self, a: int, b: int, tuning: _Tuning) -> None:
        """Swap ``a`` and ``b`` and forbid each from going back to its table for a while."""
        A, B = self.tab[a], self.tab[b]
        self.swap(a, b)
        tenure = tuning.tenure_lo + self.rng.randrange(tuning.tenure_span)
        self.tabu[a * self.k + A] = self.step + tenure
        self.tabu[b * self.k + B] = self.step + tenure

    def _keep_if_best(self) -> bool:
        """Remember the current seating if it is the best so far; True when it is."""
        if self.cost >= self.best_cost:
            return False
        self.best_cost = self.cost
        self.best_tab = list(self.tab)
        self.last_improve_step = self.step
        self.last_improve_evals = self.evals
        return True


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


def _greedy_deal(
    order: list[int], sizes: list[int], adj: Adjacency, pin_tab: dict[int, int], n: int
) -> list[int]:
    """Round-robin deal that skips tables where the player would meet a conflict partner."""
    k = len(sizes)
    tab = [-1] * n
    room = list(sizes)
    conf = [[0] * k for _ in range(n)]

    def place(x: int, t: int) -> None:
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


def _fix_pins(tab: list[int], pin_tab: dict[int, int], n: int, wd: Weights) -> list[int]:
    """Swap every pinned player onto its table, displacing a player not pinned there.

    An unpinned player is displaced when the table has one.  Otherwise the table holds a player
    pinned elsewhere who has not been moved yet (the feasibility checks leave a seat for every
    player pinned to it), and that player goes instead, to be moved to their own table in turn.
    """
    tab = list(tab)
    for p in sorted(pin_tab):
        target = pin_tab[p]
        src = tab[p]
        if src == target:
            continue
        q = _displaced(tab, target, src, p, pin_tab, n, wd)
        tab[p], tab[q] = target, src
    return tab


def _displaced(
    tab: list[int], target: int, src: int, p: int, pin_tab: dict[int, int], n: int, wd: Weights
) -> int:
    """Who leaves table ``target`` for ``src`` so that ``p`` can take their seat."""
    best_q, best_c = -1, -1
    for q in range(n):
        if tab[q] != target or q in pin_tab:
            continue
        # conflicts q brings to src (minus p, who leaves) -- cheap heuristic
        c = sum(w for y, w in wd[q].items() if tab[y] == src and y != p)
        if best_c < 0 or c < best_c:
            best_q, best_c = q, c
    if best_q < 0:
        best_q = next(q for q in range(n) if tab[q] == target and pin_tab.get(q) != target)
    return best_q


def _cost(tab: list[int], adj: Adjacency) -> int:
    return sum(w for i, lst in enumerate(adj) for j, w in lst if j > i and tab[i] == tab[j])


# ---------------------------------------------------------------------------
# Public entry point
# ---------------------------------------------------------------------------


def seat(
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
    clubs: Mapping[int, str] | None = None,
) -> SeatingResult:
    """Seat ``players`` for one day.

    ``history`` holds the earlier days (each a list of tables of player ids;
    it may mention players who no longer play).  ``keep_apart`` pairs and
    ``pinned`` (player id -> 1-based table number) entries about players not
    in ``players`` are ignored.  Raises :class:`SeatingError` when the
    constraints cannot be met.  ``max_evals`` caps the search work (swap
    evaluations, deterministic); ``time_limit`` (seconds) is a wall-clock
    safety net.  ``clubs`` (player id -> club, blank for none) spreads each club across the
    tables on a day with no ``history``.
    """
    start = time.perf_counter()
    ids = list(players)
    name = _namer(names)
    _check_listed_once(ids, name)
    sizes = table_sizes(len(ids), max_table_size)
    if not ids:
        return SeatingResult(tables=[], repeat_pairs=0, lower_bound=0, seed=seed)

    ids.sort()
    index = {p: i for i, p in enumerate(ids)}
    pins = {p: int(t) for p, t in (pinned or {}).items() if p in index}
    apart = sorted(pr for pr in keep_apart_set(keep_apart) if pr[0] in index and pr[1] in index)
    _check_feasible(ids, sizes, pins, apart, name)
    pin_tab = {index[p]: t - 1 for p, t in pins.items()}

    history = [list(day) for day in history]
    # Day 1 with clubs: the clubs stand in for an earlier day's tables (see the module doc).
    groups = [] if history else club_groups(ids, clubs)
    avoid = history or ([groups] if groups else [])
    met = [pr for pr in meeting_pairs(avoid) if pr[0] in index and pr[1] in index]
    wd = _conflict_weights(len(ids), [(index[a], index[b]) for a, b in met], apart, index, sizes)
    adj = [sorted(d.items()) for d in wd]
    lower = _lower_bound(set(ids), sizes, avoid, pins, met)

    rng = random.Random(seed)
    order = _start_order(len(ids), avoid, index, rng, shuffle_rest=not history)
    tab, cost = _best_start(
        order, sizes, adj, wd, pin_tab, greedy=bool(avoid or apart), lower=lower
    )
    if cost > lower:
        movable = [i not in pin_tab for i in range(len(ids))]
        search = _Search(len(ids), len(sizes), adj, wd, movable, rng)
        search.load(tab)
        budget = 4_000_000 if max_evals is None else max_evals
        tab = search.run(
            target=lower,
            deadline=start + time_limit,
            max_evals=budget,
            stall_evals=max(budget // 4, 1),
        )

    tables: list[list[int]] = [[] for _ in sizes]
    for i, t in enumerate(tab):
        tables[t].append(ids[i])
    for table in tables:
        table.sort()
    _verify(tables, pins, set(apart), name)
    if not history:
        return SeatingResult(tables=tables, repeat_pairs=0, lower_bound=0, seed=seed)
    met_set = set(met)
    repeats = sum(len(repeat_pairs_at(table, met_set)) for table in tables)
    return SeatingResult(tables=tables, repeat_pairs=repeats, lower_bound=lower, seed=seed)


def club_groups(players: Iterable[int], clubs: Mapping[int, str] | None) -> list[list[int]]:
    """The players of each club with two or more of them, clubs by name (trimmed, any case)."""
    groups: dict[str, list[int]] = {}
    for p in players:
        club = " ".join((clubs or {}).get(p, "").split()).casefold()
        if club:
            groups.setdefault(club, []).append(p)
    return [sorted(groups[club]) for club in sorted(groups) if len(groups[club]) > 1]


def club_spread(tables: Sequence[Sequence[int]], clubs: Mapping[int, str]) -> tuple[int, int]:
    """(the largest number of one club at one table, the smallest that largest number can be
    with these tables): a club of c players at k tables puts at least ceil(c / k) at one."""
    groups = club_groups((p for table in tables for p in table), clubs)
    if not groups or not tables:
        return (1 if any(tables) else 0), (1 if any(tables) else 0)
    where = {p: t for t, table in enumerate(tables) for p in table}
    largest = max(Counter(where[p] for p in group).most_common(1)[0][1] for group in groups)
    best = max(-(-len(group) // len(tables)) for group in groups)
    return largest, best


def _namer(names: Mapping[int, str] | None) -> Namer:
    """How messages name a player: from ``names`` when given there, else by id."""

    def name(p: int) -> str:
        if names is not None and p in names:
            return str(names[p])
        return str(p)

    return name


def _check_listed_once(ids: list[int], name: Namer) -> None:
    if len(set(ids)) != len(ids):
        dup = sorted(p for p, c in Counter(ids).items() if c > 1)
        raise SeatingError(f"{_join_names([name(p) for p in dup])} listed more than once.")


def _conflict_weights(
    n: int, met: list[Pair], apart: list[Pair], index: Mapping[int, int], sizes: list[int]
) -> Weights:
    """1 per pair who met before (``met`` in internal indices), ``BIG`` per keep-apart pair
    (``apart`` in player ids); ``BIG`` exceeds every possible repeat count together."""
    big = sum(_c2(s) for s in sizes) + 1
    wd: Weights = [{} for _ in range(n)]
    for a, b in met:
        wd[a][b] = 1
        wd[b][a] = 1
    for pa, pb in apart:
        a, b = index[pa], index[pb]
        wd[a][b] = wd[a].get(b, 0) + big
        wd[b][a] = wd[b].get(a, 0) + big
    return wd


def _start_order(
    n: int,
    history: History,
    index: Mapping[int, int],
    rng: random.Random,
    *,
    shuffle_rest: bool = False,
) -> list[int]:
    """The order players are dealt onto tables: day 1 shuffled; later days the latest day's
    tables in a seeded random order, each table's players consecutively (new players last).
    On day 1 with clubs, ``history`` is the clubs and the players of no club come last, shuffled
    too (``shuffle_rest``)."""
    if not history:
        shuffled = list(range(n))
        rng.shuffle(shuffled)
        return shuffled
    order: list[int] = []
    placed: set[int] = set()
    latest = [[index[p] for p in table if p in index] for table in history[-1]]
    rng.shuffle(latest)
    for table in latest:
        block = [x for x in table if x not in placed]
        rng.shuffle(block)
        placed.update(block)
        order.extend(block)
    rest = [x for x in range(n) if x not in placed]
    if shuffle_rest:
        rng.shuffle(rest)
    order.extend(rest)
    return order


def _best_start(
    order: list[int],
    sizes: list[int],
    adj: Adjacency,
    wd: Weights,
    pin_tab: dict[int, int],
    *,
    greedy: bool,
    lower: int = 0,
) -> tuple[list[int], int]:
    """The cheaper of the plain deal and (when there is anything to avoid) the greedy deal,
    with its cost; the plain deal wins a tie, so when it already costs ``lower`` (the proven
    bound, which nothing beats) the greedy deal is not built."""
    n = len(order)
    plain = _fix_pins(_deal(order, sizes), pin_tab, n, wd)
    plain_cost = _cost(plain, adj)
    if not greedy or plain_cost <= lower:
        return plain, plain_cost
    other = _greedy_deal(order, sizes, adj, pin_tab, n)
    other_cost = _cost(other, adj)
    return (other, other_cost) if other_cost < plain_cost else (plain, plain_cost)


def _verify(tables: list[list[int]], pins: dict[int, int], apart: set[Pair], name: Namer) -> None:
    """Final check of the hard constraints on the seating found."""
    for p, t in sorted(pins.items()):
        if p not in tables[t - 1]:  # pragma: no cover - defensive
            raise SeatingError(f"Could not seat {name(p)} at table {t}.")
    broken = sorted(pair for table in tables for pair in broken_keep_aparts(table, apart))
    if broken:
        a, b = broken[0]
        raise SeatingError(f"Could not find a seating that keeps {name(a)} and {name(b)} apart.")
