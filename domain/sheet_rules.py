"""The rules one game's score sheet is judged by, and what they let the hands hold.

Plain Python, no Django. :class:`SheetRules` is the part of an event's rule set the score
checks read (the set, the double blank, the engines, the deal); :func:`hand_limits` works out
from the set's arithmetic the most one hand, and the hands together, can hold at a table.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass
from functools import lru_cache

from domain.tiles import Tile, tile_pips

HandSizes = tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class SheetRules:
    """The parts of an event's rule set that score-sheet checks need.

    ``hand_sizes`` are the rule set's deal, as ``(fewest players, most
    players, tiles each draws)``.  Without them, or for a table size they do
    not cover, a hand's ceiling cannot follow the table and falls back to the
    tiles left after the engine.

    ``engine_set_aside`` is the rule set's rule of that name: the engine is
    taken out of the set before the deal (the Good Sam and Puremco sheets).
    Where the player holding it plays it instead (the tournament, the Jib
    Room, and their fallback to a lower double), the engine may have come out
    of another player's hand, which leaves one more tile within a hand's
    reach; that is the default, as it never refuses a true score.
    """

    top_double: int  # 12 for a double-12 set, 9 for double-9
    double_blank_value: int  # 0 or 50
    highest_engine: int  # e.g. 12
    lowest_engine: int  # e.g. 7 (engines lowest..highest inclusive)
    hand_sizes: HandSizes = ()
    engine_set_aside: bool = False
    # The event's engine order when it is not simply highest down to lowest (an explicit list
    # such as 9 7 5 3); empty means counting down.
    engines: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.top_double < 0:
            raise ValueError("top_double must not be negative")
        if self.double_blank_value < 0:
            raise ValueError("double_blank_value must not be negative")
        if not (0 <= self.lowest_engine <= self.highest_engine <= self.top_double):
            raise ValueError(
                "engines must satisfy 0 <= lowest_engine <= highest_engine <= top_double"
            )
        # Rule sets keep hand sizes as JSON lists; a tuple keeps the rules hashable.
        sizes = tuple((int(low), int(high), int(tiles)) for low, high, tiles in self.hand_sizes)
        if any(min(row) < 0 for row in sizes):
            raise ValueError("hand sizes must not be negative")
        object.__setattr__(self, "hand_sizes", sizes)
        engines = tuple(int(e) for e in self.engines)
        if engines and (
            len(set(engines)) != len(engines)
            or min(engines) != self.lowest_engine
            or max(engines) != self.highest_engine
        ):
            raise ValueError("engines must be distinct, from lowest_engine to highest_engine")
        object.__setattr__(self, "engines", engines)
        # Every check looks its limits up by these rules: hash them once.
        object.__setattr__(self, "_hash", hash(astuple(self)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined, no-any-return]

    def all_tiles(self) -> list[Tile]:
        """Every tile in the set as (high, low), highest first."""
        return [(a, b) for a in range(self.top_double, -1, -1) for b in range(a, -1, -1)]

    def tile_count(self) -> int:
        n = self.top_double + 1
        return n * (n + 1) // 2

    def tile_value(self, tile: Tile) -> int:
        return tile_pips([tile], self.double_blank_value)

    def set_pips(self) -> int:
        """Total pips in the set, counting the double blank at its value.

        Double-12: 1,092 (1,142 with the double blank worth 50); double-9: 495.
        """
        n = self.top_double
        dots = n * (n + 1) * (n + 2) // 2
        return dots + self.double_blank_value

    def engine_pips(self, engine: int) -> int:
        """Pips of the engine double (the double blank counts at its value)."""
        return self.tile_value((engine, engine))

    def hand_ceiling(self, engine: int | None) -> int:
        """Most pips all the hands together can hold in a game: the set less the engine."""
        if engine is None or not 0 <= engine <= self.top_double:
            return self.set_pips()
        return self.set_pips() - self.engine_pips(engine)

    def engine_order(self) -> list[int]:
        """The event's engines in the order games use them: the explicit order when the event
        has one, else highest double first."""
        if self.engines:
            return list(self.engines)
        return list(range(self.highest_engine, self.lowest_engine - 1, -1))

    def engine_order_counting_down(self) -> list[int]:
        return list(range(self.highest_engine, self.lowest_engine - 1, -1))

    def hand_size(self, players: int) -> int | None:
        """Tiles each player draws at a table of ``players``, when the rules say."""
        for low, high, tiles in self.hand_sizes:
            if low <= players <= high:
                return tiles
        return None


# ---------------------------------------------------------------------------
# Limits from the tiles
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HandLimits:
    """What the hands at one table can hold in one game, from the set's arithmetic."""

    players: int  # players still playing the game
    drew: int | None  # tiles each drew at the deal; None when the rules do not say
    tiles_per_hand: int  # the most tiles one hand can hold at the end
    hand_pips: int  # the most one hand can score
    table_pips: int  # the most the hands together can score
    starting_hand_pips: int | None  # the best hand anyone can be dealt; None when unknown
    # The most the other hands together can score once a player went out: that player's whole
    # deal is on the table too. None when the deal is unknown.
    table_pips_after_out: int | None = None


@lru_cache(maxsize=4096)
def hand_limits(rules: SheetRules, players: int, engine: int | None) -> HandLimits:
    """The limits for a table of ``players`` whose game started on double ``engine``.

    The other players' starting tiles can never reach a hand, and the engine
    lies in the hub, so one hand holds at most
    ``K = tiles in the set - 1 - (players - 1) x tiles each drew``
    (one more when the engine may have come out of another player's starting
    hand, see :class:`SheetRules`), and scores at most the ``K`` highest
    tiles other than the engine.  The hands together hold at most the set
    less the engine; once a player went out, less that player's deal too,
    which is at least its lowest tiles (one fewer when the engine may have
    been one of them).  When the deal is unknown (or cannot fit in the set) a
    hand's ceiling is the table's.  Worked out once per table size and
    engine, not per score.
    """
    count = rules.tile_count()
    if engine is None:
        # The sheet's engine is not a tile of the set and is refused anyway.
        whole = rules.set_pips()
        return HandLimits(players, None, count, whole, whole, None)
    values = _values_high_first(rules, engine)
    drew = rules.hand_size(players)
    others = max(players - 1, 0)
    in_play = count - 1 if rules.engine_set_aside else count
    if drew is not None and players * drew > in_play:
        drew = None
    reach = count - 1 if drew is None else min(count - 1, in_play - others * drew)
    starting = None if drew is None else sum(values[:drew])
    after_out = None
    if drew is not None:
        # The player out was dealt ``drew`` tiles, all played; one may have been the engine
        # unless the engine was set aside before the deal.
        dealt = drew if rules.engine_set_aside else max(drew - 1, 0)
        after_out = rules.hand_ceiling(engine) - sum(values[len(values) - dealt :] if dealt else [])
    return HandLimits(
        players=players,
        drew=drew,
        tiles_per_hand=reach,
        hand_pips=sum(values[:reach]),
        table_pips=rules.hand_ceiling(engine),
        starting_hand_pips=starting,
        table_pips_after_out=after_out,
    )


def _values_high_first(rules: SheetRules, engine: int) -> list[int]:
    """The value of every tile other than the engine, highest first."""
    tiles = [t for t in rules.all_tiles() if t != (engine, engine)]
    return sorted((rules.tile_value(t) for t in tiles), reverse=True)
