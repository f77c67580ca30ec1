"""Count failures per client in Django's cache and refuse once there were too many.

The cache is shared by every worker when it is a file or database cache (venue mode uses a
file cache); with the default in-memory cache each worker process counts on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache


@dataclass(frozen=True)
class Throttle:
    name: str  # keeps one throttle's counters apart from another's
    limit: int  # this many failures in a window, then a wait
    window_seconds: int

    def _key(self, client: str) -> str:
        return f"throttle:{self.name}:{client}"

    def blocked(self, client: str) -> bool:
        return int(cache.get(self._key(client), 0)) >= self.limit

    def failed(self, client: str) -> None:
        """Count one failure. The window starts at the first failure and is not extended."""
        key = self._key(client)
        if cache.add(key, 1, timeout=self.window_seconds):
            return
        try:
            cache.incr(key)
        except ValueError:  # the window ran out between add() and incr(): start a new one
            cache.add(key, 1, timeout=self.window_seconds)

    def wait_minutes(self) -> int:
        return max(1, self.window_seconds // 60)


def client_address(request) -> str:
    """The phone's address as the server sees it (the venue has no proxy in front)."""
    return request.META.get("REMOTE_ADDR", "") or "unknown"
