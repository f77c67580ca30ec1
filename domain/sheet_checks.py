"""Score-sheet checks: the one place for every rule about one game's scores.

Plain Python, no Django.  Every way a score comes in (the scorekeeper's phone
page, the desk, the workbook import) builds a :class:`TypedSheet` and calls
:func:`check_game`; written card totals go through :func:`check_card_totals`.
Which engine a table's next game should start on is :func:`expected_engine`
(the menu of possible ones, :func:`engine_choices`; each game of a table's day,
:func:`planned_engines`); what the hands at a table can hold is
:func:`hand_limits`.

Each refusal is a :class:`Problem` tied to one field of the sheet, so the page
can show it next to that field, and worded for a scorekeeper rather than a
programmer.  All problems are collected, not just the first.  A likely typo
that is still possible is a warning instead (same shape, see
:class:`GameCheck`): the page asks the scorekeeper to confirm it.  Nothing is
stored here: the caller saves the :class:`CleanGame` only when there are no
problems and no unconfirmed warnings.

This module judges the sheet as a whole (the engine, who went out, the tiles
left) and names everything callers use; the parts live by subject beside it:
``domain.tiles`` (the set's tiles and reading what was typed),
``domain.sheet_rules`` (the rules a sheet is judged by, and the hand limits),
``domain.typed_sheet`` (the sheet, its problems, the stored game) and
``domain.score_checks`` (each player's score, and the card's totals).
"""

from __future__ import annotations

import numbers
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from domain.score_checks import (
    check_card_totals,
    check_nobody_else_scores,
    check_score_values,
    check_zeros,
    likely_typos,
    read_scores,
)
from domain.sheet_rules import HandLimits, SheetRules, hand_limits
from domain.tiles import (
    Tile,
    is_blank,
    parse_tiles,
    parse_tiles_partly,
    parse_whole_number,
    read_double,
    read_tiles,
    tile_pips,
    tile_text,
)
from domain.typed_sheet import CleanGame, Problem, SeatedTable, TypedSheet, possessive

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
    "planned_engines",
    "tile_pips",
]

_NUMBER_WORDS = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight"}


def _join_names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    if len(names) == 2:
        return f"{names[0]} and {names[1]}"
    return ", ".join(names[:-1]) + f" and {names[-1]}"


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


class NumberedGame(Protocol):
    """A game of a table's day, as far as planning its engine goes: its number."""

    @property
    def number(self) -> int: ...


def planned_engines(
    rules: SheetRules, games: Iterable[NumberedGame], live_engines: Mapping[int, int]
) -> dict[int, int]:
    """Game number -> the engine each game of a table's day starts on, as far as is known.

    A game with a live sheet says its own (``live_engines``, by game number); each other game,
    in order, expects the first double of the engine order not yet used there
    (:func:`expected_engine`), counting the games before it as played on what they expect. The
    phone, the desk card, the printed sheets and the workbook all name a game's engine from
    here. A game past the last double is left out.
    """
    used = set(live_engines.values())
    planned = {}
    for game in games:
        engine = live_engines.get(game.number)
        if engine is None:
            engine = expected_engine(rules, used)
            if engine is None:
                continue
            used.add(engine)
        planned[game.number] = engine
    return planned


def _read_engine(rules: SheetRules, value: object) -> tuple[int | None, str | None]:
    """Read the engine as typed: 9, "9", " 9 ", "9-9", "9/9".

    Returns (number, None) or (None, message)."""
    if is_blank(value):
        return None, "Enter the engine: the double that started this game, like 12."
    number = read_double(value) if isinstance(value, str) else None
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
    table = SeatedTable(seated, withdrawn, sheet.game_number)
    engine, problems = _check_engine(rules, sheet.engine, used_engines)
    on_table = _engine_on_table(rules, engine)
    limits = hand_limits(rules, len(table.playing), on_table)

    outcome, found = _check_outcome(table, sheet.went_out, sheet.blocked)
    problems += found
    hands, found = _read_hands(rules, table, sheet.tiles or {}, outcome, on_table, limits)
    problems += found
    problems += _check_each_tile_once(table, hands)

    problems += check_nobody_else_scores(table, sheet.scores or {})
    # A score left blank beside tiles that could not be read is told once, at the tiles.
    bad_tiles = {f.field for f in problems if f.field.startswith("tiles-")}
    unread = {pid for pid in table.seated if f"tiles-{pid}" in bad_tiles}
    scores, unreadable, found = read_scores(rules, table, sheet.scores or {}, hands, unread)
    problems += found
    holding = [p for p in scores if p not in unreadable and p not in outcome.marked]
    problems += check_score_values(table, scores, outcome.went_out, limits)
    problems += check_zeros(rules, table, scores, holding, hands, on_table)
    warnings = likely_typos(table, scores, holding, limits)

    clean = None
    if not problems and engine is not None:
        clean = _clean_game(table, engine, scores, outcome, bool(sheet.blocked), hands)
    return GameCheck(clean, problems, warnings, rechecked, limits)


