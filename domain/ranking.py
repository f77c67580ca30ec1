"""Standings: pure ranking over plain rows (no Django).

The lowest cumulative score over all days wins.  Tied players share a rank
(1, 2, 2, 4) unless the organiser switches on tie-breaks, which are applied
in the order given.  The tie-breaks and what each compares are listed once,
in :mod:`domain.tie_breaks` (most games gone out; lowest single worst
game, where a player with no games counts as worse than any number).

Players still tied after the tie-breaks share a rank.  Within a shared rank
rows are listed by player number.  Withdrawn players are listed after all
ranked players with rank ``None``, by total and then name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from domain.tie_breaks import TIE_BREAK_KEYS, TieBreak, resolve_tie_breaks

__all__ = [
    "TIE_BREAKS",
    "ClubRow",
    "PlayerRecord",
    "RankedRow",
    "rank_clubs",
    "rank_players",
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

    @property
    def total(self) -> int:
        return sum(points for points in self.day_totals if points is not None)


@dataclass(slots=True)
class RankedRow:
    rank: int | None  # None for withdrawn
    tied: bool  # shares its rank with another row
    record: PlayerRecord
    total: int


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
