"""Score-sheet checks: the one place for every rule about one game's scores.

Plain Python, no Django.  Every way a score comes in (the scorekeeper's phone
page, the desk, the workbook import) builds a :class:`GameSheet` and calls
:func:`check_game`; written card totals go through :func:`check_card_totals`.

Each refusal is a :class:`Problem` tied to one field of the sheet, so the page
can show it next to that field, and worded for a scorekeeper rather than a
programmer.  All problems are collected, not just the first.  Nothing is
stored here: the caller saves the :class:`CleanGame` only when the list of
problems is empty.

Field names used in problems:

* ``""``              - the game as a whole (e.g. the table's scores together)
* ``"engine"``        - the engine (starting double) of the game
* ``"outcome"``       - who went out / the "blocked" tick
* ``"score-<id>"``    - one player's score (also used for a player who is not
  seated at the table but has a score typed)
* ``"tiles-<id>"``    - one player's tiles left, as typed
* ``"total-<id>"``    - one player's written total at the bottom of the card
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = [
    "SheetRules",
    "Problem",
    "GameSheet",
    "CleanGame",
    "check_game",
    "check_card_totals",
    "parse_tiles",
    "tile_pips",
    "parse_whole_number",
]

Tile = tuple[int, int]


# ---------------------------------------------------------------------------
# Data shapes
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetRules:
    """The parts of an event's rule set that score-sheet checks need."""

    top_double: int  # 12 for a double-12 set, 9 for double-9
    double_blank_value: int  # 0 or 50
    highest_engine: int  # e.g. 12
    lowest_engine: int  # e.g. 7 (engines lowest..highest inclusive)

    def __post_init__(self) -> None:
        if self.top_double < 0:
            raise ValueError("top_double must not be negative")
        if self.double_blank_value < 0:
            raise ValueError("double_blank_value must not be negative")
        if not (0 <= self.lowest_engine <= self.highest_engine <= self.top_double):
            raise ValueError(
                "engines must satisfy 0 <= lowest_engine <= highest_engine <= top_double"
            )

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
        """Most pips any hand, or all the hands together, can hold in a game."""
        if engine is None or not 0 <= engine <= self.top_double:
            return self.set_pips()
        return self.set_pips() - self.engine_pips(engine)


@dataclass(frozen=True)
class Problem:
    field: str
    message: str


@dataclass
class GameSheet:
    """One game at one table, as typed (values not yet checked)."""

    game_number: int  # 1-based, used in messages ("in game 3")
    engine: int | str | None  # engine actually used, as typed ("9", "9-9" also read)
    scores: Mapping[int, object]  # player id -> typed value (int, "12", "", None, ...)
    # player id -> tiles left as typed ("12-11 6-6 0-0"), or a list of pairs.
    # When given and the score is blank, the score is worked out from them;
    # when both are given they must agree.
    tiles: Mapping[int, object] = field(default_factory=dict)
    # A single player id, or a collection of ids where "Out" is a column
    # (desk, workbook import); None or empty when nobody went out.
    went_out: int | Collection[int] | None = None
    blocked: bool = False


@dataclass(frozen=True)
class CleanGame:
    game_number: int
    engine: int
    scores: dict[int, int]
    went_out: int | None
    blocked: bool
    tiles: dict[int, tuple[Tile, ...]]


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------

_NUMBER_WORDS = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight"}

# Anything longer than this cannot be a real score; we keep it as "huge"
# rather than converting (Python refuses very long digit strings anyway).
_MAX_DIGITS = 9
_HUGE = 10**_MAX_DIGITS


def _num(n: int) -> str:
    """1042 -> '1,042'."""
    return f"{n:,}"


def _possessive(name: str) -> str:
    return f"{name}'s"


def _join_names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    if len(names) == 2:
        return f"{names[0]} and {names[1]}"
    return ", ".join(names[:-1]) + f" and {names[-1]}"


def _is_blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and value.strip() == "")


def _tile_text(tile: Tile) -> str:
    return f"{tile[0]}-{tile[1]}"


_WHOLE_RE = re.compile(r"[+-]?[0-9]+", re.ASCII)


