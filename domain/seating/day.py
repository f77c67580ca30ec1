"""Table seating for one day of a Mexican Train tournament.

Pure Python, no Django.  The public entry point is :func:`seat`; the rules it seats by (table
sizes, who met on an earlier day, who must sit apart) are in :mod:`domain.seating.pairs` and its
lower bound in :mod:`domain.seating.bounds`.

Day 1 is a seeded random seating.  From day 2 on we minimise the number of *repeat pairs*:
unordered pairs of players who sit at the same table today and already shared a table on at
least one earlier day (a pair counts once per day no matter how many times it met before).  Two
kinds of hard constraint are honoured on every day:

* keep-apart pairs -- two players who must never share a table;
* pins -- a player who must sit at a given table number (1-based).

Method
------
1. Table sizes: the fewest tables with none above the maximum, sizes differing by at most one,
   larger tables first (:func:`~domain.seating.pairs.table_sizes`).
2. A start seating.  On day 2+ the players are listed table by table from the latest earlier
   day and dealt round-robin onto the new tables.  With sizes ``b+1`` (first ``r`` tables) and
   ``b`` the plain deal never meets a full table (position ``i`` goes to table ``i % k``;
   ``N = b*k + r``), so every old table -- a contiguous block of the list -- is spread as evenly
   as possible, which is exactly the day-2 lower bound.  A greedy variant (deal, but skip tables
   where the player would meet someone already met) is also built and the cheaper of the two is
   kept.  Pinned players are then swapped onto their tables.
3. The tabu search of :mod:`domain.seating.search` on this one session, tuned for fields of up
   to 2,000 players, unless the start is already at the lower bound: it stops as soon as the
   bound is reached, or when a deterministic work budget (or, as a safety net, the wall clock
   ``time_limit``) runs out.

Clubs on day 1
--------------
Clubs play to meet other clubs.  When ``clubs`` is given on a day with no history (day 1), each
club is dealt like one table of an earlier day (club block by club block, round-robin, which
spreads every club as evenly as the numbers allow, the same argument as for day 2), club mates
sharing a table cost the search 1 per pair, and it stops at the spread bound.  The repeat pairs
reported stay those of real earlier days (none on day 1).  Later days ignore clubs, so their
repeat pairs are never traded for club spread.

Everything random comes from ``random.Random(seed)`` and all iteration is over lists / sorted
structures, and the budget counts work, so the same inputs and seed give the same seating on any
machine; when the wall-clock safety net stopped the search instead, ``cut_short`` says so.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Unpack

from domain.seating.bounds import day_lower_bound
from domain.seating.feasibility import verify
from domain.seating.field import SeatingField, SeatingOptions
from domain.seating.pairs import History, meeting_pairs, repeat_pairs_at
from domain.seating.search import Problem, TabuSearch, Tuning

__all__ = ["SeatingResult", "seat", "seat_field"]

Weights = list[dict[int, int]]  # weights[i][j]: what players i and j meeting costs the search

_DAY_EVALS = 4_000_000  # swap evaluations of a day's search at most (a fraction of a second)


@dataclass(frozen=True)
class SeatingResult:
    tables: list[list[int]]  # tables[i] = sorted player ids at table i+1
    repeat_pairs: int  # pairs who met on an earlier day and meet again
    lower_bound: int  # proven lower bound for repeat_pairs (0 on day 1)
    seed: int
    cut_short: bool = False  # the time limit, not the work budget, ended the search


def seat(
    players: Iterable[int], max_table_size: int, *, seed: int, **options: Unpack[SeatingOptions]
) -> SeatingResult:
    """Seat ``players`` for one day.

    ``history`` holds the earlier days (each a list of tables of player ids; it may mention
    players who no longer play).  ``keep_apart`` pairs and ``pinned`` (player id -> 1-based
    table number) entries about players not in ``players`` are ignored.  Raises
    :class:`~domain.seating.pairs.SeatingError` when the constraints cannot be met.
    ``max_evals`` caps the search work (swap evaluations, deterministic); ``time_limit``
    (seconds, 5 unless given) is a wall-clock safety net.  ``clubs`` (player id -> club, blank
    for none) spreads each club across the tables on a day with no ``history``.
    """
    field = SeatingField.of(players, max_table_size, options)
    limit = options.get("time_limit", 5.0)
    return seat_field(field, seed=seed, time_limit=limit, max_evals=options.get("max_evals"))


def seat_field(
    field: SeatingField, *, seed: int, time_limit: float = 5.0, max_evals: int | None = None
) -> SeatingResult:
    """:func:`seat` for a field already read (the planner seats one field many times)."""
    start = time.perf_counter()
    if not field.ids:
        return SeatingResult(tables=[], repeat_pairs=0, lower_bound=0, seed=seed)
    field.check()
    if field.history and field.club_groups:
        return _clubs_after_repeats(field, seed, start + time_limit, max_evals)
    # Day 1 with clubs: the clubs stand in for an earlier day's tables (see the module doc).
    avoid = field.history or ([field.club_groups] if field.club_groups else [])
    met = field.met if field.history else sorted(meeting_pairs(avoid))
    lower = day_lower_bound(set(field.ids), field.sizes, avoid, field.pins, met)
    problem = Problem.of(field, 1)
    target = problem.target(lower, problem.club_floor()) if field.history else lower
    rng = random.Random(seed)
    order = _start_order(field, avoid, rng)
    tuning = Tuning.for_day(problem.n, len(field.sizes), sum(problem.movable))
    search = TabuSearch(problem, rng, tuning)
    tab, cost = _best_start(order, field, search, greedy=bool(avoid or field.apart), target=target)
    if cost > target:
        search.load([tab])
        budget = _DAY_EVALS if max_evals is None else max_evals
        tab = search.run(target, budget, start + time_limit, stall_evals=max(budget // 4, 1))[0]
    tables = field.tables_of(tab)
    verify(tables, field.pins, set(field.apart), field.name)
    if not field.history:
        return SeatingResult(tables, 0, 0, seed, search.cut_short)
    met_set = set(met)
    repeats = sum(len(repeat_pairs_at(table, met_set)) for table in tables)
    return SeatingResult(tables, repeats, lower, seed, search.cut_short)


def _clubs_after_repeats(
    field: SeatingField, seed: int, deadline: float, max_evals: int | None
) -> SeatingResult:
    """A later day that spreads the clubs too: seated for its repeats alone first, then
    searched again from there with the clubs counted. The second search only keeps a seating
    that costs less, and one repeat outweighs every club mate, so the clubs never cost a repeat
    (counting them from the start can lead the search away from the fewest repeats)."""
    plain = seat_field(
        replace(field, clubs_every_day=False),
        seed=seed,
        time_limit=max(0.0, deadline - time.perf_counter()),
        max_evals=max_evals,
    )
    problem = Problem.of(field, 1)
    rng = random.Random(seed + 1)
    tuning = Tuning.for_day(problem.n, len(field.sizes), sum(problem.movable))
    search = TabuSearch(problem, rng, tuning)
    search.load([field.tab_of(plain.tables)])
    target = problem.target(plain.lower_bound, problem.club_floor())
    budget = _DAY_EVALS if max_evals is None else max_evals
    tab = search.run(target, budget, deadline, stall_evals=max(budget // 4, 1))[0]
    tables = field.tables_of(tab)
    verify(tables, field.pins, set(field.apart), field.name)
    met = set(field.met)
    repeats = sum(len(repeat_pairs_at(table, met)) for table in tables)
    cut_short = plain.cut_short or search.cut_short
    return SeatingResult(tables, repeats, plain.lower_bound, seed, cut_short)


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
    order: list[int], sizes: list[int], weights: Weights, pin_tab: dict[int, int], n: int
) -> list[int]:
    """Round-robin deal that skips tables where the player would meet a conflict partner."""
    k = len(sizes)
    tab = [-1] * n
    room = list(sizes)
    conf = [[0] * k for _ in range(n)]

    def place(x: int, t: int) -> None:
        tab[x] = t
        room[t] -= 1
        for y, w in weights[x].items():
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


def _fix_pins(tab: list[int], pin_tab: dict[int, int], n: int, weights: Weights) -> list[int]:
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
        q = _displaced(tab, target, src, p, pin_tab, n, weights)
        tab[p], tab[q] = target, src
    return tab


def _displaced(
    tab: list[int],
    target: int,
    src: int,
    p: int,
    pin_tab: dict[int, int],
    n: int,
    weights: Weights,
) -> int:
    """Who leaves table ``target`` for ``src`` so that ``p`` can take their seat."""
    best_q, best_c = -1, -1
    for q in range(n):
        if tab[q] != target or q in pin_tab:
            continue
        # conflicts q brings to src (minus p, who leaves) -- cheap heuristic
        c = sum(w for y, w in weights[q].items() if tab[y] == src and y != p)
        if best_c < 0 or c < best_c:
            best_q, best_c = q, c
    if best_q < 0:
        best_q = next(q for q in range(n) if tab[q] == target and pin_tab.get(q) != target)
    return best_q


def _start_order(field: SeatingField, avoid: History, rng: random.Random) -> list[int]:
    """The order players are dealt onto tables: day 1 shuffled; later days the latest day's
    tables in a seeded random order, each table's players consecutively (new players last).
    On day 1 with clubs, ``avoid`` is the clubs and the players of no club come last, shuffled
    too."""
    n = len(field.ids)
    if not avoid:
        shuffled = list(range(n))
        rng.shuffle(shuffled)
        return shuffled
    index = field.index
    order: list[int] = []
    placed: set[int] = set()
    latest = [[index[p] for p in table if p in index] for table in avoid[-1]]
    rng.shuffle(latest)
    for table in latest:
        block = [x for x in table if x not in placed]
        rng.shuffle(block)
        placed.update(block)
        order.extend(block)
    rest = [x for x in range(n) if x not in placed]
    if not field.history:
        rng.shuffle(rest)
    order.extend(rest)
    return order


def _best_start(
    order: list[int], field: SeatingField, search: TabuSearch, *, greedy: bool, target: int
) -> tuple[list[int], int]:
    """The cheaper of the plain deal and (when there is anything to avoid) the greedy deal,
    with its cost; the plain deal wins a tie, so when it already costs ``target`` (the proven
    bound, which nothing beats) the greedy deal is not built."""
    n, sizes, pin_tab = len(order), field.sizes, field.pin_tables
    weights = search.weights[0]
    plain = _fix_pins(_deal(order, sizes), pin_tab, n, weights)
    plain_cost = search.cost_of([plain])
    if not greedy or plain_cost <= target:
        return plain, plain_cost
    other = _greedy_deal(order, sizes, weights, pin_tab, n)
    other_cost = search.cost_of([other])
    return (other, other_cost) if other_cost < plain_cost else (plain, plain_cost)
