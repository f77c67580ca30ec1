"""Flights: an event's players in groups (senior games' age flights 50-59, 60-69, 70-79, 80+,
or skill flights) with standings ranked within each.

Plain Python with no Django import: the rules, the player's page, the import and the standings
all ask here, so a flight refused in one place is refused in every place. An event's flights
are an ordered list of names; an entry holds one of them, or none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# A flight names a workbook sheet ("Flight 80+", at most 31 characters there), so it is short
# and holds none of the characters a sheet name cannot.
FLIGHT_MAX = 24
MAX_FLIGHTS = 20
SHEET_FORBIDDEN = set("[]:*?/\\")

_RANGE = re.compile(r"(\d{1,3})\s*-\s*(\d{1,3})")
_FROM = re.compile(r"(\d{1,3})\s*\+")


def parse_flights(text: str) -> list[str]:
    """``"50-59, 60-69, 80+"`` as a list of names (commas or new lines between them)."""
    return [" ".join(part.split()) for part in re.split(r"[,\n;]", text) if part.strip()]


def format_flights(flights: Sequence[str]) -> str:
    return ", ".join(flights)


def flights_words(flights: Sequence[str]) -> str:
    """How a rule or a refusal lists them: "50-59, 60-69" or "none"."""
    return format_flights(flights) if flights else "none"


def flight_problems(flights: object) -> list[str]:
    """Plain-words reasons ``flights`` is not a usable list of flight names (empty when it is)."""
    if not isinstance(flights, (list, tuple)):
        return ['Flights are a list of names, such as ["50-59", "60-69", "70-79", "80+"].']
    if len(flights) > MAX_FLIGHTS:
        return [f"An event has at most {MAX_FLIGHTS} flights; this list has {len(flights)}."]
    problems: list[str] = []
    seen: set[str] = set()
    for name in flights:
        if not isinstance(name, str) or not name.strip():
            problems.append("A flight needs a name, such as 60-69.")
            continue
        if name != " ".join(name.split()):
            problems.append(f'The flight "{name}" has spaces at its ends or runs of spaces.')
        elif len(name) > FLIGHT_MAX:
            problems.append(f'The flight "{name}" is longer than {FLIGHT_MAX} letters.')
        elif SHEET_FORBIDDEN & set(name):
            problems.append(
                f'The flight "{name}" holds one of [ ] : * ? / \\, which a workbook sheet '
                "cannot be named with."
            )
        elif name.casefold() in seen:
            problems.append(f'The flight "{name}" is listed twice.')
        seen.add(name.casefold())
    return problems


def flight_named(flights: Sequence[str], typed: str) -> str | None:
    """The event's spelling of the flight ``typed`` names, whatever its case; None when the
    event has no such flight."""
    key = " ".join(typed.split()).casefold()
    return next((name for name in flights if name.casefold() == key), None)


def not_a_flight(typed: str, flights: Sequence[str]) -> str:
    """Why ``typed`` cannot be a player's flight, listing the event's flights."""
    if not flights:
        return (
            f'flight "{typed}" is not one of this event\'s flights: it has none (the Rules '
            "page defines them)."
        )
    return f'flight "{typed}" is not one of this event\'s flights ({format_flights(flights)}).'


def no_such_flight(typed: str, flights: Sequence[str]) -> str:
    """Why standings cannot be shown for the flight ``typed``, naming the event's flights."""
    return f'There is no flight "{typed[:40]}": this event\'s flights are {flights_words(flights)}.'


def age_range(name: str) -> tuple[int, int | None] | None:
    """The ages a flight's name covers: "50-59" is (50, 59), "80+" is (80, None); None for a
    name that is no age range (a skill flight, "Gold")."""
    name = name.strip()
    if match := _RANGE.fullmatch(name):
        low, high = int(match[1]), int(match[2])
        return (low, high) if low <= high else None
    if match := _FROM.fullmatch(name):
        return int(match[1]), None
    return None


def flight_for_age(flights: Sequence[str], age: int) -> str | None:
    """The first flight whose name is an age range holding ``age``; None when none does."""
    for name in flights:
        ages = age_range(name)
        if ages is not None and ages[0] <= age and (ages[1] is None or age <= ages[1]):
            return name
    return None


def age_problem(text: str, flights: Sequence[str]) -> tuple[str | None, str]:
    """(the flight an age typed as ``text`` puts a player in, or None; why not, or "")."""
    if not re.fullmatch(r"\d{1,3}(\.0*)?", text.strip()):
        return None, f'age "{text}" is not a whole number of years.'
    flight = flight_for_age(flights, int(text.strip().split(".")[0]))
    if flight is None:
        listed = format_flights(flights) if flights else "it has none"
        return None, f"age {text} fits none of this event's flights ({listed})."
    return flight, ""


def removed_in_use(old: Sequence[str], new: Sequence[str], held: dict[str, list[str]]) -> str:
    """Why ``new`` cannot replace ``old``: a flight taken away that players still hold, naming
    them (``held``: flight -> players, as they are listed); "" when none is. A flight whose
    spelling only changes case is not taken away (its players follow it)."""
    kept = {name.casefold() for name in new}
    gone = [name for name in old if name.casefold() not in kept and held.get(name)]
    if not gone:
        return ""
    parts = []
    for name in gone:
        players = held[name]
        shown = ", ".join(players[:10]) + (f" and {len(players) - 10} more" if players[10:] else "")
        parts.append(f"{name} ({shown})")
    return (
        "Players still hold the flight "
        + "; ".join(parts)
        + ": give them another flight on their player page first."
    )
