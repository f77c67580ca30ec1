"""Progressive tables: a session seated from the previous session's results at each table.

Plain Python. Table 1 is the top table. At each table the ``up`` lowest totals move up one
table (toward table 1) and the ``down`` highest move down one; everyone else stays. A player
the movement would take off either end stays there, or goes round to the other end when the
organiser chose "wrap". Players level on total at a table are ordered by the event's
tie-breaks (:mod:`domain.tie_breaks`), then by seat (the earlier seat counts as lower).

The tables stay even: when players left or arrived since the previous session the moved tables
may hold too many or too few, and are then evened out by taking everyone in the order of
their new table (each table's lowest first, newcomers last) and cutting that line into tables
of the sizes a fresh seating would use. A player's words then say where they were due and
where they sit instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from domain.seating.pairs import table_sizes
from domain.tie_breaks import TieBreak, resolve_tie_breaks

__all__ = [
    "Move",
    "Movement",
    "MovementError",
    "MovementRule",
    "SessionScore",
    "move_tables",
]


class MovementError(ValueError):
    """The movement cannot seat these players; the message says why in plain words."""


@dataclass(frozen=True)
class SessionScore:
    """A player's previous session at their table: what the tie-breaks look at, too."""

    total: int | None  # None: no game counted for them
    games_out: int = 0
    worst_game: int | None = None


@dataclass(frozen=True)
class MovementRule:
    up: int  # the lowest at each table who move up a table
    down: int  # the highest at each table who move down a table
    wrap: bool  # off either end: round to the other end (True) or stay (False)


@dataclass(frozen=True)
class Move:
    player: int
    from_table: int | None  # None: not at a table in the previous session
    to_table: int
    words: str  # "lowest at table 3 (41): moves up to table 2"


@dataclass(frozen=True)
class Movement:
    tables: list[list[int]]  # table 1 first, each table's players lowest total first
    moves: dict[int, Move]  # by player, in the order of the new tables
    evened: bool  # the moved tables were evened out (players left or arrived)


@dataclass
class _Due:
    """Where one player is due, before the tables are evened out."""

    player: int
    table: int | None
    due: int  # the table the rule sends them to; past the last table for a newcomer
    words: str
    order: tuple[int, ...]  # lowest first, within the table they are due at


def _rank_key(score: SessionScore, tie_breaks: Sequence[TieBreak], seat: int) -> tuple[int, ...]:
    # No game counted ranks as the highest: nobody moves up for not having played.
    key: tuple[int, ...] = (score.total is None, score.total or 0)
    for tie_break in tie_breaks:
        key += tie_break.sort_key(score)
    return (*key, seat)


def _decider(a: SessionScore, b: SessionScore, tie_breaks: Sequence[TieBreak]) -> str:
    """What put ``a`` before ``b`` when they are level on total: a tie-break, or the seat."""
    for tie_break in tie_breaks:
        if tie_break.sort_key(a) != tie_break.sort_key(b):
            return tie_break.label.lower()
    return "the earlier seat"


def _points(score: SessionScore) -> str:
    return "no score" if score.total is None else str(score.total)


class _Table:
    """One table of the previous session, ranked, with who moves off it and why."""

    def __init__(
        self,
        number: int,
        members: list[int],
        scores: Mapping[int, SessionScore],
        tie_breaks: Sequence[TieBreak],
        rule: MovementRule,
        names: Mapping[int, str],
    ) -> None:
        self.number, self.rule, self.names = number, rule, names
        self.tie_breaks, self.scores, self.members = tie_breaks, scores, members
        self.ranked = sorted(
            members, key=lambda p: _rank_key(scores[p], tie_breaks, members.index(p))
        )
        count = len(self.ranked)
        self.up = self.ranked[: min(rule.up, count)]
        self.down = self.ranked[max(len(self.up), count - rule.down) :]

    def _tie_note(self, player: int, moving: list[int], movers_first: bool) -> str:
        """Words for a player level on total with one on the other side of the line the
        movement draws at this table."""
        if not moving or len(moving) == len(self.ranked):
            return ""
        ranked = self.ranked if movers_first else self.ranked[::-1]
        edge = len(moving)
        inside, outside = ranked[edge - 1], ranked[edge]
        if player not in (inside, outside):
            return ""
        a, b = self.scores[inside], self.scores[outside]
        if a.total != b.total:
            return ""
        other = outside if player == inside else inside
        first, second = (inside, outside) if movers_first else (outside, inside)
        decided = _decider(self.scores[first], self.scores[second], self.tie_breaks)
        return f"; level with {self.names.get(other, f'#{other}')}: {decided} decided"

    def _among(self, which: str, how_many: int) -> str:
        if how_many == 1:
            return f"{which} at table {self.number}"
        return f"among the {how_many} {which} at table {self.number}"

    def due(self, player: int, last: int) -> _Due:
        score = self.scores[player]
        order = _rank_key(score, self.tie_breaks, self.members.index(player))
        points = _points(score)
        if player in self.up:
            note = self._tie_note(player, self.up, movers_first=True)
            target, how = self._off_top(last)
            words = f"{self._among('lowest', self.rule.up)} ({points}{note}): {how}"
        elif player in self.down:
            note = self._tie_note(player, self.down, movers_first=False)
            target, how = self._off_bottom(last)
            words = f"{self._among('highest', self.rule.down)} ({points}{note}): {how}"
        else:
            note = self._tie_note(player, self.up, movers_first=True) or self._tie_note(
                player, self.down, movers_first=False
            )
            target = self.number
            words = f"stays at table {self.number}" + (f" ({points}{note})" if note else "")
        return _Due(player, self.number, target, words, order)

    def _off_top(self, last: int) -> tuple[int, str]:
        if self.number > 1:
            return self.number - 1, f"moves up to table {self.number - 1}"
        if self.rule.wrap and last > 1:
            return last, f"moves round to table {last}, the last table"
        return 1, "stays at table 1, the top table"

    def _off_bottom(self, last: int) -> tuple[int, str]:
        if self.number < last:
            return self.number + 1, f"moves down to table {self.number + 1}"
        if self.rule.wrap and last > 1:
            return 1, "moves round to table 1"
        return last, f"stays at table {last}, the last table"


