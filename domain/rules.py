"""An event's rules checked as a whole, and the plain-text forms an organiser types them in.

Plain Python with no Django import: the rule set model, the rules page, the ``rules`` command
and the tests all ask here, so a rule refused in one place is refused in every place.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from domain.flights import flight_problems, flights_words, parse_flights
from domain.tie_breaks import tie_break_problems, tie_break_words

SETS = (6, 9, 12, 15, 18)
MIN_TABLE, MAX_TABLE = 2, 10
# No rule sheet counts the double blank above 50; the bound keeps a typo (40000) out of the
# sheets' checks and inside every database's small integer.
MAX_DOUBLE_BLANK = 100
# A hand chart needs at most a row per table size; longer charts are refused before they are
# compared row against row.
MAX_HAND_ROWS = MAX_TABLE

# Every rule an organiser can set, in the order the rules page and the command list them.
RULE_FIELDS = (
    "top_double",
    "days",
    "games_per_day",
    "first_engine",
    "engine_order",
    "max_table_size",
    "hand_sizes",
    "engine_set_aside",
    "double_blank_value",
    "reshuffle_each_day",
    "spread_clubs",
    "spread_clubs_every_day",
    "tie_breaks",
    "unplayed_counts",
    "late_joins",
    "late_missed_games",
    "substitutes",
    "substitute_ranking",
    "flights",
)

# Rules that only order the standings: they change no score check and no total, so they may
# change at any time, even after play has started (each change goes in the event's history).
# What a game not played counts (``unplayed_counts``) and what a late player's missed games count
# (``late_missed_games``) change totals, so they are fixed with the other rules once play starts.
STANDINGS_SETTINGS = ("tie_breaks",)

# What a game marked "not played" counts for each player at that table.
UNPLAYED_NOTHING, UNPLAYED_AVERAGE = "nothing", "average"
UNPLAYED_CHOICES = {
    UNPLAYED_NOTHING: "Nothing",
    UNPLAYED_AVERAGE: "The player's average that day, rounded",
}

# What each game a late player missed that day counts for them, once that game is confirmed at
# their table: nothing (as an absent player's game), the highest score at the table in it (the
# Good Sams of Florida's "must accept the highest score at the table"), or the table's average
# in it, rounded as a game not played's average is.
LATE_NOTHING, LATE_HIGHEST, LATE_AVERAGE = "nothing", "highest", "average"
LATE_CHOICES = {
    LATE_NOTHING: "Nothing",
    LATE_HIGHEST: "The highest score at their table in that game",
    LATE_AVERAGE: "Their table's average in that game, rounded",
}
# What an output says of a game so credited, beside the mark on the day it counts in.
LATE_WORDS = {LATE_HIGHEST: "late: highest at the table", LATE_AVERAGE: "late: table average"}

# How a substitute's games count in the standings.
SUB_NOT_RANKED, SUB_OWN, SUB_SHARED = "not_ranked", "own", "shared"
SUBSTITUTE_CHOICES = {
    SUB_NOT_RANKED: "Not ranked (shown, without a rank)",
    SUB_OWN: "Ranked on their own total",
    SUB_SHARED: "Added to the player they replaced",
}
FLAGS = (
    "engine_set_aside",
    "reshuffle_each_day",
    "spread_clubs",
    "spread_clubs_every_day",
    "late_joins",
    "substitutes",
)

RULE_LABELS = {
    "top_double": "Set",
    "days": "Days",
    "games_per_day": "Games a day",
    "first_engine": "First engine",
    "engine_order": "Engine order",
    "max_table_size": "Most players at a table",
    "hand_sizes": "Hand sizes",
    "engine_set_aside": "Engine set aside before the deal",
    "double_blank_value": "Double blank",
    "reshuffle_each_day": "Reseat each day",
    "spread_clubs": "Spread the clubs on day 1",
    "spread_clubs_every_day": "Spread the clubs on later days too",
    "tie_breaks": "Tie-breaks",
    "unplayed_counts": "A game not played counts",
    "late_joins": "Late players may join",
    "late_missed_games": "A late player's missed games count",
    "substitutes": "Substitutes allowed",
    "substitute_ranking": "A substitute's games count",
    "flights": "Flights",
}


def tile_count(top_double: int) -> int:
    """Tiles in a double-``top_double`` set: 28, 55, 91, 136, 190."""
    n = top_double + 1
    return n * (n + 1) // 2


def set_label(top_double: int) -> str:
    return f"Double-{top_double} ({tile_count(top_double)} tiles)"


def counting_down(first_engine: int, games: int) -> list[int]:
    return [first_engine - i for i in range(games)]


def scheduled_engines(first_engine: int, games: int, explicit: Sequence[int]) -> list[int]:
    """The engine of each game of a day: the explicit order when there is one, else counting
    down from the first engine."""
    return list(explicit) if explicit else counting_down(first_engine, games)


def hand_size(hand_sizes: Sequence[Sequence[int]], players: int) -> int | None:
    for low, high, tiles in hand_sizes:
        if low <= players <= high:
            return tiles
    return None


# ---------------------------------------------------------------------------
# Typed forms
# ---------------------------------------------------------------------------


def parse_engine_order(text: str) -> list[int]:
    """``"9 8 7 6"`` (commas also read) as a list; empty text means counting down."""
    words = text.replace(",", " ").split()
    if not all(word.isdigit() for word in words):
        raise ValueError('Type the engines as numbers with spaces between, like "9 8 7 6 5".')
    return [int(word) for word in words]


def format_engine_order(order: Sequence[int]) -> str:
    return " ".join(str(engine) for engine in order)


def parse_hand_chart(text: str) -> list[list[int]]:
    """``"2-4: 15, 5-6: 12, 7: 11"`` as ``[[2, 4, 15], [5, 6, 12], [7, 7, 11]]``."""
    shape = 'Type the hand sizes like "2-4: 15, 5-6: 12, 7-8: 11" (players: tiles each).'
    rows = []
    parts = [part for part in text.replace(";", ",").split(",") if part.strip()]
    if len(parts) > MAX_HAND_ROWS:
        raise ValueError(too_many_hand_rows(len(parts)))
    for part in parts:
        players, colon, tiles = part.partition(":")
        low, dash, high = players.strip().partition("-")
        numbers = [low.strip(), high.strip() if dash else low.strip(), tiles.strip()]
        if not colon or not all(n.isdigit() for n in numbers):
            raise ValueError(shape)
        rows.append([int(n) for n in numbers])
    if not rows:
        raise ValueError(shape)
    return rows


def too_many_hand_rows(rows: int) -> str:
    return (
        f"A hand chart has at most {MAX_HAND_ROWS} rows, one per table size; this one has {rows}."
    )


def format_hand_chart(rows: Sequence[Sequence[int]]) -> str:
    return ", ".join(
        f"{low}: {tiles}" if low == high else f"{low}-{high}: {tiles}" for low, high, tiles in rows
    )


def parse_flag(text: str) -> bool:
    word = text.strip().lower()
    if word in ("yes", "y", "true", "on", "1"):
        return True
    if word in ("no", "n", "false", "off", "0"):
        return False
    raise ValueError('Type "yes" or "no".')


def parse_tie_breaks(text: str) -> list[str]:
    return text.replace(",", " ").split()


def parse_rule(field: str, text: str) -> object:
    """The value of ``field`` typed as ``text`` (the command line's ``--set FIELD=VALUE``)."""
    if field not in RULE_FIELDS:
        raise ValueError(f'There is no rule called "{field}". Rules: {", ".join(RULE_FIELDS)}.')
    if field == "engine_order":
        return parse_engine_order(text)
    if field == "hand_sizes":
        return parse_hand_chart(text)
    if field in FLAGS:
        return parse_flag(text)
    if field == "tie_breaks":
        return parse_tie_breaks(text)
    if field == "flights":
        return parse_flights(text)
    if field in ("unplayed_counts", "late_missed_games", "substitute_ranking"):
        return text.strip().lower()
    if not text.strip().isdigit():
        raise ValueError("Type a whole number, 0 or more.")
    return int(text)


def format_rule(field: str, value: object) -> str:
    if field == "engine_order":
        return format_engine_order(value) if value else "counting down"  # type: ignore[arg-type]
    if field == "hand_sizes":
        return format_hand_chart(value)  # type: ignore[arg-type]
    if field in FLAGS:
        return "yes" if value else "no"
    if field == "tie_breaks":
        return tie_break_words(value)  # type: ignore[arg-type]
    if field == "flights":
        return flights_words(value)  # type: ignore[arg-type]
    if field == "top_double":
        return set_label(value)  # type: ignore[arg-type]
    if field == "unplayed_counts":
        return UNPLAYED_CHOICES.get(str(value), str(value))
    if field == "late_missed_games":
        return LATE_CHOICES.get(str(value), str(value))
    if field == "substitute_ranking":
        return SUBSTITUTE_CHOICES.get(str(value), str(value))
    return str(value)


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def hand_sizes_problems(value: object) -> list[str]:
    """Plain-words reasons ``value`` is not a usable hand-size table (empty when it is).

    A usable table is a non-empty list of ``[fewest players, most players, tiles]`` rows of whole
    numbers: fewest from 1 up to most, tiles at least 1, and no player count in two rows
    (:func:`hand_size` would silently take the first row that matches).
    """
    shape = (
        "Hand sizes must be a list of [fewest players, most players, tiles] rows, "
        "such as [[2, 4, 15], [5, 6, 12]]."
    )
    if not isinstance(value, (list, tuple)) or not value:
        return [shape]
    if len(value) > MAX_HAND_ROWS:
        return [too_many_hand_rows(len(value))]
    problems: list[str] = []
    ranges: list[tuple[int, int]] = []
    for row in value:
        if not (isinstance(row, (list, tuple)) and len(row) == 3 and all(map(_is_int, row))):
            problems.append(f"{row!r} is not a row of three whole numbers. {shape}")
            continue
        low, high, tiles = row
        if not 1 <= low <= high:
            problems.append(
                f"{list(row)}: the fewest players must be at least 1 and no more than the most."
            )
        elif tiles < 1:
            problems.append(f"{list(row)}: each player draws at least 1 tile.")
        elif any(low <= other_high and other_low <= high for other_low, other_high in ranges):
            problems.append(f"{list(row)}: some of these player counts already have a hand size.")
        else:
            ranges.append((low, high))
    return problems


def _number_problems(rules: Mapping[str, Any]) -> dict[str, str]:
    found = {}
    if rules["top_double"] not in SETS:
        found["top_double"] = "The set must be double-6, 9, 12, 15 or 18."
    if not _is_int(rules["days"]) or rules["days"] < 1:
        found["days"] = "An event has at least 1 day."
    if not _is_int(rules["games_per_day"]) or rules["games_per_day"] < 1:
        found["games_per_day"] = "A day has at least 1 game."
    blank = rules["double_blank_value"]
    if not _is_int(blank) or not 0 <= blank <= MAX_DOUBLE_BLANK:
        found["double_blank_value"] = (
            f"The double blank counts from 0 to {MAX_DOUBLE_BLANK} points."
        )
    if rules.get("unplayed_counts", UNPLAYED_NOTHING) not in UNPLAYED_CHOICES:
        found["unplayed_counts"] = 'Choose "nothing" or "average".'
    if rules.get("late_missed_games", LATE_NOTHING) not in LATE_CHOICES:
        found["late_missed_games"] = 'Choose "nothing", "highest" or "average".'
    if rules.get("substitute_ranking", SUB_NOT_RANKED) not in SUBSTITUTE_CHOICES:
        found["substitute_ranking"] = 'Choose "not_ranked", "own" or "shared".'
    size = rules["max_table_size"]
    if not _is_int(size) or not MIN_TABLE <= size <= MAX_TABLE:
        found["max_table_size"] = f"A table seats from {MIN_TABLE} to {MAX_TABLE} players at most."
    return found


def _engine_problem(rules: Mapping[str, Any]) -> tuple[str, str] | None:
    top, games, first = rules["top_double"], rules["games_per_day"], rules["first_engine"]
    order = rules.get("engine_order") or []
    if not order:
        if not _is_int(first) or not 0 <= first <= top:
            return "first_engine", f"The first engine must be a double of the set, 0 to {top}."
        if games > first + 1:
            return "games_per_day", (
                f"Counting down from double {first} gives at most {first + 1} games "
                f"(down to the double blank), not {games}. Lower the games or give an "
                "engine order."
            )
        return None
    if not all(_is_int(e) for e in order) or any(not 0 <= e <= top for e in order):
        return "engine_order", f"Every engine must be a double of the set, 0 to {top}."
    repeated = sorted({e for e in order if order.count(e) > 1})
    if repeated:
        doubles = ", ".join(str(e) for e in repeated)
        return "engine_order", f"Each double starts one game a day at most; repeated: {doubles}."
    if len(order) != games:
        return "engine_order", (
            f"The engine order lists {len(order)} doubles but a day has {games} games: "
            "give one engine per game."
        )
    return None


def _deal_problems(rules: Mapping[str, Any]) -> list[str]:
    """Every table size from 2 to the maximum has a hand size, and the deal leaves the engine
    and at least one tile in the boneyard. With the engine set aside before the deal the hands
    come from the other tiles, so they must fit in one tile fewer."""
    tiles_in_set = tile_count(rules["top_double"])
    set_aside = rules.get("engine_set_aside", False)
    problems = []
    for players in range(MIN_TABLE, rules["max_table_size"] + 1):
        tiles = hand_size(rules["hand_sizes"], players)
        if tiles is None:
            problems.append(
                f"Tables of {players} have no hand size (tables seat up to "
                f"{rules['max_table_size']})."
            )
        elif players * tiles + 2 > tiles_in_set:
            problems.append(_deal_too_big(players, tiles, tiles_in_set, set_aside=set_aside))
    return problems


def _deal_too_big(players: int, tiles: int, tiles_in_set: int, *, set_aside: bool) -> str:
    dealt = f"{players} players drawing {tiles} tiles take {players * tiles} of the"
    if set_aside:
        return (
            f"{dealt} {tiles_in_set - 1} tiles left once the engine is set aside: at least one "
            "tile must be left for the boneyard."
        )
    return (
        f"{dealt} {tiles_in_set} tiles: the engine and at least one tile for the boneyard "
        "must be left."
    )


def rule_problems(rules: Mapping[str, Any]) -> dict[str, list[str]]:
    """Every reason, by field, that ``rules`` (a mapping of :data:`RULE_FIELDS`) cannot be
    played; empty when they can."""
    found: dict[str, list[str]] = {
        name: [message] for name, message in _number_problems(rules).items()
    }
    hands = hand_sizes_problems(rules["hand_sizes"])
    if hands:
        found["hand_sizes"] = hands
    ties = tie_break_problems(rules["tie_breaks"])
    if ties:
        found["tie_breaks"] = ties
    if not isinstance(rules.get("engine_set_aside", False), bool):
        found["engine_set_aside"] = ['Say "yes" or "no": is the engine set aside before the deal?']
    # The flights depend on no other rule, so they are checked whatever else is wrong.
    flights = flight_problems(rules.get("flights") or [])
    if found:
        # The checks below read these fields as sound numbers and charts.
        return found | ({"flights": flights} if flights else {})
    engine = _engine_problem(rules)
    if engine:
        found[engine[0]] = [engine[1]]
    deal = _deal_problems(rules)
    if deal:
        found["hand_sizes"] = deal
    if flights:
        found["flights"] = flights
    return found
