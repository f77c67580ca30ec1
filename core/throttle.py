"""Count attempts per client in the shared "throttles" cache and refuse once there were too many.

That cache keeps its counts in files, so every server process adds to the same count. The one
place for throttling: logins per address (core/login.py) and wrong table codes use it alike.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from django.core.cache import caches

from core.client_address import client_address


def _now() -> float:
    return time.time()


@dataclass(frozen=True)
class Throttle:
    name: str  # keeps one throttle's counters apart from another's
    limit: int  # this many in a window, then a wait
    window_seconds: int

    def _key(self, client: str | None) -> str:
        return f"throttle:{self.name}:{client or 'unknown'}"

    def count(self, client: str | None) -> int:
        return int(caches["throttles"].get(self._key(client), 0))

    def blocked(self, client: str | None) -> bool:
        return self.count(client) >= self.limit

    def hit(self, client: str | None) -> int:
        """Count one attempt and return the count so far. The window starts at the first
        attempt and is not extended."""
        cache = caches["throttles"]
        key = self._key(client)
        if self._start_window(key):
            return 1
        try:
            return int(cache.incr(key))
        except ValueError:  # the window ran out between add() and incr(): start a new one
            self._start_window(key)
            return 1

    def _start_window(self, key: str) -> bool:
        """Start a window at 1 unless one is running; its end is kept beside it, so the wait
        can be told in the time left rather than the window's whole length."""
        cache = caches["throttles"]
        if not cache.add(key, 1, timeout=self.window_seconds):
            return False
        cache.set(f"{key}:ends", _now() + self.window_seconds, timeout=self.window_seconds)
        return True

    def seconds_left(self, client: str | None) -> int:
        """Seconds until this client's window ends (0 when none is running)."""
        ends = caches["throttles"].get(f"{self._key(client)}:ends")
        if ends is None:
            return 0 if self.count(client) == 0 else self.window_seconds
        return max(0, math.ceil(float(ends) - _now()))

    def wait_words(self, client: str | None) -> str:
        """The wait left, in whole minutes rounded up: "4 minutes", "1 minute"."""
        minutes = max(1, math.ceil(self.seconds_left(client) / 60))
        return f"{minutes} minute" if minutes == 1 else f"{minutes} minutes"


__all__ = ["Throttle", "client_address"]
