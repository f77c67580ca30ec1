"""Tie-breaks between players level on total: the one list of them (pure Python, no Django).

The rule set stores tie-breaks by key, the rule forms offer their labels and the standings sort
by them, all from :data:`TIE_BREAKS`; adding a tie-break means adding one entry here.

Each tie-break turns a player's ranking stats into a sort key where smaller is better, so the
keys of several tie-breaks, in the order the organiser chose, chain into one tuple.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

__all__ = [
    "TIE_BREAKS",
    "TIE_BREAK_KEYS",
    "TieBreak",
    "TieBreakStats",
    "resolve_tie_breaks",
    "tie_break_choices",
    "tie_break_problems",
    "tie_break_words",
]


class TieBreakStats(Protocol):
    """What a tie-break may look at: a player's record over the days being ranked."""

    @property
    def games_out(self) -> int: ...

    @property
    def worst_game(self) -> int | None: ...


@dataclass(frozen=True)
class TieBreak:
    key: str  # what a rule set stores
    label: str  # what the organiser reads
    sort_key: Callable[[TieBreakStats], tuple[int, ...]]  # smaller is better


def _most_outs(stats: TieBreakStats) -> tuple[int, ...]:
    return (-stats.games_out,)


def _lowest_worst_game(stats: TieBreakStats) -> tuple[int, ...]:
    # A player with no games has no worst game; they rank below anyone who has one.
    if stats.worst_game is None:
        return (1, 0)
    return (0, stats.worst_game)


TIE_BREAKS: Final[tuple[TieBreak, ...]] = (
    TieBreak("most_outs", "Most games gone out", _most_outs),
    TieBreak("lowest_worst_game", "Lowest single worst game", _lowest_worst_game),
)
TIE_BREAK_KEYS: Final[tuple[str, ...]] = tuple(t.key for t in TIE_BREAKS)
_BY_KEY: Final[Mapping[str, TieBreak]] = {t.key: t for t in TIE_BREAKS}


def tie_break_choices() -> dict[str, str]:
    """Key -> label, in the order the tie-breaks are listed."""
    return {t.key: t.label for t in TIE_BREAKS}


def tie_break_words(names: Sequence[str]) -> str:
    """The tie-breaks as the organiser reads them: "Most games gone out, then Lowest single worst
    game", or what no tie-break means."""
    if not names:
        return "none (tied players share a rank)"
    return ", then ".join(_BY_KEY[name].label if name in _BY_KEY else name for name in names)


def _known() -> str:
    return ", ".join(f'"{key}"' for key in TIE_BREAK_KEYS)


def tie_break_problems(value: object) -> list[str]:
    """Plain-words reasons ``value`` is not a usable list of tie-breaks (empty when it is).

    A usable value is a list (or tuple) of known keys, each at most once; an empty list means
    tied players share a rank.
    """
    if not isinstance(value, (list, tuple)):
        return [f"Tie-breaks must be a list of names, in order, from {_known()}."]
    problems: list[str] = []
    seen: set[str] = set()
    for name in value:
        if not isinstance(name, str) or name not in _BY_KEY:
            problems.append(f"Unknown tie-break {name!r}: choose from {_known()}.")
        elif name in seen:
            problems.append(f'The tie-break "{name}" is listed more than once.')
        else:
            seen.add(name)
    return problems


def resolve_tie_breaks(names: Sequence[str]) -> tuple[TieBreak, ...]:
    """The tie-breaks named, in order; ValueError for a name not in :data:`TIE_BREAKS`.

    A name given twice is harmless here (its second use never separates anyone), so only rule
    sets refuse repeats, where the organiser can correct them.
    """
    if isinstance(names, str):
        raise ValueError("Tie-breaks must be a sequence of names, not a single string.")
    names = tuple(names)
    unknown = [name for name in names if not isinstance(name, str) or name not in _BY_KEY]
    if unknown:
        raise ValueError(f"Unknown tie-break {unknown[0]!r}: choose from {_known()}.")
    return tuple(_BY_KEY[name] for name in names)
