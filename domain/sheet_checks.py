"""Score-sheet checks: the one place for every rule about one game's scores.

Plain Python, no Django.  Every way a score comes in (the scorekeeper's phone
page, the desk, the workbook import) builds a :class:`TypedSheet` and calls
:func:`check_game`; written card totals go through :func:`check_card_totals`.
Which engine a table's next game should start on is :func:`expected_engine`
(the menu of possible ones, :func:`engine_choices`); what the hands at a table
can hold is :func:`hand_limits`.

Each refusal is a :class:`Problem` tied to one field of the sheet, so the page
can show it next to that field, and worded for a scorekeeper rather than a
programmer.  All problems are collected, not just the first.  A likely typo
that is still possible is a warning instead (same shape, see
:class:`GameCheck`): the page asks the scorekeeper to confirm it.  Nothing is
stored here: the caller saves the :class:`CleanGame` only when there are no
problems and no unconfirmed warnings.

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
from dataclasses import astuple, dataclass, field
from functools import lru_cache

__all__ = [
    "CleanGame",
    "GameCheck",
    "HandLimits",
    "Inferred",
    "Problem",
    "SheetRules",
    "Tile",
    "TypedSheet",
    "check_card_totals",
    "check_game",
    "engine_choices",
    "expected_engine",
    "hand_limits",
    "infer_outcome",
    "parse_tiles",
    "parse_whole_number",
    "tile_pips",
]

Tile = tuple[int, int]


# ---------------------------------------------------------------------------
# Data shapes
# ---------------------------------------------------------------------------


HandSizes = tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class SheetRules:
    """The parts of an event's rule set that score-sheet checks need.

    ``hand_sizes`` are the rule set's deal, as ``(fewest players, most
    players, tiles each draws)``.  Without them, or for a table size they do
    not cover, a hand's ceiling cannot follow the table and falls back to the
    tiles left after the engine.

    ``engine_set_aside`` says the engine is taken out of the set before the
    deal (Good Sam, Puremco).  Where the player holding it plays it instead
    (the tournament, the Jib Room, and their fallback to a lower double), the
    engine may have come out of another player's hand, which leaves one more
    tile within a hand's reach; that is the default, as it never refuses a
    true score.
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


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------

_NUMBER_WORDS = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight"}

# Anything longer than this cannot be a real score; we keep it as "huge"
# rather than converting (Python refuses very long digit strings anyway).
_MAX_DIGITS = 9
_HUGE: int = 10**_MAX_DIGITS


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
    return value is None or (isinstance(value, str) and not value.strip())


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
    if type(value) is int:
        return value
    if isinstance(value, str):
        return _parse_whole_text(value)
    if isinstance(value, bool) or value is None:
        raise ValueError("not a whole number")
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")) or not value.is_integer():
            raise ValueError("not a whole number")
        return int(value)
    raise ValueError("not a whole number")


def _parse_whole_text(value: str) -> int:
    text = value.strip()
    if not _WHOLE_RE.fullmatch(text):
        raise ValueError("not a whole number")
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-").lstrip("0") or "0"
    if len(digits) > _MAX_DIGITS:
        return sign * _HUGE
    return sign * int(digits)


# Letters a quick thumb or an old keyboard habit puts in place of a digit.
_LOOKALIKES = {"O": "0", "o": "0", "l": "1", "I": "1"}


def _letter_typo_text(raw: object, whose: str) -> str | None:
    """'Did you mean 10?' for "1O" or "l2": a number typed with a letter in it.

    ``whose`` names the field in the message ("Bob Roe", "Bob Roe's total").
    None when the text is not a number with look-alike letters."""
    if not isinstance(raw, str):
        return None
    text = raw.strip()
    if not text or len(text) > _MAX_DIGITS:
        return None
    if not all(c in _LOOKALIKES or "0" <= c <= "9" for c in text):
        return None
    letter = next((c for c in text if c in _LOOKALIKES), None)
    if letter is None:
        return None
    meant = int("".join(_LOOKALIKES.get(c, c) for c in text))
    return (
        f'Did you mean {meant} for {whose}? "{text}" has the letter {letter} in it, '
        f"not the number {_LOOKALIKES[letter]}."
    )


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
    if not isinstance(value, Iterable):
        raise ValueError("Write the tiles like 12-11 6-6 0-0.")
    result: list[Tile] = []
    for item in value:
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
    if type(value) is int:
        return [value]
    items: Iterable[object] = value if isinstance(value, Iterable) else [value]
    if isinstance(value, str):
        items = [value]
    seen: list[object] = []
    for item in items:
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


