"""The "everyone meets everyone" goal of seasons and rallies: the fewest sessions after which
every pair of players has shared a table at least once, and a bound on it.

Pure Python, no Django. Where a design of :mod:`domain.seating.designs` meets every pair
exactly once (an affine plane, a Kirkman triple system, a resolvable design of tables of 4),
its sessions are the answer, at the bound. Otherwise each session is seated against all the
sessions before it, so it seats as few pairs who met already as it can, that is as many new
pairs as it can (a greedy cover);
three shuffle numbers are tried and the shortest schedule kept. The bound is the larger of what
one player needs (``n - 1`` others, at most ``s - 1`` new ones a session at a table of ``s``)
and what the field needs (``C(n, 2)`` pairs, at most the table-mate pairs of a session each
time). Published values (the Happy Diner table): 20 players at tables of at most 4 need 7
sessions, 24 at 6 need 6, 30 at 6 need 7; the greedy cover is within a session or two of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.seating.day import seat
from domain.seating.designs import resolvable_design
from domain.seating.pairs import SeatingError, pair_count, table_pairs, table_sizes

__all__ = ["MeetEveryone", "meet_everyone", "meet_everyone_bound"]

_TRIES = 3  # shuffle numbers tried, from the one given
_EVALS = 400_000  # each session's search work (deterministic)


@dataclass(frozen=True)
class MeetEveryone:
    sessions: list[list[list[int]]]  # sessions[d][t]: player ids at table t+1 of session d
    bound: int  # no schedule lets every pair meet in fewer sessions
    reason: str  # why, in plain words
    seed: int  # the shuffle number of the schedule kept


def meet_everyone_bound(players: int, max_table_size: int) -> tuple[int, str]:
    """(the fewest sessions in which every pair can meet, why) for ``players`` at tables of at
    most ``max_table_size`` (balanced as :func:`table_sizes` balances)."""
    sizes = table_sizes(players, max_table_size)
    if players < 2 or not sizes:
        return 0, "nobody has anyone to meet"
    largest = max(sizes)
    per_player = -(-(players - 1) // (largest - 1))
    pairs, per_session = pair_count(players), sum(pair_count(s) for s in sizes)
    per_field = -(-pairs // per_session)
    if per_player >= per_field:
        return per_player, (
            f"each player has {players - 1} others to meet and meets at most "
            f"{largest - 1} a session"
        )
    return per_field, f"{pairs:,} pairs to meet and at most {per_session:,} meet a session"


def meet_everyone(
    players: list[int], max_table_size: int, *, seed: int, most: int = 60
) -> MeetEveryone:
    """The shortest greedy schedule found (see the module doc) in which every pair of
    ``players`` meets; refused when it would take more than ``most`` sessions."""
    bound, reason = meet_everyone_bound(len(players), max_table_size)
    if bound > most:
        raise SeatingError(
            f"Every pair of {len(players):,} players meeting takes at least {bound} sessions, "
            f"more than the {most} planned here."
        )
    design = _whole_design(sorted(players), max_table_size)
    if design is not None:
        return MeetEveryone(design, bound, reason, seed)
    best: list[list[list[int]]] | None = None
    kept = seed
    for attempt in range(_TRIES):
        found = _cover(players, max_table_size, seed + attempt * 1000, most)
        if found is not None and (best is None or len(found) < len(best)):
            best, kept = found, seed + attempt * 1000
        if best is not None and len(best) <= bound:
            break
    if best is None:
        raise SeatingError(f"Not every pair met within {most} sessions: seat fewer at a time.")
    return MeetEveryone(best, bound, reason, kept)


def _whole_design(players: list[int], max_table_size: int) -> list[list[list[int]]] | None:
    """A design's sessions when they meet every pair exactly once, on ``players``."""
    sizes = table_sizes(len(players), max_table_size)
    if len(set(sizes)) != 1:
        return None
    design = resolvable_design(len(players), sizes[0])
    if design is None:
        return None
    if len(design) * sum(pair_count(s) for s in sizes) != pair_count(len(players)):
        return None
    return [[sorted(players[x] for x in table) for table in tables] for tables in design]


def _cover(
    players: list[int], max_table_size: int, seed: int, most: int
) -> list[list[list[int]]] | None:
    ids = sorted(players)
    unmet = {(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]}
    sessions: list[list[list[int]]] = []
    while unmet and len(sessions) < most:
        tables = seat(
            players,
            max_table_size,
            seed=seed + len(sessions),
            history=sessions,
            max_evals=_EVALS,
            time_limit=60.0,
        ).tables
        sessions.append(tables)
        for table in tables:
            unmet.difference_update((min(a, b), max(a, b)) for a, b in table_pairs(table))
    return None if unmet else sessions
