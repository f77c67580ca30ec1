"""What a late player's missed games count (the event's ``late_missed_games`` rule): plain Python.

A player who joins a table at game G of a day missed games 1 to G-1 there. Under "nothing" those
games count nothing (an absent player's games). Under "highest" each counts the highest score
at their table in that game (the Good Sams of Florida's "must accept the highest score at the
table"); under "average" the table's average in it, rounded as a game not played's average is
(:func:`domain.ranking.unplayed_average`: one rounding for every average of an event). A
missed game not confirmed at that table yet counts nothing yet: the standings already count it
among the games to confirm, and the credit follows once it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from domain.ranking import unplayed_average
from domain.rules import LATE_AVERAGE, LATE_HIGHEST

__all__ = ["LateCredit", "LateSeat", "late_credit", "missed_game_credit", "seat_credit"]


@dataclass(frozen=True)
class LateSeat:
    """A late player's seat: the entry, the day's column in the standings and the first game
    they played at that table."""

    entry_id: int
    day: int  # the day's column (0 for the first day in view)
    joined_at_game: int


@dataclass(frozen=True)
class LateCredit:
    """Per day column: the points a late player's missed games add, and how many games that is."""

    points: tuple[int, ...]
    games: tuple[int, ...]
    # Each game credited: (day column, game number, points), in play order.
    by_game: tuple[tuple[int, int, int], ...] = ()


def missed_game_credit(rule: str, others: Sequence[int]) -> int | None:
    """What one missed game counts, from the confirmed scores of the others at the table in it;
    None when it counts nothing (the rule says so, or the game has no confirmed score yet)."""
    if not others:
        return None
    if rule == LATE_HIGHEST:
        return max(others)
    if rule == LATE_AVERAGE:
        return unplayed_average(sum(others), len(others))
    return None


def seat_credit(
    joined_at_game: int, confirmed: Mapping[int, Sequence[int]], rule: str
) -> dict[int, int]:
    """{game number: points} for each game before ``joined_at_game`` that ``confirmed`` (game
    number -> the others' confirmed scores at the table) holds, under ``rule``. Games from the
    one they joined at on are theirs to play, so nothing is credited for them."""
    credit = {}
    for game, others in confirmed.items():
        if game < joined_at_game:
            points = missed_game_credit(rule, others)
            if points is not None:
                credit[game] = points
    return credit


def late_credit(
    seats: Iterable[LateSeat],
    confirmed: Mapping[tuple[int, int], Mapping[int, Sequence[int]]],
    rule: str,
    days: int,
) -> dict[int, LateCredit]:
    """{entry id: credit} for every late seat with a missed game credited. ``confirmed`` holds,
    by (entry id, day column), the others' confirmed scores at that seat's table by game."""
    found: dict[int, tuple[list[int], list[int], list[tuple[int, int, int]]]] = {}
    for seat in seats:
        missed = confirmed.get((seat.entry_id, seat.day), {})
        credit = seat_credit(seat.joined_at_game, missed, rule)
        if not credit:
            continue
        points, games, by_game = found.setdefault(seat.entry_id, ([0] * days, [0] * days, []))
        points[seat.day] += sum(credit.values())
        games[seat.day] += len(credit)
        by_game += [(seat.day, game, got) for game, got in credit.items()]
    return {
        entry_id: LateCredit(tuple(points), tuple(games), tuple(sorted(by_game)))
        for entry_id, (points, games, by_game) in found.items()
    }