@lru_cache(maxsize=4096)
def hand_limits(rules: SheetRules, players: int, engine: int | None) -> HandLimits:
    """The limits for a table of ``players`` whose game started on double ``engine``.

    The other players' starting tiles can never reach a hand, and the engine
    lies in the hub, so one hand holds at most
    ``K = tiles in the set - 1 - (players - 1) x tiles each drew``
    (one more when the engine may have come out of another player's starting
    hand, see :class:`SheetRules`), and scores at most the ``K`` highest
    tiles other than the engine.  The hands together hold at most the set
    less the engine.  When the deal is unknown (or cannot fit in the set) a
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
    return HandLimits(
        players=players,
        drew=drew,
        tiles_per_hand=reach,
        hand_pips=sum(values[:reach]),
        table_pips=rules.hand_ceiling(engine),
        starting_hand_pips=starting,
    )


def _values_high_first(rules: SheetRules, engine: int) -> list[int]:
    """The value of every tile other than the engine, highest first."""
    tiles = [t for t in rules.all_tiles() if t != (engine, engine)]
    return sorted((rules.tile_value(t) for t in tiles), reverse=True)


# ---------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------


def expected_engine(rules: SheetRules, used_engines: Collection[int]) -> int | None:
    """The engine a table's next game should start on.

    The first double of the event's engine order not yet used as an engine
    at that table that day; None once every double has been used.  The
    phone page, the desk card, the printed sheets and the workbook all ask
    this one function.
    """
    used = set(used_engines)
    return next((e for e in rules.engine_order() if e not in used), None)


def engine_choices(rules: SheetRules, used_engines: Collection[int]) -> list[int]:
    """Every engine a table may still start a game on that day, expected one first.

    When nobody at the table holds the expected double, the table falls back
    to the next lower one not used there yet, so any double of the range not
    yet used is possible.
    """
    used = set(used_engines)
    return [e for e in rules.engine_order() if e not in used]


def _read_engine(rules: SheetRules, value: object) -> tuple[int | None, str | None]:
    """Read the engine as typed: 9, "9", " 9 ", "9-9", "9/9".

    Returns (number, None) or (None, message)."""
    if _is_blank(value):
        return None, "Enter the engine: the double that started this game, like 12."
    number = _read_double(value) if isinstance(value, str) else None
    if number is None:
        try:
            number = parse_whole_number(value)
        except ValueError:
            number = None
    if number is None:
        return None, (
            "The engine must be a whole number, like 12 for double 12 "
            f"(a double from {rules.highest_engine} down to {rules.lowest_engine})."
        )
    return number, None


def _read_double(text: str) -> int | None:
    """The number of a double typed as a tile ("9-9", "9 / 9"), else None."""
    if "-" not in text and "/" not in text:
        return None
    m = _TILE_RE.fullmatch(re.sub(r"\s*([-/])\s*", r"\1", text.strip()))
    if m and m.group(1) == m.group(2) and len(m.group(1)) <= 3:
        return int(m.group(1))
    return None


# ---------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------


class GameCheck(tuple[CleanGame | None, list[Problem]]):
    """What :func:`check_game` found in one game's sheet.

    * ``problems``: refusals.  The sheet is stored only when there are none.
    * ``warnings``: "please check" notes on likely typos (a score above the
      best hand anyone can be dealt, a three-digit score among two-digit
      ones).  Never a refusal: the page shows them next to their fields and
      asks the scorekeeper to confirm with one tap, then checks again with
      ``rechecked=True``.
    * ``clean``: the game as it will be stored; None when there are problems.
    * ``needs_recheck``: there are warnings the scorekeeper has not confirmed.
    * ``saveable``: no problems, and no warning left to confirm.
    * ``limits``: the table's :class:`HandLimits`, for a page to show.

    It unpacks as ``clean, problems``, the shape callers used before
    warnings existed; a caller that ignores warnings saves as before.
    """

    warnings: list[Problem]
    rechecked: bool
    limits: HandLimits

    def __new__(
        cls,
        clean: CleanGame | None,
        problems: list[Problem],
        warnings: list[Problem],
        rechecked: bool,
        limits: HandLimits,
    ) -> GameCheck:
        result = super().__new__(cls, (clean, problems))
        result.warnings = warnings
        result.rechecked = rechecked
        result.limits = limits
        return result

    @property
    def clean(self) -> CleanGame | None:
        return self[0]

    @property
    def problems(self) -> list[Problem]:
        return self[1]

    @property
    def needs_recheck(self) -> bool:
        return bool(self.warnings) and not self.rechecked

    @property
    def saveable(self) -> bool:
        return self.clean is not None and not self.needs_recheck


_NOBODY: frozenset[int] = frozenset()


class _Table:
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


@dataclass(slots=True)
class _Outcome:
    """Who went out, as read from the sheet."""

    went_out: int | None  # the one seated, still-playing player who went out
    marked: frozenset[object]  # everyone marked as out, even when that is wrong


def check_game(
    rules: SheetRules,
    seated: Mapping[int, str],
    sheet: TypedSheet,
    used_engines: Collection[int] = (),
    withdrawn: Collection[int] = (),
    *,
    rechecked: bool = False,
) -> GameCheck:
    """Check one game at one table.

    ``seated`` maps player id -> name for everyone seated at the table, in
    seat order (withdrawn players included).  ``used_engines`` are the
    engines this table already used for OTHER games that day.  ``withdrawn``
    are players who left before this game: they must have no score and no
    tiles, and the hands' limits follow the players still playing.
    ``rechecked`` says the scorekeeper confirmed the "please check" warnings
    of this same sheet.

    Returns a :class:`GameCheck`: ``clean, problems = check_game(...)`` gives
    ``(CleanGame, [])`` when the sheet is good, else ``(None, problems)`` with
    every problem found; ``.warnings`` and ``.needs_recheck`` carry the
    likely typos to confirm before saving.
    """
    table = _Table(seated, withdrawn, sheet.game_number)
    engine, problems = _check_engine(rules, sheet.engine, used_engines)
    on_table = _engine_on_table(rules, engine)
    limits = hand_limits(rules, len(table.playing), on_table)

    outcome, found = _check_outcome(table, sheet.went_out, sheet.blocked)
    problems += found
    hands, found = _read_hands(rules, table, sheet.tiles or {}, outcome, on_table, limits)
    problems += found
    problems += _check_each_tile_once(table, hands)

    problems += _check_nobody_else_scores(table, sheet.scores or {})
    scores, unreadable, found = _read_scores(rules, table, sheet.scores or {}, hands)
    problems += found
    holding = [p for p in scores if p not in unreadable and p not in outcome.marked]
    problems += _check_score_values(table, scores, outcome, limits)
    problems += _check_zeros(rules, table, scores, holding, hands, on_table)
    warnings = _likely_typos(table, scores, holding, limits)

    clean = None
    if not problems and engine is not None:
        clean = _clean_game(table, engine, scores, outcome, bool(sheet.blocked), hands)
    return GameCheck(clean, problems, warnings, rechecked, limits)


def _clean_game(
    table: _Table,
    engine: int,
    scores: dict[int, int],
    outcome: _Outcome,
    blocked: bool,
    hands: Mapping[int, list[Tile]],
) -> CleanGame:
    """The game as stored.  With no problems, the scores and hands read are
    exactly those of the players still playing, in seat order."""
    return CleanGame(
        game_number=table.game_number,
        engine=engine,
        scores=scores,
        went_out=outcome.went_out,
        blocked=blocked,
        tiles={pid: tuple(hand) for pid, hand in hands.items()},
    )


# --- the engine ------------------------------------------------------------


def _check_engine(
    rules: SheetRules, value: object, used_engines: Collection[int]
) -> tuple[int | None, list[Problem]]:
    """The engine is a double of the event's range, not used before at this table today.

    Returns the engine read (even when it is refused, it may still say which
    double lay on the table) and the problems."""
    engine, message = _read_engine(rules, value)
    if message is not None:
        return None, [Problem("engine", message)]
    assert engine is not None
    if engine not in rules.engine_order():
        return engine, [Problem("engine", _engine_range_text(rules))]
    if engine in used_engines:  # the rule of engine_choices: in range and unused
        text = f"Double {engine} was already the engine in an earlier game at this table today."
        return engine, [Problem("engine", text)]
    return engine, []


def _engine_range_text(rules: SheetRules) -> str:
    if rules.engines and rules.engines != tuple(rules.engine_order_counting_down()):
        listed = ", ".join(str(e) for e in rules.engines)
        return f"The engine must be one of this event's doubles: {listed}."
    if rules.lowest_engine == rules.highest_engine:
        return f"The engine must be double {rules.highest_engine}."
    return f"The engine must be a double from {rules.highest_engine} down to {rules.lowest_engine}."


def _engine_on_table(rules: SheetRules, engine: int | None) -> int | None:
    """The double that lay in the hub, when the typed engine is a real tile of the set."""
    if engine is not None and 0 <= engine <= rules.top_double:
        return engine
    return None


# --- who went out / blocked --------------------------------------------------


def _check_outcome(
    table: _Table, went_out: object, blocked: bool
) -> tuple[_Outcome, list[Problem]]:
    """At most one seated, still-playing player went out; nobody out means blocked."""
    outs = _went_out_ids(went_out)
    n = table.game_number
    problems: list[Problem] = []
    out_player: int | None = None
    if len(outs) >= 2:
        word = _NUMBER_WORDS.get(len(outs), str(len(outs)))
        problems.append(Problem("outcome", f"{word} players went out in game {n}: only one can."))
    elif len(outs) == 1:
        out_player, problem = _check_out_player(table, outs[0])
        problems += problem
    elif not blocked:
        problems.append(
            Problem(
                "outcome",
                f"Nobody went out in game {n}: tick 'blocked' if the boneyard "
                "ran out and nobody could play.",
            )
        )
    if outs and blocked:
        problems.append(
            Problem(
                "outcome",
                f"Game {n} cannot be both blocked and have a player go out: "
                "untick 'blocked', or clear who went out.",
            )
        )
    return _Outcome(out_player, frozenset(outs)), problems


def _check_out_player(table: _Table, pid: object) -> tuple[int | None, list[Problem]]:
    """The one player marked as out is seated here and still playing."""
    n = table.game_number
    if pid not in table.seated:
        text = f"The player marked as going out in game {n} is not seated at this table."
        return None, [Problem("outcome", text)]
    name = table.seated[pid]  # type: ignore[index]
    if pid in table.withdrawn:
        text = f"{name} has left the tournament, so {name} cannot have gone out in game {n}."
        return None, [Problem("outcome", text)]
    return pid, []  # type: ignore[return-value]


# --- tiles left ----------------------------------------------------------------


def _read_hands(
    rules: SheetRules,
    table: _Table,
    tiles: Mapping[int, object],
    outcome: _Outcome,
    on_table: int | None,
    limits: HandLimits,
) -> tuple[dict[int, list[Tile]], list[Problem]]:
    """Each player's tiles left, as typed: real tiles, only for players still
    holding some, never the engine, and no more than a hand can hold.
    Players come in seat order, then anyone else listed."""
    hands: dict[int, list[Tile]] = {}
    problems: list[Problem] = []
    typed = {pid: raw for pid, raw in tiles.items() if not _is_blank(raw)}
    if not typed:
        return hands, problems
    listed = [pid for pid in table.seated if pid in typed]
    listed += [pid for pid in typed if pid not in table.seated]
    for pid in listed:
        raw = typed[pid]
        hand, hand_problems = _read_one_hand(rules, table, pid, raw, outcome)
        problems += hand_problems
        if hand:
            hands[pid] = hand
            problems += _check_engine_not_in_hand(table, pid, hand, on_table)
            problems += _check_tiles_in_reach(table, pid, hand, limits)
    return hands, problems


def _read_one_hand(
    rules: SheetRules, table: _Table, pid: int, raw: object, outcome: _Outcome
) -> tuple[list[Tile], list[Problem]]:
    field_name = f"tiles-{pid}"
    if pid not in table.seated:
        text = f"Tiles are listed for {table.name_of(pid)}, who is not seated at this table."
        return [], [Problem(field_name, text)]
    name = table.seated[pid]
    if pid in table.withdrawn:
        text = f"{name} has left the tournament, so leave {_possessive(name)} tiles blank."
        return [], [Problem(field_name, text)]
    try:
        hand = _coerce_tiles(raw, rules.top_double)
    except ValueError as exc:
        return [], [Problem(field_name, f"In {_possessive(name)} tiles: {exc}")]
    if hand and pid in outcome.marked:
        text = (
            f"{name} went out, so {name} has no tiles left: leave {_possessive(name)} tiles blank."
        )
        return [], [Problem(field_name, text)]
    return hand, []


def _check_engine_not_in_hand(
    table: _Table, pid: int, hand: list[Tile], on_table: int | None
) -> list[Problem]:
    """The engine lay in the hub, so no hand can still hold it."""
    if on_table is None or (on_table, on_table) not in hand:
        return []
    name = table.seated[pid]
    return [
        Problem(
            f"tiles-{pid}",
            f"{_possessive(name)} tiles include {_tile_text((on_table, on_table))}, but "
            f"double {on_table} was the engine in game {table.game_number}, so it was on "
            "the table, not in a hand.",
        )
    ]


def _check_tiles_in_reach(
    table: _Table, pid: int, hand: list[Tile], limits: HandLimits
) -> list[Problem]:
    """A hand holds no more tiles than the other players' deal leaves within its reach."""
    if len(hand) <= limits.tiles_per_hand:
        return []
    name = table.seated[pid]
    return [
        Problem(
            f"tiles-{pid}",
            f"{name} has {len(hand)} tiles listed, but one hand can hold at most "
            f"{limits.tiles_per_hand} tiles{_at_table(limits)} in game {table.game_number}.",
        )
    ]