def parse_whole_number(value: object) -> int:
    """Read a typed whole number.

    Accepts ints and strings of digits with surrounding spaces ("  12 "), and
    whole-valued floats (a spreadsheet cell holding 12.0).  Negative numbers
    are returned as they are (the caller decides whether they are allowed).
    Raises ValueError for blanks, booleans, fractions ("3.5"), exponents
    ("1e3") and words.  Numbers with more than nine digits come back as
    10**9, which is above any possible score.
    """
    if isinstance(value, bool) or value is None:
        raise ValueError("not a whole number")
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")) or not value.is_integer():
            raise ValueError("not a whole number")
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if not _WHOLE_RE.fullmatch(text):
            raise ValueError("not a whole number")
        sign = -1 if text.startswith("-") else 1
        digits = text.lstrip("+-").lstrip("0") or "0"
        if len(digits) > _MAX_DIGITS:
            return sign * _HUGE
        return sign * int(digits)
    raise ValueError("not a whole number")


# ---------------------------------------------------------------------------
# Tiles
# ---------------------------------------------------------------------------

_TILE_RE = re.compile(r"([0-9]+)[-/]([0-9]+)", re.ASCII)


def parse_tiles(text: str, top_double: int) -> list[Tile]:
    """Read tiles typed like "12-11 6-6 0-0".

    Halves are joined by "-" or "/" (spaces around them are allowed); tiles
    are separated by spaces, commas or semicolons.  Each tile comes back as
    (high, low), in the order typed.  Repeats are kept (the caller reports
    them, naming the players).  Raises ValueError with a plain message.
    """
    if text is None:
        return []
    if not isinstance(text, str):
        raise ValueError("Write the tiles like 12-11 6-6 0-0.")
    cleaned = re.sub(r"\s*([-/])\s*", r"\1", text.strip())
    tiles: list[Tile] = []
    for token in re.split(r"[\s,;]+", cleaned):
        if not token:
            continue
        m = _TILE_RE.fullmatch(token)
        if not m:
            raise ValueError(
                f'"{token}" is not a tile. Write each tile as its two numbers '
                "with a dash, like 12-11, and leave a space between tiles."
            )
        a_text, b_text = m.group(1), m.group(2)
        if len(a_text) > 3 or len(b_text) > 3:
            raise ValueError(f"{token} is not a tile in a double-{top_double} set.")
        a, b = int(a_text), int(b_text)
        if a > top_double or b > top_double:
            raise ValueError(f"{a}-{b} is not a tile in a double-{top_double} set.")
        tiles.append((max(a, b), min(a, b)))
    return tiles


def tile_pips(tiles: Iterable[Sequence[int]], double_blank_value: int) -> int:
    """Pips in a hand: every tile counts its dots, the double blank counts
    ``double_blank_value``."""
    total = 0
    for a, b in tiles:
        if a == 0 and b == 0:
            total += double_blank_value
        else:
            total += a + b
    return total


def _coerce_tiles(value: object, top_double: int) -> list[Tile]:
    """Tiles given as text, or already as pairs (e.g. from an import)."""
    if isinstance(value, str):
        return parse_tiles(value, top_double)
    result: list[Tile] = []
    for item in value:  # type: ignore[union-attr]
        try:
            a, b = item
            a = parse_whole_number(a)
            b = parse_whole_number(b)
        except (TypeError, ValueError):
            raise ValueError("Write the tiles like 12-11 6-6 0-0.") from None
        if a < 0 or b < 0 or a > top_double or b > top_double:
            raise ValueError(f"{a}-{b} is not a tile in a double-{top_double} set.")
        result.append((max(a, b), min(a, b)))
    return result


def _went_out_ids(value: object) -> list[object]:
    """Normalise went_out (None, one id, or a collection of ids) to a list
    without repeats, keeping order."""
    if value is None or isinstance(value, bool):
        return []
    if isinstance(value, (str, numbers.Integral)):
        value = [value]
    seen: list[object] = []
    for item in value:  # type: ignore[union-attr]
        if item is None or isinstance(item, bool) or _is_blank(item):
            continue
        if isinstance(item, numbers.Integral):
            item = int(item)
        elif isinstance(item, str) and item.strip().isascii() and item.strip().isdigit():
            item = int(item.strip())  # an id typed in a form or a spreadsheet cell
        if item not in seen:
            seen.append(item)
    return seen


