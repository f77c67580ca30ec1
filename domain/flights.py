"""Flights: an event's players in groups (senior games' age flights 50-59, 60-69, 70-79, 80+,
or skill flights) with standings ranked within each.

Plain Python with no Django import: the rules, the player's page, the import and the standings
all ask here, so a flight refused in one place is refused in every place. An event's flights
are an ordered list of names; an entry holds one of them, or none.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass

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


# --- Flights from a birth year or date ----------------------------------------------------------
# Senior games place a player by the age they reach during the year of the games (their age on
# 31 December); others by the age on the first day. A directory may know a person's whole birth
# date or only the year: with the year alone, the age on a date is one of two, and the flight is
# still certain when both fall in the same flight.

EARLIEST_BIRTH_YEAR = 1900
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_SLASHED = re.compile(r"(\d{1,2})[/.](\d{1,2})[/.](\d{4})")


@dataclass(frozen=True)
class Birth:
    """What the directory knows of when a person was born: nothing, the year, or the date."""

    year: int | None = None
    date: datetime.date | None = None

    @property
    def known(self) -> bool:
        return self.year is not None

    def words(self) -> str:
        if self.date is not None:
            return self.date.isoformat()
        return str(self.year) if self.year is not None else ""

    def ages_on(self, on: datetime.date) -> tuple[int, int]:
        """(the least, the most) the person can be on ``on``: one age with the date known."""
        if self.date is not None:
            before_birthday = (on.month, on.day) < (self.date.month, self.date.day)
            age = on.year - self.date.year - before_birthday
            return age, age
        assert self.year is not None
        if (on.month, on.day) == (12, 31):  # every birthday of the year has passed
            return on.year - self.year, on.year - self.year
        return on.year - self.year - 1, on.year - self.year


def read_birth(text: str, today: datetime.date) -> tuple[Birth, str]:
    """(what ``text`` says of a birth, why it cannot be read or ""): a year ("1948"), a date
    written 1948-03-21, or a slashed date whose day is over 12 (21/3/1948 or 3/21/1948); a
    slashed date that could be read two ways is refused, saying both."""
    text = text.strip()
    if not text:
        return Birth(), ""
    if re.fullmatch(r"\d{4}(\.0*)?", text):
        year = int(text[:4])
        return _checked(Birth(year=year), text, today)
    if match := _ISO.fullmatch(text):
        return _date(int(match[1]), int(match[2]), int(match[3]), text, today)
    if match := _SLASHED.fullmatch(text):
        first, second, year = int(match[1]), int(match[2]), int(match[3])
        if first > 12 >= second:
            return _date(year, second, first, text, today)
        if second > 12 >= first:
            return _date(year, first, second, text, today)
        if first == second:
            return _date(year, first, first, text, today)
        return Birth(), (
            f'born "{text}" could be {first} {_MONTHS[second - 1]} or {second} '
            f"{_MONTHS[first - 1]}: write it as {year}-{second:02d}-{first:02d} or "
            f"{year}-{first:02d}-{second:02d}."
        )
    return Birth(), f'born "{text}" is not a year (1948) or a date (1948-03-21).'


_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def _date(year: int, month: int, day: int, text: str, today: datetime.date) -> tuple[Birth, str]:
    try:
        born = datetime.date(year, month, day)
    except ValueError:
        return Birth(), f'born "{text}" is not a date of the calendar.'
    return _checked(Birth(year=year, date=born), text, today)


def _checked(birth: Birth, text: str, today: datetime.date) -> tuple[Birth, str]:
    assert birth.year is not None
    if birth.year < EARLIEST_BIRTH_YEAR or (birth.date or datetime.date(birth.year, 1, 1)) > today:
        return Birth(), f'born "{text}" is not a birth year from {EARLIEST_BIRTH_YEAR} to today.'
    return birth, ""


@dataclass(frozen=True)
class ByBirth:
    """Where a birth places a player on a date: the flight, or why not (and whether the
    whole birth date would settle it)."""

    flight: str | None
    why: str = ""
    needs_date: bool = False


def flight_by_birth(flights: Sequence[str], birth: Birth, on: datetime.date) -> ByBirth:
    """The flight ``birth`` puts a player in by their age on ``on``."""
    if not birth.known:
        return ByBirth(None, "no birth year on file")
    low, high = birth.ages_on(on)
    first, last = flight_for_age(flights, low), flight_for_age(flights, high)
    if first is None and last is None:
        age = str(low) if low == high else f"{low} or {high}"
        return ByBirth(None, f"age {age} on {on.isoformat()} fits none of the flights")
    if first != last:
        return ByBirth(
            None,
            f"born {birth.year}: {low} or {high} on {on.isoformat()}, in two flights "
            f"({first or 'none'} or {last or 'none'})",
            needs_date=True,
        )
    return ByBirth(first)


def ages_reached_on(event_date: datetime.date | None, today: datetime.date) -> datetime.date:
    """The date a list's birth years place players by age unless the organiser gives another:
    31 December of the event's year, as senior games count the age a player reaches in it."""
    return datetime.date((event_date or today).year, 12, 31)


def flight_warnings(
    flights: Sequence[str], players_in: dict[str, int], *, seated_within: bool
) -> list[str]:
    """What an organiser should know of the flights as the players fill them: a flight of one
    player is allowed (a late entry may join it) but ranked alone, and cannot sit at a table of
    its own."""
    warnings = []
    for name in flights:
        if players_in.get(name, 0) != 1:
            continue
        said = f"Flight {name} has one player: they are ranked alone and win its prizes unopposed"
        if seated_within:
            said += ", and sit with the flight listed next to it"
        warnings.append(said + ".")
    return warnings
