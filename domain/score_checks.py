"""The scores of one game at one table, and the totals written at the bottom of a card.

Plain Python, no Django. :func:`domain.sheet_checks.check_game` reads each player's score here
(typed, or worked out from the tiles), then judges the numbers: the player out scores 0, no
hand holds more than the tiles within its reach (:func:`domain.sheet_rules.hand_limits`), a 0
needs the double blank, and a possible but unlikely score is a "please check" warning.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from domain.sheet_rules import HandLimits, SheetRules
from domain.tiles import Tile, is_blank, letter_typo_text, parse_whole_number, tile_pips
from domain.typed_sheet import CleanGame, Problem, SeatedTable, possessive, with_commas

# ---------------------------------------------------------------------------
# Each player's score
# ---------------------------------------------------------------------------


def check_nobody_else_scores(table: SeatedTable, scores: Mapping[int, object]) -> list[Problem]:
    """Only the players seated at this table have a score."""
    return [
        Problem(
            f"score-{pid}",
            f"A score is entered for {table.name_of(pid)}, who is not seated at this "
            "table. Only the players seated here can have a score.",
        )
        for pid, raw in scores.items()
        if pid not in table.seated and not is_blank(raw)
    ]


def read_scores(
    rules: SheetRules,
    table: SeatedTable,
    typed: Mapping[int, object],
    hands: Mapping[int, list[Tile]],
    unread_tiles: Collection[int] = (),
) -> tuple[dict[int, int], set[int], list[Problem]]:
    """Every player still playing has exactly one score: a whole number, not
    negative, typed or worked out from the tiles, and agreeing with the tiles
    when both are given.  A withdrawn player has none.  A blank score beside
    tiles that could not be read (``unread_tiles``) is not asked for: the
    tiles' own problem says what to fix.

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
        if pid in unread_tiles and is_blank(raw):
            unreadable.add(pid)
            continue
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


def _check_withdrawn_has_no_score(table: SeatedTable, pid: int, raw: object) -> list[Problem]:
    if is_blank(raw):
        return []
    name = table.seated[pid]
    return [
        Problem(
            f"score-{pid}",
            f"{name} has left the tournament, so leave {possessive(name)} score blank.",
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
        return None, Problem(f"score-{pid}", f"{possessive(name)} score cannot be negative.")
    text = (
        f"{possessive(name)} tiles add up to {with_commas(hand_value or 0)}, "
        f"but the score says {with_commas(value)}."
    )
    return value, Problem(f"score-{pid}", text)


def _read_unnumbered_score(
    name: str, pid: int, raw: object, hand_value: int | None
) -> tuple[int | None, Problem | None]:
    """A score left blank is worked out from the tiles; anything else is refused."""
    if is_blank(raw):
        if hand_value is not None:
            return hand_value, None
        return None, Problem(f"score-{pid}", f"Enter a score for {name}.")
    text = letter_typo_text(raw, name) or (
        f"{possessive(name)} score must be a whole number, like 0 or 23."
    )
    return None, Problem(f"score-{pid}", text)


# --- what the scores may be ----------------------------------------------------


def check_score_values(
    table: SeatedTable,
    scores: Mapping[int, int],
    out: int | None,
    limits: HandLimits,
) -> list[Problem]:
    """The limits on the numbers: the player out's (``out``, or None), each hand's, then the
    table's."""
    problems: list[Problem] = []
    if out is not None and out in scores:
        problems += _check_out_player_scores_zero(table, out, scores[out])
    over = [pid for pid, value in scores.items() if value > limits.hand_pips and pid != out]
    for pid in over:
        problems += _check_hand_ceiling(table, pid, scores[pid], limits)
    if not over:
        problems += _check_table_total(table, scores, limits) or _check_total_after_out(
            table, scores, out, limits
        )
    return problems


def _check_out_player_scores_zero(table: SeatedTable, pid: int, value: int) -> list[Problem]:
    """The player who went out holds nothing, so scores 0."""
    if value == 0:
        return []
    name = table.seated[pid]
    return [Problem(f"score-{pid}", f"{name} went out, so {possessive(name)} score must be 0.")]


def _check_hand_ceiling(
    table: SeatedTable, pid: int, value: int, limits: HandLimits
) -> list[Problem]:
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
            f"{possessive(name)} score of {with_commas(value)} is more than {where}: "
            f"the most is {with_commas(limits.hand_pips)} in game {table.game_number}.",
        )
    ]


def _check_table_total(
    table: SeatedTable, scores: Mapping[int, int], limits: HandLimits
) -> list[Problem]:
    """The hands together hold no more than the tiles left after the engine."""
    total = sum(scores.values())
    if total <= limits.table_pips:
        return []
    return [
        Problem(
            "",
            f"The scores in game {table.game_number} add up to {with_commas(total)}, but all the "
            f"tiles left after the engine only add up to {with_commas(limits.table_pips)}. "
            "Please check the scores.",
        )
    ]


def _check_total_after_out(
    table: SeatedTable, scores: Mapping[int, int], out: int | None, limits: HandLimits
) -> list[Problem]:
    """Once a player went out, every tile dealt to that player is on the table, so the other
    hands together hold no more than the set less the engine and less that deal."""
    ceiling = limits.table_pips_after_out
    if out is None or out not in scores or ceiling is None:
        return []
    total = sum(value for pid, value in scores.items() if pid != out)
    if total <= ceiling:
        return []
    name = table.seated[out]
    return [
        Problem(
            "",
            f"The scores in game {table.game_number} add up to {with_commas(total)}, but that "
            f"is too many: {name} went out, so all {limits.drew} tiles {name} was dealt were "
            "played, and the tiles left for the other players add up to at most "
            f"{with_commas(ceiling)}. Please check the scores.",
        )
    ]