# ---------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------


def _read_engine(rules: SheetRules, value: object) -> tuple[int | None, str | None]:
    """Read the engine as typed: 9, "9", " 9 ", "9-9", "9/9".

    Returns (number, None) or (None, message)."""
    if _is_blank(value):
        return None, "Enter the engine: the double that started this game, like 12."
    number: int | None = None
    try:
        number = parse_whole_number(value)
    except ValueError:
        if isinstance(value, str):
            m = _TILE_RE.fullmatch(re.sub(r"\s*([-/])\s*", r"\1", value.strip()))
            if m and m.group(1) == m.group(2) and len(m.group(1)) <= 3:
                number = int(m.group(1))
    if number is None:
        return None, (
            "The engine must be a whole number, like 12 for double 12 "
            f"(a double from {rules.highest_engine} down to {rules.lowest_engine})."
        )
    return number, None


# ---------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------


def check_game(
    rules: SheetRules,
    seated: Mapping[int, str],
    sheet: GameSheet,
    used_engines: Collection[int] = (),
    withdrawn: Collection[int] = (),
) -> tuple[CleanGame | None, list[Problem]]:
    """Check one game at one table.

    ``seated`` maps player id -> name for everyone seated at the table, in
    seat order (withdrawn players included).  ``used_engines`` are the
    engines this table already used for OTHER games that day.  ``withdrawn``
    are players who left: they must have no score and no tiles.

    Returns ``(CleanGame, [])`` when the sheet is good, else
    ``(None, problems)`` with every problem found.
    """
    problems: list[Problem] = []
    n = sheet.game_number
    withdrawn_set = set(withdrawn)
    playing = [pid for pid in seated if pid not in withdrawn_set]

    def name_of(pid: object) -> str:
        if pid in seated:
            return seated[pid]  # type: ignore[index]
        return f"player {pid}"

    # --- engine ------------------------------------------------------------
    engine, engine_msg = _read_engine(rules, sheet.engine)
    engine_ok = False
    if engine_msg:
        problems.append(Problem("engine", engine_msg))
    else:
        assert engine is not None
        if not rules.lowest_engine <= engine <= rules.highest_engine:
            if rules.lowest_engine == rules.highest_engine:
                msg = f"The engine must be double {rules.highest_engine}."
            else:
                msg = (
                    f"The engine must be a double from {rules.highest_engine} "
                    f"down to {rules.lowest_engine}."
                )
            problems.append(Problem("engine", msg))
        elif engine in set(used_engines):
            problems.append(
                Problem(
                    "engine",
                    f"Double {engine} was already the engine in an earlier game "
                    "at this table today.",
                )
            )
        else:
            engine_ok = True
    # A real double (even if not allowed) still tells us what was on the table.
    engine_known = engine if engine is not None and 0 <= engine <= rules.top_double else None
    ceiling = rules.hand_ceiling(engine_known)

    # --- who went out / blocked ---------------------------------------------
    outs = _went_out_ids(sheet.went_out)
    went_out: int | None = None
    if len(outs) >= 2:
        word = _NUMBER_WORDS.get(len(outs), str(len(outs)))
        problems.append(
            Problem("outcome", f"{word} players went out in game {n}: only one can.")
        )
    elif len(outs) == 1:
        pid = outs[0]
        if pid not in seated:
            problems.append(
                Problem(
                    "outcome",
                    f"The player marked as going out in game {n} is not seated "
                    "at this table.",
                )
            )
        elif pid in withdrawn_set:
            problems.append(
                Problem(
                    "outcome",
                    f"{seated[pid]} has left the tournament, so {seated[pid]} "
                    f"cannot have gone out in game {n}.",
                )
            )
        else:
            went_out = pid  # type: ignore[assignment]
    elif not sheet.blocked:
        problems.append(
            Problem(
                "outcome",
                f"Nobody went out in game {n}: tick 'blocked' if the boneyard "
                "ran out and nobody could play.",
            )
        )
    if outs and sheet.blocked:
        problems.append(
            Problem(
                "outcome",
                f"Game {n} cannot be both blocked and have a player go out: "
                "untick 'blocked', or clear who went out.",
            )
        )
    out_ids = set(outs)

    # --- tiles ------------------------------------------------------------
    hands: dict[int, list[Tile]] = {}
    tile_order: list[int] = []  # pids in the order we look at their tiles
    tiles_map = sheet.tiles or {}
    for pid in list(seated) + [p for p in tiles_map if p not in seated]:
        if pid not in tiles_map:
            continue
        raw = tiles_map[pid]
        if _is_blank(raw):
            continue
        if pid not in seated:
            problems.append(
                Problem(
                    f"tiles-{pid}",
                    f"Tiles are listed for {name_of(pid)}, who is not seated at "
                    "this table.",
                )
            )
            continue
        name = seated[pid]
        if pid in withdrawn_set:
            problems.append(
                Problem(
                    f"tiles-{pid}",
                    f"{name} has left the tournament, so leave {_possessive(name)} "
                    "tiles blank.",
                )
            )
            continue
        try:
            hand = _coerce_tiles(raw, rules.top_double)
        except ValueError as exc:
            problems.append(Problem(f"tiles-{pid}", f"In {_possessive(name)} tiles: {exc}"))
            continue
        if not hand:
            continue
        if pid in out_ids:
            problems.append(
                Problem(
                    f"tiles-{pid}",
                    f"{name} went out, so {name} has no tiles left: leave "
                    f"{_possessive(name)} tiles blank.",
                )
            )
            continue
        hands[pid] = hand
        tile_order.append(pid)
        if engine_known is not None and (engine_known, engine_known) in hand:
            problems.append(
                Problem(
                    f"tiles-{pid}",
                    f"{_possessive(name)} tiles include "
                    f"{_tile_text((engine_known, engine_known))}, but double "
                    f"{engine_known} was the engine in game {n}, so it was on "
                    "the table, not in a hand.",
                )
            )

    # Each tile once across the whole table.
    holders: dict[Tile, list[int]] = {}
    for pid in tile_order:
        for tile in hands[pid]:
            holders.setdefault(tile, []).append(pid)
    for tile, pids in holders.items():
        if len(pids) < 2:
            continue
        distinct = list(dict.fromkeys(pids))
        text = _tile_text(tile)
        if len(distinct) == 1:
            name = seated[distinct[0]]
            msg = (
                f"{text} is listed more than once in {_possessive(name)} tiles: "
                "there is only one of each tile in the set."
            )
        else:
            both = "both " if len(distinct) == 2 else ""
            msg = (
                f"{text} is listed for {both}"
                f"{_join_names([seated[p] for p in distinct])}: there is only "
                "one of each tile in the set."
            )
        problems.append(Problem(f"tiles-{distinct[0]}", msg))

    # --- scores -----------------------------------------------------------
    scores: dict[int, int] = {}
    bad_score: set[int] = set()
    score_map = sheet.scores or {}

    # Scores for people not seated here.
    for pid, raw in score_map.items():
        if pid in seated or _is_blank(raw):
            continue
        problems.append(
            Problem(
                f"score-{pid}",
                f"A score is entered for {name_of(pid)}, who is not seated at this "
                "table. Only the players seated here can have a score.",
            )
        )

    for pid in seated:
        name = seated[pid]
        raw = score_map.get(pid)
        field_name = f"score-{pid}"
        if pid in withdrawn_set:
            if not _is_blank(raw):
                problems.append(
                    Problem(
                        field_name,
                        f"{name} has left the tournament, so leave "
                        f"{_possessive(name)} score blank.",
                    )
                )
            continue
        hand = hands.get(pid)
        hand_value = tile_pips(hand, rules.double_blank_value) if hand else None
        if _is_blank(raw):
            if hand_value is not None:
                scores[pid] = hand_value
                continue
            problems.append(Problem(field_name, f"Enter a score for {name}."))
            bad_score.add(pid)
            continue
        try:
            value = parse_whole_number(raw)
        except ValueError:
            problems.append(
                Problem(
                    field_name,
                    f"{_possessive(name)} score must be a whole number, like 0 or 23.",
                )
            )
            bad_score.add(pid)
            continue
        if value < 0:
            problems.append(Problem(field_name, f"{_possessive(name)} score cannot be negative."))
            bad_score.add(pid)
            continue
        if hand_value is not None and hand_value != value:
            problems.append(
                Problem(
                    field_name,
                    f"{_possessive(name)} tiles add up to {_num(hand_value)}, "
                    f"but the score says {_num(value)}.",
                )
            )
            bad_score.add(pid)
        scores[pid] = value

    # Rules on the numbers themselves.
    too_high = False
    for pid, value in scores.items():
        name = seated[pid]
        field_name = f"score-{pid}"
        if pid == went_out:
            if value != 0:
                problems.append(
                    Problem(
                        field_name,
                        f"{name} went out, so {_possessive(name)} score must be 0.",
                    )
                )
            continue
        if (
            value == 0
            and rules.double_blank_value > 0
            and pid not in bad_score
            and pid not in out_ids
        ):
            problems.append(
                Problem(
                    field_name,
                    f"{_possessive(name)} score is 0, but only the player who went "
                    f"out can score 0; with the double blank worth "
                    f"{rules.double_blank_value}, anyone left holding tiles has at "
                    "least 1.",
                )
            )
        if value > ceiling:
            too_high = True
            problems.append(
                Problem(
                    field_name,
                    f"{_possessive(name)} score of {_num(value)} is more than any hand "
                    f"can hold: the most is {_num(ceiling)} in game {n}.",
                )
            )
    table_total = sum(scores.values())
    if not too_high and table_total > ceiling:
        problems.append(
            Problem(
                "",
                f"The scores in game {n} add up to {_num(table_total)}, but all the "
                f"tiles left after the engine only add up to {_num(ceiling)}. "
                "Please check the scores.",
            )
        )

    if problems or not engine_ok or engine is None:
        return None, problems
    clean = CleanGame(
        game_number=n,
        engine=engine,
        scores={pid: scores[pid] for pid in playing},
        went_out=went_out,
        blocked=bool(sheet.blocked),
        tiles={pid: tuple(hands[pid]) for pid in playing if pid in hands},
    )
    return clean, []


