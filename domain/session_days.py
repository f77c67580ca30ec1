"""Sessions and calendar days: an event's "days" are its sessions, and a date may hold several.

Plain Python. Every output that names a session asks :func:`session_label`, so "Day 2" reads
"Day 1, session 2" in every place at once when the event plays two sessions a date.
"""

import datetime


def calendar_day(number: int, per_day: int) -> tuple[int, int]:
    """Session ``number`` (from 1) as (calendar day, session of that day), both from 1."""
    per_day = max(1, per_day)
    return (number - 1) // per_day + 1, (number - 1) % per_day + 1


def session_date(start: datetime.date | None, number: int, per_day: int) -> datetime.date | None:
    """The date session ``number`` is played on: sessions fill each date in turn."""
    if start is None:
        return None
    return start + datetime.timedelta(days=calendar_day(number, per_day)[0] - 1)


def session_label(number: int, per_day: int = 1) -> str:
    """ "Day 2" when each date has one session; "Day 1, session 2" when dates hold several."""
    if per_day <= 1:
        return f"Day {number}"
    day, session = calendar_day(number, per_day)
    return f"Day {day}, session {session}"
