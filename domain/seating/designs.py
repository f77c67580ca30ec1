"""Schedules with no repeat pairs, from finite geometry ("resolvable designs").

Pure Python, no Django. :func:`resolvable_design` returns, for ``n`` points at ``k`` tables of
``g``, a list of *parallel classes* (sessions): each a partition of ``range(n)`` into ``k``
tables of ``g``, and no two points share a table in two classes. The planner in
:mod:`domain.seating.sessions` maps the points onto real players.

What is built, and why each is repeat-free:

* **Affine spaces AG(d, q)**, ``q`` a prime power, ``n = q**d``, tables of ``q``: the points are
  the vectors of GF(q)^d, a table is a line ``{x + t*v : t in GF(q)}``, and a session is all the
  lines of one direction ``v`` (a point of the projective space), so
  ``(q**d - 1) / (q - 1)`` sessions. Two points lie on exactly one line, so meet once. With
  ``d = 2`` this is the affine plane: 7x7 for 8 sessions, 4x4 for 5, 3x3 for 4. ``d >= 3``
  gives e.g. 27 players at 9 tables of 3 for 13 sessions (a Kirkman triple system).
* **Latin squares for q x q**, ``q`` not a prime power: the same lines ``y = m*x + c`` over the
  product of the fields GF(q_i) of the prime-power factors of ``q`` (MacNeish). The slopes
  whose pairwise differences are units in every factor give ``min(q_i) + 1`` sessions (rows,
  columns and ``min(q_i) - 1`` orthogonal Latin squares): 3 for 6x6 and 10x10.
* **The 15 schoolgirls** (15 players at 5 tables of 3, 7 sessions): a packing of the projective
  space PG(3, 2) into 7 spreads, found by a small exact search over its 56 spreads.
* **Kirkman triple systems of 3q**, ``q`` a prime ``6t + 1`` (21 players at 7 tables of 3 for
  10 sessions, 39 at 13 for 19): points ``(x, j)``, ``x`` in GF(q) and ``j`` in 0..2, ``g`` a
  primitive root. One class is ``{(0,0), (0,1), (0,2)}``, the triples ``{(g^i, j),
  (g^(i+2t), j), (g^(i+4t), j)}`` for ``i < t`` and each ``j``, and the mixed triples
  ``A_i = {(g^i, 0), (g^(i+2t), 1), (g^(i+4t), 2)}`` for ``i // t`` odd; its ``q`` shifts
  (``x + s``) are ``q`` sessions, and each mixed triple with ``i // t`` even, shifted by every
  ``s``, is one more. Each difference between two points, within a level and across two,
  is met once over them all, so no pair meets twice (a construction published for answers
  to Kirkman's problem; the code is ours).
* **Cyclic designs** found by a small exact search (:mod:`domain.seating.cyclic`): 18 players at
  6 tables of 3 for 8 sessions; ``3q + 1`` players at tables of 4 for ``q`` sessions, ``q`` a
  prime ``4t + 1`` up to 29 (40 for 13, 52 for 17, 88 for 29).
* **Tables of two**: the round-robin circle method, ``n - 1`` sessions for even ``n``.
* **Partial spreads**, tables of ``q**2`` and ``n = q**m`` with ``m`` odd (32 at tables of 4):
  a session is the cosets of one 2-dimensional subspace of GF(q)^m, and two sessions share no
  pair when their subspaces meet only in 0. The planes of GF(q)^m cannot all be split that way
  for odd ``m``, so a small search picks as many pairwise disjoint ones as it can (9 for 32 at
  tables of 4, the most there are); the planner seats the sessions beyond them. Up to 243
  points only (see ``_SPREAD_POINTS``).

GF(q) is built here: elements are the integers ``0 .. q-1`` read as polynomials over GF(p) in
base ``p``, multiplied modulo the first monic irreducible polynomial of degree ``m``.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import TypeVar

from domain.seating.cyclic import (
    cyclic_design,
    cyclic_recipe,
    rotational_four,
    rotational_four_order,
)

__all__ = ["Design", "design_name", "prime_power", "resolvable_design"]

Design = list[list[list[int]]]  # design[class][table] = points
_T = TypeVar("_T")


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, m)`` with ``q == p**m`` for a prime ``p``, or None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    m = 0
    while q % p == 0:
        q //= p
        m += 1
    return (p, m) if q == 1 else None


class _Ring:
    """Addition and multiplication tables of a finite commutative ring on ``range(size)``."""

    def __init__(self, size: int, add: list[list[int]], mul: list[list[int]]) -> None:
        self.size = size
        self.add = add
        self.mul = mul


def _poly_mulmod(a: list[int], b: list[int], modulus: list[int], p: int) -> list[int]:
    """Product of two polynomials (coefficient lists, lowest first) modulo a monic one."""
    m = len(modulus) - 1
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] = (out[i + j] + x * y) % p
    for top in range(len(out) - 1, m - 1, -1):
        c = out[top]
        if c:
            for j in range(m + 1):
                out[top - m + j] = (out[top - m + j] - c * modulus[j]) % p
    return (out + [0] * m)[:m]


def _digits(x: int, p: int, m: int) -> list[int]:
    return [(x // p**i) % p for i in range(m)]


def _number(digits: list[int], p: int) -> int:
    return sum(d * p**i for i, d in enumerate(digits))


def _irreducible(p: int, m: int) -> list[int]:
    """The first monic irreducible polynomial of degree ``m`` over GF(p) (lowest first)."""
    for low in product(range(p), repeat=m):
        modulus = [*low, 1]
        if low[0] == 0 and m > 1:
            continue
        if _has_no_factor(modulus, p, m):
            return modulus
    raise ValueError(f"no irreducible polynomial of degree {m} over GF({p})")  # pragma: no cover


def _has_no_factor(modulus: list[int], p: int, m: int) -> bool:
    """True when no monic polynomial of degree 1 .. m//2 divides ``modulus``: then no
    non-zero product of two residues is zero, which is what a field needs."""
    size = p**m
    for a in range(1, size):
        for b in range(1, size):
            if _number(_poly_mulmod(_digits(a, p, m), _digits(b, p, m), modulus, p), p) == 0:
                return False
    return True


@cache
def _field(q: int) -> _Ring:
    """GF(q) for a prime power ``q``."""
    pm = prime_power(q)
    if pm is None:
        raise ValueError(f"{q} is not a prime power")
    p, m = pm
    modulus = _irreducible(p, m) if m > 1 else [0, 1]
    digits = [_digits(x, p, m) for x in range(q)]
    add = [
        [_number([(x + y) % p for x, y in zip(a, b, strict=True)], p) for b in digits]
        for a in digits
    ]
    if m == 1:
        mul = [[(a * b) % p for b in range(q)] for a in range(q)]
    else:
        mul = [[_number(_poly_mulmod(a, b, modulus, p), p) for b in digits] for a in digits]
    return _Ring(q, add, mul)


def _factor_prime_powers(q: int) -> list[int]:
    """``q`` as a product of prime powers of distinct primes, e.g. 12 -> [4, 3]."""
    out = []
    d = 2
    while q > 1:
        if q % d == 0:
            part = 1
            while q % d == 0:
                q //= d
                part *= d
            out.append(part)
        d += 1
    return out


def _product_ring(q: int) -> tuple[_Ring, list[int]]:
    """The product of the fields of ``q``'s prime-power factors, and slopes whose pairwise
    differences are units (every component non-zero): element ``j`` of each field, for
    ``j < min(factor)``."""
    parts = _factor_prime_powers(q)
    fields = [_field(f) for f in parts]

    def encode(coords: list[int]) -> int:
        x = 0
        for f, c in zip(parts, coords, strict=True):
            x = x * f + c
        return x

    def decode(x: int) -> list[int]:
        coords = []
        for f in reversed(parts):
            coords.append(x % f)
            x //= f
        return coords[::-1]

    elems = [decode(x) for x in range(q)]

    def table(op: str) -> list[list[int]]:
        return [
            [
                encode([getattr(fl, op)[u][v] for fl, u, v in zip(fields, a, b, strict=True)])
                for b in elems
            ]
            for a in elems
        ]

    slopes = [encode([j] * len(parts)) for j in range(min(parts))]
    return _Ring(q, table("add"), table("mul")), slopes


def _plane(q: int) -> Design:
    """Lines ``x = c`` and ``y = m*x + c`` over the ring of :func:`_product_ring`: all ``q + 1``
    classes for a prime power, ``min(factor) + 1`` otherwise. Point (x, y) is ``x*q + y``."""
    ring, slopes = _product_ring(q) if prime_power(q) is None else (_field(q), list(range(q)))
    add, mul = ring.add, ring.mul
    classes: Design = [[[x * q + y for y in range(q)] for x in range(q)]]
    for m in slopes:
        classes.append([[x * q + add[mul[m][x]][c] for x in range(q)] for c in range(q)])
    return classes


def _affine_space(q: int, d: int, most: int | None = None) -> Design:
    """The parallel classes of lines of AG(d, q), one per direction (see the module doc); with
    ``most``, only the first ``most`` and the last (see :func:`_first_and_last`)."""
    field = _field(q)
    add, mul = field.add, field.mul
    points = list(product(range(q), repeat=d))
    index = {pt: i for i, pt in enumerate(points)}
    classes: Design = []
    # one direction per projective point: its first non-zero coordinate 1
    directions = [v for v in points if next((c for c in v if c), 0) == 1]
    for v in _first_and_last(directions, most):
        seen = [False] * len(points)
        lines = []
        for x in points:
            if seen[index[x]]:
                continue
            line = [
                index[tuple(add[xi][mul[t][vi]] for xi, vi in zip(x, v, strict=True))]
                for t in range(q)
            ]
            for i in line:
                seen[i] = True
            lines.append(sorted(line))
        classes.append(lines)
    return classes


def _schoolgirls() -> Design:
    """Kirkman's 15 schoolgirls: 7 spreads of PG(3, 2) that share no line (exact search)."""
    lines = sorted(
        {tuple(sorted((a, b, a ^ b))) for a in range(1, 16) for b in range(1, 16) if a != b}
    )
    spreads: list[frozenset[tuple[int, ...]]] = []

    def grow(chosen: list[tuple[int, ...]], covered: int) -> None:
        if covered == (1 << 16) - 2:
            spreads.append(frozenset(chosen))
            return
        first = next(x for x in range(1, 16) if not covered >> x & 1)
        for line in lines:
            if line[0] == first and not any(covered >> x & 1 for x in line):
                grow([*chosen, line], covered | sum(1 << x for x in line))

    grow([], 0)
    packing = _pack(spreads, lines, [])
    assert packing is not None  # PG(3, 2) has packings (Kirkman 1850)
    return [[[x - 1 for x in line] for line in sorted(spread)] for spread in packing]