def _at_table(limits: HandLimits) -> str:
    """Where a limit follows the table's size, the words that say so."""
    return "" if limits.drew is None else f" at a table of {limits.players} players"


def _check_each_tile_once(table: _Table, hands: Mapping[int, list[Tile]]) -> list[Problem]:
    """A set holds one of each tile, so no tile is listed twice across the table."""
    listed = [tile for hand in hands.values() for tile in hand]
    if len(set(listed)) == len(listed):
        return []
    holders: dict[Tile, list[int]] = {}
    for pid, hand in hands.items():
        for tile in hand:
            holders.setdefault(tile, []).append(pid)
    problems: list[Problem] = []
    for tile, pids in holders.items():
        if len(pids) < 2:
            continue
        distinct = list(dict.fromkeys(pids))
        text = _tile_text(tile)
        if len(distinct) == 1:
            msg = (
                f"{text} is listed more than once in {_possessive(table.seated[distinct[0]])} tiles"
            )
        else:
            both = "both " if len(distinct) == 2 else ""
            names = _join_names([table.seated[p] for p in distinct])
            msg = f"{text} is listed for {both}{names}"
        problems.append(
            Problem(f"tiles-{distinct[0]}", f"{msg}: there is only one of each tile in the set.")
        )
    return problems


# --- scores ----------------------------------------------------------------------


