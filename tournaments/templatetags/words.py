"""The pages' words for values that core.formats also prints in PDFs, workbooks and messages,
so a template says them the same way."""

from django import template

from core import formats, venue
from domain.seating.plan_following import pairs_again
from domain.session_days import session_label

register = template.Library()
register.filter("when_left", formats.when_left)
register.filter("date_and_time", formats.date_and_time)
register.filter("money", formats.money)
# {{ day.number|session:rules.sessions_per_day }}: "Day 2", or "Day 1, session 2".
register.filter("session", session_label)


@register.simple_tag(name="pairs_again")
def pairs_again_tag(repeats: int, bound: int | None) -> str:
    """:func:`pairs_again`, or the bare count for a plan made before bounds were kept."""
    if bound is None:
        return f"pairs who have sat together before: {repeats}"
    return pairs_again(repeats, bound)


@register.inclusion_tag("tournaments/_connected.html")
def connected_line() -> dict:
    """The line a phone's first page shows while it reaches the app (static/js/connection.js
    changes it when the phone goes offline)."""
    online, offline = venue.connected_words()
    return {"online": online, "offline": offline}