# ---------------------------------------------------------------------------
# Card totals
# ---------------------------------------------------------------------------


def check_card_totals(
    games: Sequence[CleanGame],
    written_totals: Mapping[int, object],
    seated: Mapping[int, str],
) -> list[Problem]:
    """Check the totals written at the bottom of a card against its games.

    Only totals that were entered are checked (a blank total is fine).  Each
    must be a whole number equal to the sum of that player's scores over
    ``games``.  A total for someone not seated at the table is refused.
    """
    problems: list[Problem] = []
    sums: dict[int, int] = {}
    for game in games:
        for pid, value in game.scores.items():
            sums[pid] = sums.get(pid, 0) + value
    ordered = list(seated) + [p for p in written_totals if p not in seated]
    for pid in ordered:
        if pid not in written_totals:
            continue
        raw = written_totals[pid]
        if _is_blank(raw):
            continue
        field_name = f"total-{pid}"
        if pid not in seated:
            problems.append(
                Problem(
                    field_name,
                    f"A total is entered for player {pid}, who is not seated at "
                    "this table.",
                )
            )
            continue
        name = seated[pid]
        try:
            value = parse_whole_number(raw)
        except ValueError:
            problems.append(
                Problem(
                    field_name,
                    f"{_possessive(name)} total must be a whole number, like 0 or 123.",
                )
            )
            continue
        if value < 0:
            problems.append(Problem(field_name, f"{_possessive(name)} total cannot be negative."))
            continue
        expected = sums.get(pid, 0)
        if value != expected:
            problems.append(
                Problem(
                    field_name,
                    f"{_possessive(name)} total says {_num(value)}, but "
                    f"{_possessive(name)} games add up to {_num(expected)}.",
                )
            )
    return problems