def _check_nobody_else_scores(table: _Table, scores: Mapping[int, object]) -> list[Problem]:
    """Only the players seated at this table have a score."""
    return [
        Problem(
            f"score-{pid}",
            f"A score is entered for {table.name_of(pid)}, who is not seated at this "
            "table. Only the players seated here can have a score.",
        )
        for pid, raw in scores.items()
        if pid not in table.seated and not _is_blank(raw)
    ]


def _read_scores(
    rules: SheetRules,
    table: _Table,
    typed: Mapping[int, object],
    hands: Mapping[int, list[Tile]],
) -> tuple[dict[int, int], set[int], list[Problem]]:
    """Every player still playing has exactly one score: a whole number, not
    negative, typed or worked out from the tiles, and agreeing with the tiles
    when both are given.  A withdrawn player has none.

    Returns the scores read, the players whose score could not be trusted,
    and the problems."""
    scores: dict[int, int] = {}
    unreadable: set[int] = set()
    problems: list[Problem] = []
    for pid in table.seated:
        raw = typed.get(pid)
        if pid in table.withdrawn:
            problems += _check_withdrawn_has_no_score(table, pid, raw)
            continue
        hand = hands.get(pid)
        if hand is None and type(raw) is int and raw >= 0:
            scores[pid] = raw  # a plain number and no tiles: nothing more to read
            continue
        hand_value = tile_pips(hand, rules.double_blank_value) if hand else None
        value, problem = _read_one_score(table.seated[pid], pid, raw, hand_value)
        if value is not None:
            scores[pid] = value
        if problem is not None:
            problems.append(problem)
            unreadable.add(pid)
    return scores, unreadable, problems