def _clean_game(
    table: SeatedTable,
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
    table: SeatedTable, went_out: object, blocked: bool
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
                f"Nobody went out in game {n}: tap 'Blocked' if the boneyard "
                "ran out and nobody could play.",
            )
        )
    if outs and blocked:
        problems.append(
            Problem(
                "outcome",
                f"Game {n} cannot be both blocked and have a player go out: "
                "tap 'Blocked' again to clear it, or clear who went out.",
            )
        )
    return _Outcome(out_player, frozenset(outs)), problems


def _check_out_player(table: SeatedTable, pid: object) -> tuple[int | None, list[Problem]]:
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
        if item is None or isinstance(item, bool) or is_blank(item):
            continue
        if isinstance(item, numbers.Integral):
            item = int(item)
        elif isinstance(item, str) and item.strip().isascii() and item.strip().isdigit():
            item = int(item.strip())  # an id typed in a form or a spreadsheet cell
        if item not in seen:
            seen.append(item)
    return seen


# --- tiles left ----------------------------------------------------------------


def _read_hands(
    rules: SheetRules,
    table: SeatedTable,
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
    typed = {pid: raw for pid, raw in tiles.items() if not is_blank(raw)}
    if not typed:
        return hands, problems
    listed = [pid for pid in table.seated if pid in typed]
    listed += [pid for pid in typed if pid not in table.seated]
    for pid in listed:
        raw = typed[pid]
        hand, hand_problems = _read_one_hand(rules, table, pid, raw, outcome, on_table)
        problems += hand_problems
        if hand:
            hands[pid] = hand
            problems += _check_engine_not_in_hand(table, pid, hand, on_table)
            problems += _check_tiles_in_reach(table, pid, hand, limits)
    return hands, problems


def _read_one_hand(
    rules: SheetRules,
    table: SeatedTable,
    pid: int,
    raw: object,
    outcome: _Outcome,
    on_table: int | None,
) -> tuple[list[Tile], list[Problem]]:
    field_name = f"tiles-{pid}"
    if pid not in table.seated:
        text = f"Tiles are listed for {table.name_of(pid)}, who is not seated at this table."
        return [], [Problem(field_name, text)]
    name = table.seated[pid]
    if pid in table.withdrawn:
        text = f"{name} has left the tournament, so leave {possessive(name)} tiles blank."
        return [], [Problem(field_name, text)]
    if isinstance(raw, str):
        # Every problem in one message: the pieces that are not tiles, and the engine if the
        # tiles that are real include it.
        hand, wrong = parse_tiles_partly(raw, rules.top_double)
        if wrong:
            wrong += [p.message for p in _check_engine_not_in_hand(table, pid, hand, on_table)]
            return [], [Problem(field_name, f"In {possessive(name)} tiles: {' '.join(wrong)}")]
    else:
        try:
            hand = read_tiles(raw, rules.top_double)
        except ValueError as exc:
            return [], [Problem(field_name, f"In {possessive(name)} tiles: {exc}")]
    if hand and pid in outcome.marked:
        text = (
            f"{name} went out, so {name} has no tiles left: leave {possessive(name)} tiles blank."
        )
        return [], [Problem(field_name, text)]
    return hand, []


def _check_engine_not_in_hand(
    table: SeatedTable, pid: int, hand: list[Tile], on_table: int | None
) -> list[Problem]:
    """The engine lay in the hub, so no hand can still hold it."""
    if on_table is None or (on_table, on_table) not in hand:
        return []
    name = table.seated[pid]
    return [
        Problem(
            f"tiles-{pid}",
            f"{possessive(name)} tiles include {tile_text((on_table, on_table))}, but "
            f"double {on_table} was the engine in game {table.game_number}, so it was on "
            "the table, not in a hand.",
        )
    ]


def _check_tiles_in_reach(
    table: SeatedTable, pid: int, hand: list[Tile], limits: HandLimits
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


def _check_each_tile_once(table: SeatedTable, hands: Mapping[int, list[Tile]]) -> list[Problem]:
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
        text = tile_text(tile)
        if len(distinct) == 1:
            msg = (
                f"{text} is listed more than once in {possessive(table.seated[distinct[0]])} tiles"
            )
        else:
            both = "both " if len(distinct) == 2 else ""
            names = _join_names([table.seated[p] for p in distinct])
            msg = f"{text} is listed for {both}{names}"
        problems.append(
            Problem(f"tiles-{distinct[0]}", f"{msg}: there is only one of each tile in the set.")
        )
    return problems


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


def infer_outcome(
    rules: SheetRules,
    seated: Mapping[int, str],
    sheet: TypedSheet,
    *,
    lone_zero_went_out: bool = False,
) -> Inferred:
    """Fill in what the sheet already makes certain, so nobody types a fact twice.

    * One player marked as going out, with the score (and tiles) left blank: that score is 0.
    * Nobody marked out, not blocked, and one player scoring 0: when only going out gives a 0
      (the double blank counts more than 0, or it was this game's engine), that player went
      out.  When the double blank counts 0 the 0 could also be a hand holding just the double
      blank, but only in a blocked game, and the sheet says blocked when it was: so with
      ``lone_zero_went_out`` (the desk's card, where "Blocked" is a choice beside each game)
      that player went out, unless their tiles list the double blank.  Without it the page
      asks which (``question``, on the outcome).
    * Two zeros with the double blank at 0 and nobody marked out: one went out and the other
      held just the double blank, and only the sheet can say which, so it asks.

    ``seated`` are the players of this game (id -> name).  Nothing else is guessed: a 0 beside
    someone marked out is left for :func:`check_game` to judge.
    """
    outs = _went_out_ids(sheet.went_out)
    scores = sheet.scores or {}
    tiles = sheet.tiles or {}
    if len(outs) == 1 and not sheet.blocked:
        out = outs[0]
        blank = isinstance(out, int) and is_blank(scores.get(out)) and is_blank(tiles.get(out))
        if blank and out in seated:
            return Inferred(zero_for=out)  # type: ignore[arg-type]
        return Inferred()
    if outs or sheet.blocked:
        return Inferred()
    zeros = [pid for pid in seated if _reads_as_zero(scores.get(pid))]
    engine, _ = _read_engine(rules, sheet.engine)
    only_out_scores_zero = rules.double_blank_value > 0 or engine == 0
    if len(zeros) == 2 and not only_out_scores_zero:
        return Inferred(question=_which_zero_went_out(seated, zeros, sheet.game_number))
    if len(zeros) != 1:
        return Inferred()
    pid = zeros[0]
    if only_out_scores_zero or (lone_zero_went_out and is_blank(tiles.get(pid))):
        return Inferred(went_out=pid)
    name = seated[pid]
    return Inferred(
        question=Problem(
            "outcome",
            f"{possessive(name)} score is 0 in game {sheet.game_number}: did {name} go out? "
            f'If so, tap "{name} went out". If {name} was left holding only the double '
            'blank, tap who went out instead, or "Blocked" if nobody did.',
        )
    )


def _which_zero_went_out(seated: Mapping[int, str], zeros: list[int], number: int) -> Problem:
    first, second = (seated[pid] for pid in zeros)
    return Problem(
        "outcome",
        f"{first} and {second} both score 0 in game {number}: choose which of them went out. "
        "The other was left holding only the double blank.",
    )


def _reads_as_zero(value: object) -> bool:
    try:
        return parse_whole_number(value) == 0
    except ValueError:
        return False
