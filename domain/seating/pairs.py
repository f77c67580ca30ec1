"""The rules every seating is judged by: table sizes, and the pairs at a table who met before,
must sit apart or belong to one club.

Pure Python, no Django. The planners (:mod:`domain.seating.day`, :mod:`domain.seating.sessions`)
seat by these rules, and code checking a seating someone changed by hand judges it the same way.
A pair is two player ids, the smaller first; a history is the earlier days (or sessions), each a
list of tables of player ids.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set as AbstractSet

__all__ = [
    "History",
    "Pair",
    "SeatingError",
    "broken_keep_aparts",
    "club_groups",
    "club_spread",
    "count_repeat_pairs",
    "keep_apart_set",
    "meeting_conflicts",
    "meeting_pairs",
    "ordered_pair",
    "pair_count",
    "repeat_pairs_at",
    "table_conflicts",
    "table_pairs",
    "table_sizes",
]

Pair = tuple[int, int]  # two player ids, the smaller first (see ordered_pair)
History = Sequence[Sequence[Sequence[int]]]  # earlier days, each a list of tables of ids


class SeatingError(ValueError):
    """The requested seating is impossible (message names the players)."""


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


def pair_count(players: int) -> int:
    """``C(players, 2)``: the pairs among that many players (at one table, say)."""
    return players * (players - 1) // 2


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