def _check_withdrawn_has_no_score(table: _Table, pid: int, raw: object) -> list[Problem]:
    if _is_blank(raw):
        return []
    name = table.seated[pid]
    return [
        Problem(
            f"score-{pid}",
            f"{name} has left the tournament, so leave {_possessive(name)} score blank.",
        )
    ]


def _read_one_score(
    name: str, pid: int, raw: object, hand_value: int | None
) -> tuple[int | None, Problem | None]:
    """One score as typed, or worked out from the tiles when left blank.

    A score that disagrees with the tiles is still returned (with its
    problem), so the table's other rules can look at it."""
    try:
        value = parse_whole_number(raw)
    except ValueError:
        return _read_unnumbered_score(name, pid, raw, hand_value)
    if value >= 0 and (hand_value is None or hand_value == value):
        return value, None
    if value < 0:
        return None, Problem(f"score-{pid}", f"{_possessive(name)} score cannot be negative.")
    text = (
        f"{_possessive(name)} tiles add up to {_num(hand_value or 0)}, "
        f"but the score says {_num(value)}."
    )
    return value, Problem(f"score-{pid}", text)


def _read_unnumbered_score(
    name: str, pid: int, raw: object, hand_value: int | None
) -> tuple[int | None, Problem | None]:
    """A score left blank is worked out from the tiles; anything else is refused."""
    if _is_blank(raw):
        if hand_value is not None:
            return hand_value, None
        return None, Problem(f"score-{pid}", f"Enter a score for {name}.")
    text = _letter_typo_text(raw, name) or (
        f"{_possessive(name)} score must be a whole number, like 0 or 23."
    )
    return None, Problem(f"score-{pid}", text)