# --- zeros -------------------------------------------------------------------------


def check_zeros(
    rules: SheetRules,
    table: SeatedTable,
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


def _zero_needs_going_out(rules: SheetRules, table: SeatedTable, pid: int) -> Problem:
    name = table.seated[pid]
    return Problem(
        f"score-{pid}",
        f"{possessive(name)} score is 0, but only the player who went out can score 0; "
        f"with the double blank worth {rules.double_blank_value}, anyone left holding "
        "tiles has at least 1.",
    )


def _zero_with_blank_engine(table: SeatedTable, pid: int) -> Problem:
    name = table.seated[pid]
    return Problem(
        f"score-{pid}",
        f"{possessive(name)} score is 0, but the double blank was the engine in game "
        f"{table.game_number}, so only the player who went out can score 0.",
    )


def _second_zero(table: SeatedTable, pid: int, first: int) -> Problem:
    name, other = table.seated[pid], table.seated[first]
    return Problem(
        f"score-{pid}",
        f"{possessive(name)} score is 0, but so is {possessive(other)}. Apart from the "
        "player who went out, only one player, the one left holding just the double "
        f"blank, can score 0 in game {table.game_number}.",
    )


def _zero_without_the_blank(table: SeatedTable, pid: int, holder: int) -> Problem:
    name, other = table.seated[pid], table.seated[holder]
    return Problem(
        f"score-{pid}",
        f"{possessive(name)} score is 0, but the double blank is listed in "
        f"{possessive(other)} tiles: only a player left holding just the double blank "
        "can score 0.",
    )


# --- likely typos: "please check", never a refusal ---------------------------------

# A three-digit score among two-digit ones is a likely extra keystroke ("400"
# for "40") when it is also well above the next highest score.  Lower bounds
# than these asked about too many true scores in simulated games.
_JUMP_FLOOR = 150
_JUMP_FACTOR = 3
# "130" for 13: a true hand of 100 to 149 among two-digit ones is common (the
# jump's floor), so the extra 0 is asked about only when the number it leaves
# is two-digit like its neighbours' and the whole is far above every one of them.  In
# 120,000 simulated games these bounds asked about 5 true games; a factor of 4
# or two neighbours asked about 15 to 39.
_EXTRA_ZERO_FACTOR = 5
_EXTRA_ZERO_NEIGHBOURS = 3


def likely_typos(
    table: SeatedTable, scores: Mapping[int, int], holding: Sequence[int], limits: HandLimits
) -> list[Problem]:
    """At most one "please check" per player, for a score that is possible but unlikely."""
    warnings: list[Problem] = []
    for pid in holding:
        value = scores[pid]
        if value < 100 or value > limits.hand_pips:
            continue  # nothing to ask, or already refused
        others = [scores[p] for p in holding if p != pid]
        warning = (
            _beyond_starting_hand(table, pid, value, limits)
            or _extra_zero(table, pid, value, others)
            or _jump(table, pid, value, others)
        )
        if warning is not None:
            warnings.append(warning)
    return warnings


def _beyond_starting_hand(
    table: SeatedTable, pid: int, value: int, limits: HandLimits
) -> Problem | None:
    """More than the best hand anyone can be dealt: possible only after many draws."""
    best = limits.starting_hand_pips
    if best is None or value <= best:
        return None
    name = table.seated[pid]
    return Problem(
        f"score-{pid}",
        f"Please check {possessive(name)} score of {with_commas(value)}: that is more than the "
        f"best hand anyone can be dealt ({with_commas(best)} in {limits.drew} tiles), so "
        f"{name} must have drawn many tiles in game {table.game_number}.",
    )


def _jump(table: SeatedTable, pid: int, value: int, others: Sequence[int]) -> Problem | None:
    """A score with more digits than every other at the table, and far above them."""
    if value < _JUMP_FLOOR or not others:
        return None
    highest = max(others)
    if len(str(highest)) >= len(str(value)) or value <= _JUMP_FACTOR * highest:
        return None
    name = table.seated[pid]
    return Problem(
        f"score-{pid}",
        f"Please check {possessive(name)} score of {with_commas(value)}: the other scores in "
        f"game {table.game_number} are all under {with_commas(10 ** (len(str(highest))))}.",
    )


def _extra_zero(table: SeatedTable, pid: int, value: int, others: Sequence[int]) -> Problem | None:
    """A two-digit score with a 0 typed after it ("130" for 13) among two-digit neighbours."""
    meant, last = divmod(value, 10)
    if last or meant >= 100 or len(others) < _EXTRA_ZERO_NEIGHBOURS:
        return None
    highest = max(others)
    if highest >= 100 or value < _EXTRA_ZERO_FACTOR * highest:
        return None
    name = table.seated[pid]
    return Problem(
        f"score-{pid}",
        f"Please check {possessive(name)} score of {with_commas(value)}: did you mean {meant}? "
        f"The other scores in game {table.game_number} are no more than {highest}.",
    )


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
        if is_blank(raw):
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
        text = letter_typo_text(raw, f"{possessive(name)} total") or (
            f"{possessive(name)} total must be a whole number, like 0 or 123."
        )
        return Problem(field_name, text)
    if value < 0:
        return Problem(field_name, f"{possessive(name)} total cannot be negative.")
    if value != expected:
        text = (
            f"{possessive(name)} total says {with_commas(value)}, but "
            f"{possessive(name)} games add up to {with_commas(expected)}."
        )
        return Problem(field_name, text)
    return None
