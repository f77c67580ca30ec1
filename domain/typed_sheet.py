"""One game's sheet as typed, the problems found in it, and the game as it is stored.

Plain Python, no Django. Each refusal is a :class:`Problem` tied to one field of the sheet,
so the page can show it next to that field. Field names used in problems:

* ``""``              - the game as a whole (e.g. the table's scores together)
* ``"engine"``        - the engine (starting double) of the game
* ``"outcome"``       - who went out / the "blocked" tick
* ``"score-<id>"``    - one player's score (also used for a player who is not
  seated at the table but has a score typed)
* ``"tiles-<id>"``    - one player's tiles left, as typed
* ``"total-<id>"``    - one player's written total at the bottom of the card
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from domain.tiles import Tile


@dataclass(frozen=True)
class Problem:
    """A refusal, or a "please check" warning, next to one field of the sheet."""

    field: str
    message: str


@dataclass
class TypedSheet:
    """One game at one table, as typed (values not yet checked)."""

    game_number: int  # 1-based, used in messages ("in game 3")
    engine: int | str | None  # engine actually used, as typed ("9", "9-9" also read)
    scores: Mapping[int, object]  # player id -> typed value (int, "12", "", None, ...)
    # player id -> tiles left as typed ("12-11 6-6 0-0"), or a list of pairs.
    # When given and the score is blank, the score is worked out from them;
    # when both are given they must agree.
    tiles: Mapping[int, object] = field(default_factory=dict)
    # A single player id (as typed: "12" reads as 12), or a collection of ids where "Out" is a
    # column (desk, workbook import); None or empty when nobody went out.
    went_out: int | str | Collection[int | str] | None = None
    blocked: bool = False


@dataclass(frozen=True)
class CleanGame:
    game_number: int
    engine: int
    scores: dict[int, int]
    went_out: int | None
    blocked: bool
    tiles: dict[int, tuple[Tile, ...]]


_NOBODY: frozenset[int] = frozenset()


class SeatedTable:
    """Who sits at the table for one game, and how messages name them."""

    __slots__ = ("game_number", "playing", "seated", "withdrawn")

    def __init__(self, seated: Mapping[int, str], withdrawn: Collection[int], number: int):
        self.seated = seated
        self.withdrawn = frozenset(withdrawn) if withdrawn else _NOBODY
        self.game_number = number
        self.playing = [pid for pid in seated if pid not in self.withdrawn]

    def name_of(self, pid: object) -> str:
        if pid in self.seated:
            return self.seated[pid]  # type: ignore[index]
        return f"player {pid}"


# ---------------------------------------------------------------------------
# Words the messages share
# ---------------------------------------------------------------------------


def with_commas(n: int) -> str:
    """1042 -> '1,042'."""
    return f"{n:,}"


def possessive(name: str) -> str:
    return f"{name}'s"