# --- what the scores may be ----------------------------------------------------


def _check_score_values(
    table: _Table,
    scores: Mapping[int, int],
    outcome: _Outcome,
    limits: HandLimits,
) -> list[Problem]:
    """The limits on the numbers: the player out's, each hand's, then the table's."""
    out = outcome.went_out
    problems: list[Problem] = []
    if out is not None and out in scores:
        problems += _check_out_player_scores_zero(table, out, scores[out])
    over = [pid for pid, value in scores.items() if value > limits.hand_pips and pid != out]
    for pid in over:
        problems += _check_hand_ceiling(table, pid, scores[pid], limits)
    if not over:
        problems += _check_table_total(table, scores, limits)
    return problems


def _check_out_player_scores_zero(table: _Table, pid: int, value: int) -> list[Problem]:
    """The player who went out holds nothing, so scores 0."""
    if value == 0:
        return []
    name = table.seated[pid]
    return [Problem(f"score-{pid}", f"{name} went out, so {_possessive(name)} score must be 0.")]


def _check_hand_ceiling(table: _Table, pid: int, value: int, limits: HandLimits) -> list[Problem]:
    """No hand scores more than the highest tiles within its reach."""
    if value <= limits.hand_pips:
        return []
    name = table.seated[pid]
    if limits.drew is None:
        where = "any hand can hold"
    else:
        where = f"one hand can hold at a table of {limits.players} players"
    return [
        Problem(
            f"score-{pid}",
            f"{_possessive(name)} score of {_num(value)} is more than {where}: "
            f"the most is {_num(limits.hand_pips)} in game {table.game_number}.",
        )
    ]


def _check_table_total(
    table: _Table, scores: Mapping[int, int], limits: HandLimits
) -> list[Problem]:
    """The hands together hold no more than the tiles left after the engine."""
    total = sum(scores.values())
    if total <= limits.table_pips:
        return []
    return [
        Problem(
            "",
            f"The scores in game {table.game_number} add up to {_num(total)}, but all the "
            f"tiles left after the engine only add up to {_num(limits.table_pips)}. "
            "Please check the scores.",
        )
    ]


# --- zeros -------------------------------------------------------------------------


