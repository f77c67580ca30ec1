"""Resolvable designs with a cyclic symmetry, found by a small exact search.

Pure Python, no Django. Some fields have a schedule with no pair meeting twice that no formula
of :mod:`domain.seating.designs` builds, but that is symmetric under turning a wheel: the points
are ``(x, j)`` for ``x`` in Z_m and ``j`` a level, plus a few fixed points, and the sessions are
``c`` *base classes* and each of their ``m`` shifts ``x -> x + s`` (the fixed points stay put).
Shifting keeps a pair's *orbit* (the level or levels of its two points and the difference of
their ``x``), so the sessions meet no pair twice exactly when the base classes' pairs fall in
different orbits of ``m`` pairs each. The orbits of fewer pairs (two fixed points, or two points
of one level ``m / 2`` apart) must stay unmet, since a shift would meet them again.

The search seats one base class after another, the first point not yet seated each time, trying
every table of it whose pairs fall in orbits not yet met. It is exact and deterministic, and
each recipe below is one it solves in a few hundred steps (18 players at tables of 3 for 8
sessions, the most there can be: a "nearly Kirkman" system, each player missing one other).

Tables of four for ``3q + 1`` players, ``q`` a prime ``4t + 1`` (40 players for 13 sessions,
52 for 17): the points are ``(x, j)`` for ``x`` in Z_q and three levels, and one fixed point;
the ``q`` sessions are the shifts of one base class, the fixed point with ``(0, 0), (0, 1),
(0, 2)`` and tables ``{(x, i), (-x, i), (y, j), (-y, j)}``. Within a level, the pairs ``{x, -x}``
for ``x`` in ``1 .. 2t`` have every difference once (``2x``, or ``q - 2x``, runs over them all),
so only the levels' pairs are searched for: two tables of levels ``i`` and ``j`` may not share a
difference ``±(y - x)`` or ``±(y + x)``, and the tables of each two levels together have all
``q - 1`` differences but 0 (the fixed point's table has that one). The search takes under a
hundred steps for 52 (:func:`rotational_four`).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

__all__ = ["cyclic_design", "cyclic_recipe", "rotational_four", "rotational_four_order"]

Design = list[list[list[int]]]

# (players, table size) -> (m, levels, fixed points, base classes): sessions = classes * m
_RECIPES = {
    (18, 3): (4, 4, 2, 2),
}
_NODES = 100_000  # search steps at most (the recipes need far fewer)


def cyclic_recipe(n: int, table_size: int) -> tuple[int, int, int, int] | None:
    return _RECIPES.get((n, table_size))


def _orbit(a: int, b: int, m: int, levels: int) -> tuple[int, ...] | None:
    """The orbit of the pair (a, b) under the shifts, None when it has fewer than ``m``
    pairs (never met: a shift would meet it again)."""
    top = m * levels
    if a >= top and b >= top:
        return None
    if a >= top or b >= top:
        fixed, other = (a, b) if a >= top else (b, a)
        return (0, fixed, other // m)
    (ja, xa), (jb, xb) = divmod(a, m), divmod(b, m)
    if ja == jb:
        d = (xb - xa) % m
        d = min(d, m - d)
        return None if 2 * d == m else (1, ja, d)
    if ja > jb:
        (ja, xa), (jb, xb) = (jb, xb), (ja, xa)
    return (2, ja, jb, (xb - xa) % m)


@cache
def cyclic_design(n: int, table_size: int) -> Design | None:
    """Every session of the recipe for ``n`` at tables of ``table_size``, or None when there is
    no recipe or the search (bounded) finds no base classes."""
    recipe = cyclic_recipe(n, table_size)
    if recipe is None:
        return None
    m, levels, fixed, count = recipe
    base = _base_classes(m, levels, fixed, count, table_size)
    if base is None:
        return None
    top = m * levels

    def shift(p: int, s: int) -> int:
        return p if p >= top else (p // m) * m + (p % m + s) % m

    return [[sorted(shift(p, s) for p in table) for table in cls] for cls in base for s in range(m)]


def _base_classes(
    m: int, levels: int, fixed: int, count: int, g: int
) -> list[list[list[int]]] | None:
    points = list(range(m * levels + fixed))
    met: set[tuple[int, ...]] = set()
    classes: list[list[list[int]]] = [[] for _ in range(count)]
    seated: list[set[int]] = [set() for _ in range(count)]
    steps = 0

    def orbits(table: tuple[int, ...]) -> list[tuple[int, ...]] | None:
        found: list[tuple[int, ...]] = []
        for a, b in combinations(table, 2):
            key = _orbit(a, b, m, levels)
            if key is None or key in met or key in found:
                return None
            found.append(key)
        return found

    def grow(c: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > _NODES:
            return False
        free = [p for p in points if p not in seated[c]]
        if not free:
            return c == count - 1 or grow(c + 1)
        for others in combinations(free[1:], g - 1):
            table = (free[0], *others)
            keys = orbits(table)
            if keys is None:
                continue
            seated[c].update(table)
            met.update(keys)
            classes[c].append(list(table))
            if grow(c):
                return True
            classes[c].pop()
            met.difference_update(keys)
            seated[c].difference_update(table)
        return False

    return classes if grow(0) else None


def rotational_four_order(n: int) -> int | None:
    """``q`` when :func:`rotational_four` seats ``n = 3q + 1`` at tables of 4, else None (up to
    ``q = 29``: beyond, the search may take long)."""
    q, rest = divmod(n - 1, 3)
    if rest or q % 4 != 1 or not 5 <= q <= 29 or any(q % d == 0 for d in range(2, q)):
        return None
    return q


@cache
def rotational_four(q: int) -> Design | None:
    """The ``q`` sessions of ``3q + 1`` players at tables of 4 (see the module doc); point
    ``(x, j)`` is ``j * q + x`` and the fixed point ``3 * q``. None when the bounded search
    finds no base class."""
    pairs = _level_pairs(q)
    if pairs is None:
        return None
    base = [[0, q, 2 * q, 3 * q]]
    base += [[i * q + x, i * q + q - x, j * q + y, j * q + q - y] for i, x, j, y in pairs]

    def shift(p: int, s: int) -> int:
        return p if p == 3 * q else (p // q) * q + (p % q + s) % q

    return [[sorted(shift(p, s) for p in table) for table in base] for s in range(q)]


def _level_pairs(q: int) -> list[tuple[int, int, int, int]] | None:
    """(level i, x, level j, y) for each table of the base class but the fixed point's."""
    half, per = (q - 1) // 2, (q - 1) // 4
    free = [set(range(1, half + 1)) for _ in range(3)]
    met: dict[tuple[int, int], set[int]] = {(0, 1): set(), (0, 2): set(), (1, 2): set()}
    tables: list[tuple[int, int, int, int]] = []
    steps = 0

    def grow() -> bool:
        nonlocal steps
        steps += 1
        level = next((lv for lv in range(3) if free[lv]), None)
        if level is None:
            return True
        if steps > _NODES:
            return False
        x = min(free[level])
        for other in (lv for lv in range(3) if lv != level):
            key = (min(level, other), max(level, other))
            if sum(1 for t in tables if (min(t[0], t[2]), max(t[0], t[2])) == key) >= per:
                continue
            for y in sorted(free[other]):
                differences = {(y - x) % q, (x - y) % q, (x + y) % q, (-x - y) % q}
                if len(differences) < 4 or differences & met[key]:
                    continue
                free[level].discard(x)
                free[other].discard(y)
                met[key] |= differences
                tables.append((level, x, other, y))
                if grow():
                    return True
                tables.pop()
                met[key] -= differences
                free[level].add(x)
                free[other].add(y)
        return False

    return tables if grow() else None
