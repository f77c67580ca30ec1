"""Refusals of a seating that cannot be made, naming the players: a player listed twice, pins
and keep-apart pairs that no seating honours, and (after the search) a keep-apart pair it could
not part.

Pure Python, no Django.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

from domain.seating.pairs import Pair, SeatingError, broken_keep_aparts

__all__ = ["Namer", "check_feasible", "check_listed_once", "namer", "verify"]

Namer = Callable[[int], str]


def namer(names: Mapping[int, str] | None) -> Namer:
    """How messages name a player: from ``names`` when given there, else by id."""

    def name(p: int) -> str:
        if names is not None and p in names:
            return str(names[p])
        return str(p)

    return name


def check_listed_once(ids: list[int], name: Namer) -> None:
    if len(set(ids)) != len(ids):
        dup = sorted(p for p, c in Counter(ids).items() if c > 1)
        raise SeatingError(f"{_join_names([name(p) for p in dup])} listed more than once.")


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


def check_feasible(
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


def verify(tables: list[list[int]], pins: dict[int, int], apart: set[Pair], name: Namer) -> None:
    """Final check of the hard constraints on the seating found."""
    for p, t in sorted(pins.items()):
        if p not in tables[t - 1]:  # pragma: no cover - defensive
            raise SeatingError(f"Could not seat {name(p)} at table {t}.")
    broken = sorted(pair for table in tables for pair in broken_keep_aparts(table, apart))
    if broken:
        a, b = broken[0]
        raise SeatingError(f"Could not find a seating that keeps {name(a)} and {name(b)} apart.")