def _check_zeros(
    rules: SheetRules,
    table: _Table,
    scores: Mapping[int, int],
    holding: Sequence[int],
    hands: Mapping[int, list[Tile]],
    on_table: int | None,
) -> list[Problem]:
    """Someone who did not go out scores 0 only by holding nothing but the
    double blank: never when it counts more than 0 or was the engine, and
    for one player at most.  ``holding`` are the players with a trusted
    score who were not marked as going out."""
    zeros = [pid for pid in holding if scores[pid] == 0]
    if not zeros:
        return []
    if rules.double_blank_value > 0:
        return [_zero_needs_going_out(rules, table, pid) for pid in zeros]
    if on_table == 0:
        return [_zero_with_blank_engine(table, pid) for pid in zeros]
    blank_holder = next((p for p, hand in hands.items() if (0, 0) in hand), None)
    problems: list[Problem] = []
    for pid in zeros:
        if blank_holder is not None and blank_holder != pid:
            problems.append(_zero_without_the_blank(table, pid, blank_holder))
        elif pid != zeros[0]:
            problems.append(_second_zero(table, pid, zeros[0]))
    return problems


def _zero_needs_going_out(rules: SheetRules, table: _Table, pid: int) -> Problem:
    name = table.seated[pid]
    return Problem(
        f"score-{pid}",
        f"{_possessive(name)} score is 0, but only the player who went out can score 0; "
        f"with the double blank worth {rules.double_blank_value}, anyone left holding "
        "tiles has at least 1.",
    )


def _zero_with_blank_engine(table: _Table, pid: int) -> Problem:
    name = table.seated[pid]
    return Problem(
        f"score-{pid}",
        f"{_possessive(name)} score is 0, but the double blank was the engine in game "
        f"{table.game_number}, so only the player who went out can score 0.",
    )


def _second_zero(table: _Table, pid: int, first: int) -> Problem:
    name, other = table.seated[pid], table.seated[first]
    return Problem(
        f"score-{pid}",
        f"{_possessive(name)} score is 0, but so is {_possessive(other)}. Apart from the "
        "player who went out, only one player, the one left holding just the double "
        f"blank, can score 0 in game {table.game_number}.",
    )


def _zero_without_the_blank(table: _Table, pid: int, holder: int) -> Problem:
    name, other = table.seated[pid], table.seated[holder]
    return Problem(
        f"score-{pid}",
        f"{_possessive(name)} score is 0, but the double blank is listed in "
        f"{_possessive(other)} tiles: only a player left holding just the double blank "
        "can score 0.",
    )


# --- likely typos: "please check", never a refusal ---------------------------------

# A three-digit score among two-digit ones is a likely extra keystroke ("400"
# for "40") when it is also well above the next highest score.  Lower bounds
# than these asked about too many true scores in simulated games.
_JUMP_FLOOR = 150
_JUMP_FACTOR = 3


def _likely_typos(
    table: _Table, scores: Mapping[int, int], holding: Sequence[int], limits: HandLimits
) -> list[Problem]:
    """At most one "please check" per player, for a score that is possible but unlikely."""
    warnings: list[Problem] = []
    unremarkable = min(_JUMP_FLOOR - 1, limits.starting_hand_pips or limits.hand_pips)
    for pid in holding:
        value = scores[pid]
        if value <= unremarkable or value > limits.hand_pips:
            continue  # nothing to ask, or already refused
        others = [scores[p] for p in holding if p != pid]
        warning = _beyond_starting_hand(table, pid, value, limits) or _jump(
            table, pid, value, others
        )
        if warning is not None:
            warnings.append(warning)
    return warnings


def _beyond_starting_hand(
    table: _Table, pid: int, value: int, limits: HandLimits
) -> Problem | None:
    """More than the best hand anyone can be dealt: possible only after many draws."""
    best = limits.starting_hand_pips
    if best is None or value <= best:
        return None
    name = table.seated[pid]
    return Problem(
        f"score-{pid}",
        f"Please check {_possessive(name)} score of {_num(value)}: that is more than the "
        f"best hand anyone can be dealt ({_num(best)} in {limits.drew} tiles), so "
        f"{name} must have drawn many tiles in game {table.game_number}.",
    )


