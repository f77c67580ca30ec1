"""Count attempts per client in the shared "throttles" cache and refuse once there were too many.

That cache keeps its counts in files, so every server process adds to the same count. The one
place for throttling: logins per address (core/login.py) and wrong table codes use it alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import caches

from core.client_address import client_address


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
        if cache.add(key, 1, timeout=self.window_seconds):
            return 1
        try:
            return int(cache.incr(key))
        except ValueError:  # the window ran out between add() and incr(): start a new one
            cache.add(key, 1, timeout=self.window_seconds)
            return 1

    def wait_minutes(self) -> int:
        return max(1, self.window_seconds // 60)


__all__ = ["Throttle", "client_address"]