def _dues(
    previous: Sequence[Sequence[int]],
    present: set[int],
    scores: Mapping[int, SessionScore],
    tie_breaks: Sequence[TieBreak],
    rule: MovementRule,
    names: Mapping[int, str],
) -> list[_Due]:
    last = len(previous)
    dues: list[_Due] = []
    for number, table in enumerate(previous, start=1):
        members = [p for p in table if p in present]
        if members:
            ranked = _Table(number, members, scores, tie_breaks, rule, names)
            dues += [ranked.due(p, last) for p in members]
    seated_before = {d.player for d in dues}
    newcomers = sorted(p for p in present if p not in seated_before)
    dues += [_Due(p, None, last + 1, "new this session", (p,)) for p in newcomers]
    return dues


def _balanced(groups: Sequence[Sequence[int]], sizes: Sequence[int]) -> bool:
    return all(groups) and sorted(map(len, groups), reverse=True) == list(sizes)


def move_tables(
    previous: Sequence[Sequence[int]],
    scores: Mapping[int, SessionScore],
    players: Sequence[int],
    rule: MovementRule,
    max_table_size: int,
    *,
    tie_breaks: Sequence[str] = (),
    names: Mapping[int, str] | None = None,
) -> Movement:
    """The new session's tables from ``previous`` (player ids in seat order, table 1 first)
    and each previous player's ``scores``; ``players`` are those to seat now (a player of the
    previous session not among them has left; one not seated before arrived).

    MovementError when the players now cannot fill two tables of ``max_table_size``.
    """
    present = set(players)
    if len(present) != len(players):
        raise MovementError("A player is listed twice among the players to seat.")
    sizes = table_sizes(len(present), max_table_size)
    if len(sizes) < 2:
        raise MovementError(
            f"A movement needs at least two tables: {len(present)} players fill one table "
            f"(at most {max_table_size} a table)."
        )
    missing = [p for table in previous for p in table if p in present and p not in scores]
    if missing:
        raise MovementError(f"No result for player {missing[0]} of the previous session.")
    dues = _dues(previous, present, scores, resolve_tie_breaks(tie_breaks), rule, names or {})
    dues.sort(key=lambda d: (d.due, d.order))
    groups = [[d.player for d in dues if d.due == n] for n in range(1, len(previous) + 2)]
    groups = [g for g in groups if g]
    evened = not _balanced(groups, sizes)
    if evened:
        line = [d.player for d in dues]
        groups, start = [], 0
        for size in sizes:
            groups.append(line[start : start + size])
            start += size
    by_player = {d.player: d for d in dues}
    before = {p for table in previous for p in table}
    why = (
        "the moves left the tables uneven"
        if before == present
        else "players left or arrived since the last session"
    )
    moves = {}
    for number, group in enumerate(groups, start=1):
        for player in group:
            moves[player] = _move(by_player[player], number, why)
    return Movement(tables=groups, moves=moves, evened=evened)


def _move(due: _Due, table: int, why: str) -> Move:
    words = due.words
    if due.table is None:
        words = f"new this session: seated at table {table}"
    elif table != due.due:
        words += f"; {why}, so the tables were evened out: sits at table {table}"
    return Move(due.player, due.table, table, words)
