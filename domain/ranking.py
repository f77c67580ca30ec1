"""Standings: pure ranking over plain rows (no Django).

The lowest cumulative score over all days wins.  Tied players share a rank
(1, 2, 2, 4) unless the organiser switches on tie-breaks, which are applied
in the order given.  The tie-breaks and what each compares are listed once,
in :mod:`domain.tie_breaks` (most games gone out; lowest single worst
game, where a player with no games counts as worse than any number).

Players still tied after the tie-breaks share a rank.  Within a shared rank
rows are listed by player number.  Withdrawn players are listed after all
ranked players with rank ``None``, by total and then name.

The event's rules for what goes into a record are here too, so the event and the
season standings apply the same arithmetic: what a game marked not played counts
under the "average" rule (:func:`unplayed_credit`), and how substitutes are
ranked (:func:`apply_substitute_rule`, :func:`shared_seat_games`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from domain.rules import SUB_OWN, SUB_SHARED
from domain.tie_breaks import TIE_BREAK_KEYS, TieBreak, resolve_tie_breaks

__all__ = [
    "TIE_BREAKS",
    "ClubRow",
    "PlayerRecord",
    "RankedRow",
    "apply_substitute_rule",
    "mark_short_totals",
    "rank_clubs",
    "rank_players",
    "shared_seat_games",
    "unplayed_average",
    "unplayed_credit",
    "with_credit",
]

# The keys of the registered tie-breaks, kept under the name callers already import.
TIE_BREAKS = TIE_BREAK_KEYS


# Plain slotted classes, not frozen ones: a frozen dataclass sets each field through
# object.__setattr__, and standings build two of these per player on every request.
@dataclass(slots=True)
class PlayerRecord:
    entry_id: int
    player_number: int
    name: str
    club: str
    day_totals: tuple[int | None, ...]  # per day, confirmed games only; None: no game that day
    games_played: int
    games_out: int
    worst_game: int | None
    withdrawn: bool = False
    substitute: bool = False  # a substitute the event's rule leaves unranked
    # Per day, the games a late player missed that the event's rule credited (empty: none).
    late: tuple[int, ...] = ()
    late_rule: str = ""  # the rule that credited them (``domain.rules.LATE_CHOICES``)
    # Each such game: (day column, game number, points), for the race chart's lines.
    late_by_game: tuple[tuple[int, int, int], ...] = ()
    flight: str = ""  # the entry's flight, "" for none (domain.flights)

    @property
    def total(self) -> int:
        return sum(points for points in self.day_totals if points is not None)


@dataclass(slots=True)
class RankedRow:
    rank: int | None  # None for withdrawn
    tied: bool  # shares its rank with another row
    record: PlayerRecord
    total: int
    # The most games anyone in the view counted, when this total counts fewer; 0 otherwise.
    short_of: int = 0


@dataclass(frozen=True)
class ClubRow:
    rank: int
    club: str
    players: int
    total: int
    average: float


def _sort_key(record: PlayerRecord, tie_breaks: Sequence[TieBreak]) -> tuple[int, ...]:
    """Total, then each tie-break's key in order: smaller is better."""
    key: tuple[int, ...] = (record.total,)
    for tie_break in tie_breaks:
        key += tie_break.sort_key(record)
    return key


def rank_players(
    records: Iterable[PlayerRecord], tie_breaks: Sequence[str] = ()
) -> list[RankedRow]:
    """Rank players, lowest total first.

    ``rank`` is 1 + the number of ranked players strictly better (lower total,
    or equal total and better on the tie-breaks, in the order given).
    ``tied`` is True when another row shares the same rank.  Unknown
    tie-break names raise ValueError.  The result does not depend on the
    order of ``records``.
    """
    chosen = resolve_tie_breaks(tie_breaks)
    records = list(records)
    active = [r for r in records if not (r.withdrawn or r.substitute)]
    gone = [r for r in records if r.withdrawn or r.substitute]

    # Each key is computed once: a 2,000-player field is ranked on every standings request.
    keyed = sorted(
        ((_sort_key(r, chosen), r.player_number, r.entry_id, index), r)
        for index, r in enumerate(active)
    )
    rows: list[RankedRow] = []
    i = 0
    while i < len(keyed):
        k = keyed[i][0][0]
        j = i + 1
        while j < len(keyed) and keyed[j][0][0] == k:
            j += 1
        tied = j - i > 1
        for (record_key, *_), r in keyed[i:j]:
            rows.append(RankedRow(rank=i + 1, tied=tied, record=r, total=record_key[0]))
        i = j

    gone.sort(key=lambda r: (r.total, r.name.casefold(), r.name, r.player_number, r.entry_id))
    rows.extend(RankedRow(rank=None, tied=False, record=r, total=r.total) for r in gone)
    return rows


def mark_short_totals(rows: Sequence[RankedRow], credited: Mapping[int, int]) -> None:
    """Mark each total that counts fewer games than the most anyone counted, so no output shows
    it among full totals as if it were one. A game not played that the "average" rule counted
    (``credited``, by entry) counts as a game; under "nothing" it is a game short."""

    def counted(row: RankedRow) -> int:
        return row.record.games_played + credited.get(row.record.entry_id, 0)

    most = max((counted(row) for row in rows), default=0)
    for row in rows:
        row.short_of = most if counted(row) < most else 0


