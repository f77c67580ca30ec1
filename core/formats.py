"""One printed form per value, the same on the web pages, in the PDFs and in the workbooks.

Dates and times follow the project's DATE_FORMAT, DATETIME_FORMAT and TIME_FORMAT
(config/formats), which the templates use too, so a date reads "14 March 2026" and a moment
"14 March 2026, 14:27" everywhere. Averages print with one decimal, and the workbook stores
the same rounded number with a one-decimal cell format.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.utils import formats, timezone

AVERAGE_DECIMALS = 1
AVERAGE_CELL_FORMAT = "0.0"  # the workbook's number format for the same one decimal


def _local(value: datetime.datetime) -> datetime.datetime:
    return timezone.localtime(value) if timezone.is_aware(value) else value


def long_date(value: datetime.date) -> str:
    """ "14 March 2026", as the pages print a date."""
    return formats.date_format(value, "DATE_FORMAT")


def weekday_date(value: datetime.date) -> str:
    """ "Saturday 14 March 2026": a day of play, on its score sheets."""
    return f"{value:%A} {long_date(value)}"


def date_and_time(value: datetime.datetime) -> str:
    """ "14 March 2026, 15:20" in the event's time zone, as the pages print a moment."""
    return formats.date_format(_local(value), "DATETIME_FORMAT")


def time_of_day(value: datetime.datetime, zone: datetime.tzinfo | None = None) -> str:
    """ "15:20" in the event's time zone (or ``zone``), for a moment of the day on screen."""
    local = timezone.localtime(value, zone) if timezone.is_aware(value) else value
    return formats.time_format(local, "TIME_FORMAT")


def rounded_average(value: float) -> float:
    return round(value, AVERAGE_DECIMALS)


def average_text(value: float) -> str:
    return f"{rounded_average(value):.{AVERAGE_DECIMALS}f}"


def when_left(left_after_game: int | None) -> str:
    """ "after game 3", or "before game 1" for a player who left before playing: never
    "after game 0"."""
    return f"after game {left_after_game}" if left_after_game else "before game 1"


def entered_so_far(last_game: int | None) -> str:
    """ "has entered up to game 3", or "has entered no game yet": never "up to game 0"."""
    return f"has entered up to game {last_game}" if last_game else "has entered no game yet"


def money(value) -> str:
    """ "$12.50": an amount of the event's money (settings.CURRENCY_SYMBOL), to the cent."""
    symbol = getattr(settings, "CURRENCY_SYMBOL", "$")
    sign = "-" if value < 0 else ""
    return f"{sign}{symbol}{abs(value):,.2f}"
