""" "Call the desk" from a table: why a table may call, when a call is refused, and how the desk
reads its age.

A table calls once per reason until the desk answers, and not twice within a minute, so a
button pressed again (or a second phone at the table) never piles up calls on the desk's board.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

# (key, the button at the table, what the desk reads)
REASONS = (
    ("dispute", "A dispute", "a dispute"),
    ("rule", "A rule question", "a rule question"),
    ("tile", "A missing tile", "a missing tile"),
    ("done", "We are done", "done: collect the card"),
)
REASON_KEYS = tuple(key for key, _, _ in REASONS)
BUTTON = {key: button for key, button, _ in REASONS}
DESK_WORDS = {key: words for key, _, words in REASONS}
CALL_GAP = timedelta(seconds=60)


@dataclass(frozen=True)
class Call:
    reason: str
    called_at: datetime


def call_refusal(
    reason: str, open_calls: list[Call], last_call: datetime | None, now: datetime
) -> str:
    """Why the table may not call the desk for ``reason`` now ("" when it may). ``open_calls``:
    its calls the desk has not answered; ``last_call``: when it last called, answered or not."""
    if reason not in REASON_KEYS:
        return "Choose one of the buttons: a dispute, a rule question, a missing tile, or done."
    waiting = next((call for call in open_calls if call.reason == reason), None)
    if waiting is not None:
        return (
            f"The desk already has your call about {DESK_WORDS[reason].split(':')[0]} "
            f"({age_words(waiting.called_at, now)}). Someone will come to your table."
        )
    if last_call is not None and now - last_call < CALL_GAP:
        return "The desk was called less than a minute ago. Someone will come to your table."
    return ""


def age_words(called_at: datetime, now: datetime) -> str:
    """ "just now", "1 minute ago", "12 minutes ago", "1 hour 5 minutes ago"."""
    minutes = max(0, int((now - called_at).total_seconds() // 60))
    if minutes == 0:
        return "just now"
    hours, minutes = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if minutes or not hours:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    return " ".join(parts) + " ago"