def rank_clubs(rows: Sequence[RankedRow]) -> list[ClubRow]:
    """Club table from ranked player rows.

    * Only players still in the event count: withdrawn rows (rank None) are
      left out, and so is anyone with a blank club (after trimming spaces).
    * ``total`` is the sum of the club's players' totals; ``average`` is that
      total divided by the number of players.
    * Clubs send different numbers of players, so clubs are ranked by
      average, lowest first; clubs with exactly the same average share a rank
      (1, 2, 2, 4).  Within a shared rank clubs are listed by name.
    """
    groups: dict[str, list[int]] = {}
    for row in rows:
        if row.rank is None or row.record.withdrawn:
            continue
        club = (row.record.club or "").strip()
        if not club:
            continue
        groups.setdefault(club, []).append(row.total)

    entries = [
        (Fraction(sum(totals), len(totals)), club, len(totals), sum(totals))
        for club, totals in groups.items()
    ]
    entries.sort(key=lambda e: (e[0], e[1].casefold(), e[1]))
    result: list[ClubRow] = []
    rank = 0
    previous: Fraction | None = None
    for position, (avg, club, players, total) in enumerate(entries, start=1):
        if avg != previous:
            rank = position
            previous = avg
        result.append(
            ClubRow(rank=rank, club=club, players=players, total=total, average=total / players)
        )
    return result


# ---------------------------------------------------------------------------
# Games marked not played, under the "average" rule
# ---------------------------------------------------------------------------


def unplayed_average(points: int | None, games: int) -> int:
    """What one game marked not played counts for a player: their average over the games they
    played that day, rounded half up; 0 when they played none (``points`` is then None)."""
    if not games:
        return 0
    return (2 * (points or 0) + games) // (2 * games)


def unplayed_credit(
    sat_down: Iterable[tuple[int, int]],
    played: Mapping[int, tuple[Sequence[int | None], Sequence[int]]],
    days: int,
) -> dict[int, tuple[int, ...]]:
    """{entry id: points per day} that games marked not played add to the players' days.

    ``sat_down`` holds (entry id, day index) once for every game marked not played that the
    player sat down for; ``played`` holds each player's (points per day, games per day) over the
    games that count. A player missing from ``played`` played none.
    """
    nothing: tuple[Sequence[int | None], Sequence[int]] = ((None,) * days, (0,) * days)
    credit: dict[int, list[int]] = {}
    for entry_id, day in sat_down:
        points, games = played.get(entry_id, nothing)
        credit.setdefault(entry_id, [0] * days)[day] += unplayed_average(points[day], games[day])
    return {entry_id: tuple(days_credit) for entry_id, days_credit in credit.items()}


def with_credit(day_totals: Sequence[int | None], credit: Sequence[int]) -> tuple[int | None, ...]:
    """Day totals with the credit for games not played added; a day with no game played and
    nothing credited stays None (it prints as a dash, not as a perfect 0)."""
    return tuple(
        points if not extra else (points or 0) + extra
        for points, extra in zip(day_totals, credit, strict=True)
    )


# ---------------------------------------------------------------------------
# Substitutes
# ---------------------------------------------------------------------------


def apply_substitute_rule(
    records: list[PlayerRecord], replaced_by: Mapping[int, int], rule: str
) -> list[PlayerRecord]:
    """Substitutes (``replaced_by``: substitute entry id -> the entry they replaced) under the
    event's rule: ranked on their own ("own"), shown without a rank ("not_ranked"), or their
    games added to the player they replaced, who is then ranked for the seat ("shared")."""
    if not replaced_by or rule == SUB_OWN:
        return records
    if rule != SUB_SHARED:
        return [replace(r, substitute=r.entry_id in replaced_by) for r in records]
    by_id = {r.entry_id: r for r in records}
    for sub_id, replaced_id in replaced_by.items():
        sub, held = by_id.pop(sub_id, None), by_id.get(replaced_id)
        if sub is None or held is None:
            continue
        by_id[replaced_id] = _shared_seat(held, sub)
    return list(by_id.values())


def _shared_seat(held: PlayerRecord, sub: PlayerRecord) -> PlayerRecord:
    """The replaced player's record with the substitute's games added: one seat, one line."""
    worst = [w for w in (held.worst_game, sub.worst_game) if w is not None]
    return replace(
        held,
        day_totals=tuple(
            None if a is None and b is None else (a or 0) + (b or 0)
            for a, b in zip(held.day_totals, sub.day_totals, strict=True)
        ),
        games_played=held.games_played + sub.games_played,
        games_out=held.games_out + sub.games_out,
        worst_game=max(worst) if worst else None,
        withdrawn=False,
    )


def shared_seat_games(
    games: Mapping[int, Sequence[int]], replaced_by: Mapping[int, int]
) -> dict[int, list[int]]:
    """Games played per day (or session) by entry, with each substitute's added to the player
    they replaced, as :func:`apply_substitute_rule` adds their points under the "shared" rule."""
    merged = {entry_id: list(counts) for entry_id, counts in games.items()}
    for sub_id, replaced_id in replaced_by.items():
        if sub_id in merged and replaced_id in merged:
            merged[replaced_id] = [
                a + b for a, b in zip(merged[replaced_id], merged[sub_id], strict=True)
            ]
    return merged