def _jump(table: _Table, pid: int, value: int, others: Sequence[int]) -> Problem | None:
    """A score with more digits than every other at the table, and far above them."""
    if value < _JUMP_FLOOR or not others:
        return None
    highest = max(others)
    if len(str(highest)) >= len(str(value)) or value <= _JUMP_FACTOR * highest:
        return None
    name = table.seated[pid]
    return Problem(
        f"score-{pid}",
        f"Please check {_possessive(name)} score of {_num(value)}: the other scores in game "
        f"{table.game_number} are all under {_num(10 ** (len(str(highest))))}.",
    )


# ---------------------------------------------------------------------------
# What the phone and the desk can tell from what was typed
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Inferred:
    """What :func:`infer_outcome` made of a sheet: who went out, the scores it filled in, and
    a question when a 0 could mean either of two things."""

    went_out: int | None = None  # the player now marked as going out, when it was inferred
    zero_for: int | None = None  # the player whose blank score is now 0
    question: Problem | None = None


def infer_outcome(rules: SheetRules, seated: Mapping[int, str], sheet: TypedSheet) -> Inferred:
    """Fill in what the sheet already makes certain, so nobody types a fact twice.

    * One player marked as going out, with the score (and tiles) left blank: that score is 0.
    * Nobody marked out, not blocked, and one player scoring 0: when only going out gives a 0
      (the double blank counts more than 0, or it was this game's engine), that player went
      out.  When the double blank counts 0 the 0 could also be a hand holding just the double
      blank, so the page asks which (``question``, on the outcome).

    ``seated`` are the players of this game (id -> name).  Nothing else is guessed: two zeros,
    or a 0 beside someone marked out, are left for :func:`check_game` to judge.
    """
    outs = _went_out_ids(sheet.went_out)
    scores = sheet.scores or {}
    tiles = sheet.tiles or {}
    if len(outs) == 1 and not sheet.blocked:
        out = outs[0]
        blank = isinstance(out, int) and _is_blank(scores.get(out)) and _is_blank(tiles.get(out))
        if blank and out in seated:
            return Inferred(zero_for=out)  # type: ignore[arg-type]
        return Inferred()
    if outs or sheet.blocked:
        return Inferred()
    zeros = [pid for pid in seated if _reads_as_zero(scores.get(pid))]
    if len(zeros) != 1:
        return Inferred()
    pid = zeros[0]
    engine, _ = _read_engine(rules, sheet.engine)
    if rules.double_blank_value > 0 or engine == 0:
        return Inferred(went_out=pid)
    name = seated[pid]
    return Inferred(
        question=Problem(
            "outcome",
            f"{_possessive(name)} score is 0 in game {sheet.game_number}: did {name} go out? "
            f'If so, tick "{name} went out". If {name} was left holding only the double '
            'blank, tick who went out instead, or "Blocked" if nobody did.',
        )
    )


def _reads_as_zero(value: object) -> bool:
    try:
        return parse_whole_number(value) == 0
    except ValueError:
        return False


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
    sums: dict[int, int] = {}
    for game in games:
        for pid, value in game.scores.items():
            sums[pid] = sums.get(pid, 0) + value
    problems: list[Problem] = []
    ordered = list(seated) + [p for p in written_totals if p not in seated]
    for pid in ordered:
        raw = written_totals.get(pid)
        if _is_blank(raw):
            continue
        if pid not in seated:
            text = f"A total is entered for player {pid}, who is not seated at this table."
            problems.append(Problem(f"total-{pid}", text))
            continue
        problem = _check_one_total(seated[pid], pid, raw, sums.get(pid, 0))
        if problem is not None:
            problems.append(problem)
    return problems


def _check_one_total(name: str, pid: int, raw: object, expected: int) -> Problem | None:
    """A written total is a whole number, not negative, equal to the player's games."""
    field_name = f"total-{pid}"
    try:
        value = parse_whole_number(raw)
    except ValueError:
        text = _letter_typo_text(raw, f"{_possessive(name)} total") or (
            f"{_possessive(name)} total must be a whole number, like 0 or 123."
        )
        return Problem(field_name, text)
    if value < 0:
        return Problem(field_name, f"{_possessive(name)} total cannot be negative.")
    if value != expected:
        text = (
            f"{_possessive(name)} total says {_num(value)}, but "
            f"{_possessive(name)} games add up to {_num(expected)}."
        )
        return Problem(field_name, text)
    return None
