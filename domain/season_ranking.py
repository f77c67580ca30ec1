"""Season standings: pure ranking over each player's sessions (no Django).

A season's players attend different numbers of sessions, and the lowest score wins, so a plain
total would reward staying at home. A season is therefore ranked one of two ways:

* **best N of M** (``best_of`` = N): each player's N lowest session totals are added up; players
  with at least N sessions are ranked by that sum, lowest first. Players with fewer sessions are
  listed after them without a rank (``qualified`` False), most sessions first.
* **average per game** (no ``best_of``): every player with a game in at least ``min_sessions``
  sessions is ranked by their total divided by their games, lowest first. A player who came
  once and had a lucky day would otherwise lead the season, so players with fewer sessions are
  listed after the ranked ones without a rank, most sessions first, as under best N.

Players equal on that figure are split by more games played (more play is the better record);
still equal, they share a rank (1, 2, 2, 4) and are listed by name. Where two sessions have the
same total, the earlier is the one counted among the best.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

__all__ = [
    "MAX_MIN_SESSIONS",
    "SeasonPlayer",
    "SeasonRow",
    "SessionResult",
    "min_sessions_problem",
    "rank_season",
    "ranking_rule",
]


# The highest minimum of sessions a season may ask for: a session a day for a year. Above it a
# minimum is a typo, and it keeps the figure inside every database's small integer.
MAX_MIN_SESSIONS = 366


def min_sessions_problem(min_sessions: int) -> str:
    """What is wrong with a season's minimum of sessions, in words for the form and the command
    line ("" when it is fine)."""
    if min_sessions < 1:
        return (
            f"A minimum of {min_sessions} sessions cannot be: give 1 or more (1 ranks everyone "
            "with a game)."
        )
    if min_sessions > MAX_MIN_SESSIONS:
        return (
            f"A minimum of {min_sessions} sessions is more than a season holds: give 1 to "
            f"{MAX_MIN_SESSIONS} (a session a day for a year)."
        )
    return ""


@dataclass(frozen=True, slots=True)
class SessionResult:
    session: int  # the session's place in the season, from 0
    total: int  # points counted that session (the event's own standings decide what counts)
    games: int  # games counted that session


@dataclass(frozen=True, slots=True)
class SeasonPlayer:
    player_id: int
    name: str
    club: str
    sessions: tuple[SessionResult, ...]


@dataclass(frozen=True, slots=True)
class SeasonRow:
    rank: int | None  # None: fewer sessions than best-of N or the minimum (or no game at all)
    tied: bool  # shares its rank with another row
    player: SeasonPlayer
    attended: int  # sessions with a counted game
    sessions_held: int  # M: sessions of the season so far
    games: int
    total: int
    average: Fraction | None  # total per game; None without a game
    best_total: int | None  # the best N sessions' total (best-of seasons, N sessions or more)
    best_sessions: tuple[int, ...]  # the sessions that best_total counts, in season order

    @property
    def qualified(self) -> bool:
        return self.rank is not None

    @property
    def attendance(self) -> str:
        return f"{self.attended} of {self.sessions_held}"


def ranking_rule(best_of: int | None, sessions_held: int, min_sessions: int = 1) -> str:
    """What the season is ranked by, in words for the page and every printout."""
    if best_of is None and min_sessions > 1:
        return f"Ranked by average per game, at least {min_sessions} sessions"
    if best_of is None:
        return "Ranked by average per game"
    return f"Ranked by the best {best_of} of {sessions_held} sessions"


def _best(sessions: Sequence[SessionResult], count: int) -> tuple[SessionResult, ...]:
    lowest = sorted(sessions, key=lambda s: (s.total, s.session))[:count]
    return tuple(sorted(lowest, key=lambda s: s.session))


def _row(player: SeasonPlayer, best_of: int | None, held: int) -> SeasonRow:
    played = [s for s in player.sessions if s.games > 0]
    games = sum(s.games for s in played)
    total = sum(s.total for s in played)
    best = _best(played, best_of) if best_of is not None and len(played) >= best_of else None
    return SeasonRow(
        rank=None,
        tied=False,
        player=player,
        attended=len(played),
        sessions_held=max(held, len(played)),
        games=games,
        total=total,
        average=Fraction(total, games) if games else None,
        best_total=sum(s.total for s in best) if best is not None else None,
        best_sessions=tuple(s.session for s in best) if best is not None else (),
    )


def _score(row: SeasonRow, best_of: int | None, min_sessions: int) -> Fraction | None:
    """The figure a row is ranked by (lower is better); None when it is not ranked."""
    if best_of is None:
        return row.average if row.attended >= min_sessions else None
    return None if row.best_total is None else Fraction(row.best_total)


def _name_key(row: SeasonRow) -> tuple[str, str, int]:
    return (row.player.name.casefold(), row.player.name, row.player.player_id)


def rank_season(
    players: Iterable[SeasonPlayer],
    *,
    best_of: int | None,
    sessions_held: int,
    min_sessions: int = 1,
) -> list[SeasonRow]:
    """Rank a season's players (see the module's docstring). ``rank`` is 1 + the number of
    ranked players strictly better; the result does not depend on the order of ``players``.
    ``best_of`` or ``min_sessions`` below 1 raises ValueError; ``min_sessions`` counts only
    when ranking by average (best N already asks for N sessions)."""
    if best_of is not None and best_of < 1:
        raise ValueError("best_of must be 1 or more")
    if min_sessions < 1:
        raise ValueError("min_sessions must be 1 or more")
    rows = [_row(player, best_of, sessions_held) for player in players]
    ranked: list[tuple[tuple[Fraction, int], SeasonRow]] = []
    unranked: list[SeasonRow] = []
    for row in rows:
        score = _score(row, best_of, min_sessions)
        if score is None:
            unranked.append(row)
        else:
            ranked.append(((score, -row.games), row))
    ranked.sort(key=lambda item: (item[0], _name_key(item[1])))
    result: list[SeasonRow] = []
    start = 0
    while start < len(ranked):
        end = start + 1
        while end < len(ranked) and ranked[end][0] == ranked[start][0]:
            end += 1
        tied = end - start > 1
        for _, row in ranked[start:end]:
            result.append(replace(row, rank=start + 1, tied=tied))
        start = end
    unranked.sort(key=lambda r: (-r.attended, r.average is None, r.average or 0, _name_key(r)))
    return result + unranked
