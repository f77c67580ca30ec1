"""An event's rules checked as a whole, and the plain-text forms an organiser types them in.

Plain Python with no Django import: the rule set model, the rules page, the ``rules`` command
and the tests all ask here, so a rule refused in one place is refused in every place.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from domain.finals import (
    COUNTS_CHOICES,
    FINAL_FIELDS,
    NO_FINAL,
    QUALIFY_CHOICES,
    final_problems,
)
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
    "session_seating",
    "move_up",
    "move_down",
    "end_tables",
    "sessions_per_day",
    "spread_clubs",
    "spread_clubs_every_day",
    "tie_breaks",
    "unplayed_counts",
    "late_joins",
    "late_missed_games",
    "substitutes",
    "substitute_ranking",
    "flights",
    "seat_within_flights",
    *FINAL_FIELDS,
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
# How each session (day) after the first is seated: reshuffled (or kept, as
# ``reshuffle_each_day`` says, or as the seating plan has it), or moved table to table from the
# previous session's results (domain.movement).
SEATING_RESHUFFLE, SEATING_MOVEMENT = "reshuffle", "movement"
SESSION_SEATING_CHOICES = {
    SEATING_RESHUFFLE: "Reshuffle (or keep the tables, as \u201cReseat each day\u201d says)",
    SEATING_MOVEMENT: "Movement: players move table to table by their results",
}
# What happens at table 1 and the last table to a player the movement would move off the end.
ENDS_STAY, ENDS_WRAP = "stay", "wrap"
END_TABLES_CHOICES = {
    ENDS_STAY: "They stay at their table",
    ENDS_WRAP: "They go round: table 1's to the last table, the last table's to table 1",
}
# A club runs at most a morning, an afternoon and an evening session in one date.
MAX_SESSIONS_PER_DAY = 4
CHOICE_FIELDS = {
    "unplayed_counts": UNPLAYED_CHOICES,
    "late_missed_games": LATE_CHOICES,
    "substitute_ranking": SUBSTITUTE_CHOICES,
    "session_seating": SESSION_SEATING_CHOICES,
    "end_tables": END_TABLES_CHOICES,
    "final_qualify": QUALIFY_CHOICES,
    "final_counts": COUNTS_CHOICES,
}

FLAGS = (
    "engine_set_aside",
    "reshuffle_each_day",
    "spread_clubs",
    "spread_clubs_every_day",
    "late_joins",
    "substitutes",
    "seat_within_flights",
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
    "session_seating": "Seat each session after the first by",
    "move_up": "Lowest at each table who move up a table",
    "move_down": "Highest at each table who move down a table",
    "end_tables": "Table 1 and the last table",
    "sessions_per_day": "Sessions a day",
    "spread_clubs": "Spread the clubs on day 1",
    "spread_clubs_every_day": "Spread the clubs on later days too",
    "tie_breaks": "Tie-breaks",
    "unplayed_counts": "A game not played counts",
    "late_joins": "Late players may join",
    "late_missed_games": "A late player's missed games count",
    "substitutes": "Substitutes allowed",
    "substitute_ranking": "A substitute's games count",
    "flights": "Flights",
    "seat_within_flights": "Seat each flight at tables of its own",
    "final_qualify": "A final (championship round): who goes through",
    "final_session": "The session whose tables send their lowest",
    "final_qualifiers": "Players going through (overall, or from each flight)",
    "final_tables": "Tables at the final",
    "final_counts": "The final counts",
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
    if field in CHOICE_FIELDS:
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
    if field in CHOICE_FIELDS:
        return CHOICE_FIELDS[field].get(str(value), str(value))
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


def _choice_problem(value: object, choices: Mapping[str, str]) -> str | None:
    if value in choices:
        return None
    return "Choose " + " or ".join(f'"{key}"' for key in choices) + "."


def movement_problems(rules: Mapping[str, Any]) -> dict[str, str]:
    """Why the session seating rules cannot be followed, by field (empty when they can).

    Read with defaults so a rule set from before these rules is a reshuffle, one session a day.
    A movement needs a session after the first to move into, someone to move, and no more
    movers than a table seats; whether the players fill two tables is the seating's to check,
    when the players are known.
    """
    found: dict[str, str] = {}
    method = rules.get("session_seating", SEATING_RESHUFFLE)
    ends = rules.get("end_tables", ENDS_STAY)
    for name, value in (("session_seating", method), ("end_tables", ends)):
        problem = _choice_problem(value, CHOICE_FIELDS[name])
        if problem:
            found[name] = problem
    per_day = rules.get("sessions_per_day", 1)
    if not _is_int(per_day) or not 1 <= per_day <= MAX_SESSIONS_PER_DAY:
        found["sessions_per_day"] = f"A day holds from 1 to {MAX_SESSIONS_PER_DAY} sessions."
    up, down = rules.get("move_up", 0), rules.get("move_down", 0)
    for name, value in (("move_up", up), ("move_down", down)):
        if not _is_int(value) or value < 0:
            found[name] = "Type a whole number of players, 0 or more."
    if found or method != SEATING_MOVEMENT:
        return found
    size, days = rules.get("max_table_size"), rules.get("days")
    if up + down == 0:
        found["move_up"] = (
            "A movement moves someone: say how many of the lowest move up, or of the highest "
            "move down, or both."
        )
    elif isinstance(size, int) and up + down > size:
        found["move_up" if up else "move_down"] = (
            f"The movement moves {up} up and {down} down from each table, {up + down} players, "
            f"but a table seats at most {size}."
        )
    if isinstance(days, int) and days < 2:
        found["session_seating"] = (
            "A movement seats a session from the one before it: the event needs at least 2 "
            "sessions (Days)."
        )
    return found


def _format_problems(rules: Mapping[str, Any]) -> dict[str, list[str]]:
    """Seating within flights needs flights, and tables that stay put between sessions."""
    if not rules.get("seat_within_flights"):
        return {}
    if not rules.get("flights"):
        return {
            "seat_within_flights": [
                'Seating within flights needs the event\'s flights: list them under "Flights", '
                "or seat the flights mixed."
            ]
        }
    if rules.get("session_seating") == SEATING_MOVEMENT:
        return {
            "seat_within_flights": [
                "A movement moves players table to table whatever their flight, so the flights "
                "cannot each keep tables of their own: seat the flights mixed, or reshuffle."
            ]
        }
    return {}


def _formats_together(rules: Mapping[str, Any]) -> dict[str, list[str]]:
    """A movement and a final together: the final is the last day, so the movement needs a
    session to move from and one to move into before it."""
    moved = rules.get("session_seating") == SEATING_MOVEMENT
    final = rules.get("final_qualify", NO_FINAL) != NO_FINAL
    if moved and final and rules["days"] < 3:
        return {
            "session_seating": [
                "With a final on the last day, a movement needs at least 3 days: a session to "
                "move from, one to move into, and the final."
            ]
        }
    return {}


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
    for name, message in movement_problems(rules).items():
        found.setdefault(name, []).append(message)
    # The flights depend on no other rule, so they are checked whatever else is wrong.
    flights = flight_problems(rules.get("flights") or [])
    if found:
        # The checks below read these fields as sound numbers and charts.
        return found | ({"flights": flights} if flights else {})
    return _game_and_format_problems(rules, flights)


def _game_and_format_problems(rules: Mapping[str, Any], flights: list[str]) -> dict[str, list[str]]:
    """What :func:`rule_problems` checks once the numbers and charts are sound: the engines,
    the deal, the flights and the formats."""
    found: dict[str, list[str]] = {}
    engine = _engine_problem(rules)
    if engine:
        found[engine[0]] = [engine[1]]
    deal = _deal_problems(rules)
    if deal:
        found["hand_sizes"] = deal
    if flights:
        found["flights"] = flights
    found.update(_format_problems(rules))
    # The final reads the days, the table size and the flights, so it is checked once they
    # are sound; a final with unsound flights waits for them.
    if not found:
        found.update(final_problems(rules))
    if not found:
        found.update(_formats_together(rules))
    return found