def _pack(
    spreads: list[frozenset[tuple[int, ...]]],
    lines: list[tuple[int, ...]],
    chosen: list[frozenset[tuple[int, ...]]],
) -> list[frozenset[tuple[int, ...]]] | None:
    used = set().union(*chosen) if chosen else set()
    free = [line for line in lines if line not in used]
    if not free:
        return chosen
    for spread in spreads:
        if free[0] in spread and not spread & used:
            found = _pack(spreads, lines, [*chosen, spread])
            if found is not None:
                return found
    return None


def _primitive_root(q: int) -> int:
    """The least primitive root of the prime ``q``."""
    return next(g for g in range(2, q) if len({pow(g, i, q) for i in range(q - 1)}) == q - 1)


def _kirkman_3q(q: int) -> Design:
    """The Kirkman triple system of ``3q`` points for a prime ``q = 6t + 1`` (see the module
    doc); point ``(x, j)`` is ``j * q + x``."""
    t = (q - 1) // 6
    g = _primitive_root(q)
    power = [pow(g, i, q) for i in range(q - 1)]

    def triple(i: int, levels: tuple[int, int, int]) -> list[int]:
        return [level * q + power[(i + 2 * t * n) % (q - 1)] for n, level in enumerate(levels)]

    base = [[0, q, 2 * q]]
    base += [triple(i, (j, j, j)) for i in range(t) for j in range(3)]
    base += [triple(i, (0, 1, 2)) for i in range(6 * t) if (i // t) % 2 == 1]

    def shift(block: list[int], s: int) -> list[int]:
        return sorted((p // q) * q + (p % q + s) % q for p in block)

    classes = [[shift(block, s) for block in base] for s in range(q)]
    for i in range(6 * t):
        if (i // t) % 2 == 0:
            classes.append([shift(triple(i, (0, 1, 2)), s) for s in range(q)])
    return classes


def _kirkman_order(n: int) -> int | None:
    """``q`` when :func:`_kirkman_3q` seats ``n = 3q`` players, else None."""
    q, rest = divmod(n, 3)
    if rest or q % 6 != 1 or q < 7 or prime_power(q) != (q, 1):
        return None
    return q


def _searched_design(n: int, g: int) -> Design | None:
    """A design of :mod:`domain.seating.cyclic` (a copy: the caller may change it)."""
    if cyclic_recipe(n, g) is not None:
        found = cyclic_design(n, g)
    elif g == 4 and rotational_four_order(n) is not None and prime_power(n) is None:
        found = rotational_four(rotational_four_order(n) or 0)
    else:
        return None
    return [[list(t) for t in cls] for cls in found] if found else None


def _round_robin(n: int, most: int | None = None) -> Design:
    """Tables of two: the circle method (player n-1 fixed, the others rotate); with ``most``,
    only the first ``most`` rounds and the last (see :func:`_first_and_last`)."""
    classes: Design = []
    for r in _first_and_last(list(range(n - 1)), most):
        tables = [[r, n - 1]]
        for i in range(1, n // 2):
            tables.append(sorted(((r + i) % (n - 1), (r - i) % (n - 1))))
        classes.append(tables)
    return classes


_SPREAD_NODES = 20_000  # steps of the partial-spread search (a few milliseconds here)
# Partial spreads of more points than this are not built: listing the planes takes time growing
# with the square of the points (0.5 s for 243 at tables of 9, 3.5 s for 512 at tables of 4,
# 80 s for 2,048), and so large a field is seated well session by session anyway.
_SPREAD_POINTS = 243


def _planes(q: int, m: int) -> list[list[int]]:
    """The 2-dimensional subspaces of GF(q)^m, each as its vectors (numbered in base q)."""
    field = _field(q)
    add, mul = field.add, field.mul
    vectors = list(product(range(q), repeat=m))
    index = {v: i for i, v in enumerate(vectors)}
    found: set[tuple[int, ...]] = set()
    for u in vectors:
        for v in vectors:
            if index[u] < index[v]:
                span = {
                    index[tuple(add[mul[a][x]][mul[b][y]] for x, y in zip(u, v, strict=True))]
                    for a in range(q)
                    for b in range(q)
                }
                if len(span) == q * q:
                    found.add(tuple(sorted(span)))
    return [list(plane) for plane in sorted(found)]


def _disjoint_planes(planes: list[list[int]], limit: int) -> list[list[int]]:
    """As many planes meeting pairwise only in 0 as a bounded depth-first search finds."""
    masks = [sum(1 << x for x in plane if x) for plane in planes]
    best: list[int] = []
    nodes = 0

    def grow(chosen: list[int], used: int, start: int) -> None:
        nonlocal best, nodes
        if len(chosen) > len(best):
            best = list(chosen)
        for i in range(start, len(planes)):
            if nodes >= limit:
                return
            if not masks[i] & used:
                nodes += 1
                grow([*chosen, i], used | masks[i], i + 1)

    grow([], 0, 0)
    return [planes[i] for i in best]


def _partial_spread(q: int, m: int) -> Design:
    """One session per chosen plane of GF(q)^m: its cosets (see the module doc)."""
    field = _field(q)
    n = q**m
    vectors = list(product(range(q), repeat=m))
    index = {v: i for i, v in enumerate(vectors)}
    classes: Design = []
    for plane in _disjoint_planes(_planes(q, m), _SPREAD_NODES):
        seen = [False] * n
        tables = []
        for x in range(n):
            if seen[x]:
                continue
            coset = sorted(
                index[tuple(field.add[a][b] for a, b in zip(vectors[x], vectors[y], strict=True))]
                for y in plane
            )
            for y in coset:
                seen[y] = True
            tables.append(coset)
        classes.append(tables)
    return classes


def _spread_order(n: int, table_size: int) -> tuple[int, int] | None:
    """``(q, m)`` when tables of ``q**2`` seat ``n = q**m`` players, ``m`` odd, else None."""
    q = round(table_size**0.5)
    if q * q != table_size or prime_power(q) is None:
        return None
    m, rest = 0, n
    while rest % q == 0:
        rest //= q
        m += 1
    return (q, m) if rest == 1 and m % 2 == 1 and m >= 3 and n <= _SPREAD_POINTS else None


def _first_and_last(items: list[_T], most: int | None) -> list[_T]:
    """The first ``most`` of ``items`` and the last one (all of them when that is all, or
    ``most`` is None): a planner uses the first classes of a design, and the last for a short
    field, and building every class for thousands of points takes seconds."""
    if most is None or len(items) <= most + 1:
        return items
    return [*items[: max(most, 0)], items[-1]]


def resolvable_design(n: int, table_size: int, most: int | None = None) -> Design | None:
    """Sessions of ``n`` points at tables of exactly ``table_size`` with no pair meeting twice,
    as many as the constructions above give, or None when none applies. With ``most``, a long
    round robin or affine space is cut to its first ``most`` classes and its last."""
    g = table_size
    if g < 2 or n % g or n <= g:
        return None
    if g == 2:
        return _round_robin(n, most)
    if g == 3 and (n == 15 or _kirkman_order(n) is not None):
        return _schoolgirls() if n == 15 else _kirkman_3q(n // 3)
    found = _searched_design(n, g)
    if found is not None:
        return found
    d, rest = 0, n
    while rest % g == 0:
        rest //= g
        d += 1
    spread = _spread_order(n, g)
    if spread is not None:
        classes = _partial_spread(*spread)
        return classes if len(classes) >= 2 else None
    if rest != 1:
        return None
    if d == 2:
        return _plane(g)
    if prime_power(g) is not None and g**d <= 4096:
        return _affine_space(g, d, most)
    return None


def design_name(n: int, table_size: int) -> str:
    """What :func:`resolvable_design` builds for ``n`` at tables of ``table_size``, in words."""
    if table_size == 2:
        return "round robin"
    if table_size == 3 and n == 15:
        return "Kirkman's schoolgirls"
    if table_size == 3 and _kirkman_order(n) is not None:
        return "Kirkman triple system"
    if cyclic_recipe(n, table_size) is not None:
        return "nearly Kirkman system" if table_size == 3 else "cyclic design"
    if table_size == 4 and rotational_four_order(n) is not None and prime_power(n) is None:
        return "resolvable design of tables of 4"
    if n == table_size * table_size:
        return "affine plane" if prime_power(table_size) else "Latin squares"
    if _spread_order(n, table_size) is not None:
        return "partial spread"
    return "affine space"
