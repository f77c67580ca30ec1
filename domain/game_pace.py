"""A table gone quiet: its next game is overdue, against the pace of the event's own games.

The usual game time is measured, not set: for each table whose games came from its phone, the
time from its first game entered to its last, over the games between (a scorekeeper who saves
three games at once does not make games look short); the usual time is the median of those
paces over the event, once enough tables have one. A table is quiet when its next game has taken
more than ``OVERDUE`` times that since its last game was entered. The median is the time half of
the games take longer than, so a table a little over it is still normal: the desk walks over only
when it is well over.

A table with nothing entered yet is measured from when play started, taken to be one usual game
before the day's first game entered anywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median

OVERDUE = 1.5
# Fewer paces than this and there is no usual time yet: no table is marked quiet.
MIN_PACES = 3


@dataclass(frozen=True)
class TableTimes:
    """When each game a table played was first entered (corrections later do not count: they
    are the desk's work, not the table's play), in any order, and whether they came from the
    table's own phone."""

    entered: Sequence[datetime]
    from_phone: bool = True


@dataclass(frozen=True)
class Quiet:
    since: datetime  # the table's last game entered, or when play started for a table with none
    waited: timedelta
    usual: timedelta
    nothing_entered: bool  # the table has entered no game yet


def pace(times: TableTimes) -> timedelta | None:
    """A table's time per game: first to last entry over the games between; None with fewer
    than two games, or when they were keyed at the desk (a paper card keyed at the end of the
    day says nothing of how long its games took)."""
    if not times.from_phone or len(times.entered) < 2:
        return None
    first, last = min(times.entered), max(times.entered)
    if last <= first:
        return None
    return (last - first) / (len(times.entered) - 1)


def usual_game_time(tables: Iterable[TableTimes]) -> timedelta | None:
    """The median of the tables' paces, or None when fewer than ``MIN_PACES`` tables have one."""
    paces = [p for p in (pace(t) for t in tables) if p is not None]
    if len(paces) < MIN_PACES:
        return None
    return timedelta(seconds=median(p.total_seconds() for p in paces))


def quiet_table(
    times: TableTimes,
    *,
    games_left: int,
    usual: timedelta | None,
    play_started: datetime | None,
    now: datetime,
) -> Quiet | None:
    """How long the table's next game has been waiting, when that is more than ``OVERDUE``
    usual games; None while it is not, when it has no game left, when there is no usual time
    yet, and for a table whose games are keyed at the desk from paper."""
    if games_left <= 0 or usual is None or not times.from_phone:
        return None
    if times.entered:
        since = max(times.entered)
    elif play_started is not None:
        since = play_started
    else:
        return None
    waited = now - since
    if waited <= usual * OVERDUE:
        return None
    return Quiet(since, waited, usual, nothing_entered=not times.entered)


def play_started(first_entries: Iterable[datetime], usual: timedelta | None) -> datetime | None:
    """When play started on a day: one usual game before its first game entered anywhere."""
    first = min(first_entries, default=None)
    if first is None or usual is None:
        return None
    return first - usual
