"""Count attempts per client in the database and refuse once there were too many.

Each throttle's count for a client is one row (core.models.ThrottleCount) holding the count and
the end of its window: every server process adds to the same row, each add under the row's lock
(PostgreSQL) or the database's one writer (SQLite), so parallel requests lose no count; the
window ends when it was set to, however many attempts arrive in it; only rows whose window has
ended are ever deleted. The one place for throttling: logins per address (core/login.py) and
wrong table codes use it alike.
"""

from __future__ import annotations

import ipaddress
import math
import time
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from core.client_address import client_address
from core.models import ThrottleCount


def _now() -> float:
    return time.time()


def client_key(client: str | None) -> str:
    """The client a count belongs to: an IPv6 address by its /64 (one household or phone is
    given a whole /64 and can pick any address in it), an IPv4 one as it is."""
    if not client:
        return "unknown"
    try:
        address = ipaddress.ip_address(client)
    except ValueError:
        return client
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


@dataclass(frozen=True)
class Throttle:
    name: str  # keeps one throttle's counters apart from another's
    limit: int  # this many in a window, then a wait
    window_seconds: int

    def _key(self, client: str | None) -> str:
        return f"{self.name}:{client_key(client)}"

    def _live_row(self, client: str | None) -> ThrottleCount | None:
        row = ThrottleCount.objects.filter(key=self._key(client)).first()
        return row if row is not None and row.ends_at > _now() else None

    def count(self, client: str | None) -> int:
        row = self._live_row(client)
        return row.count if row is not None else 0

    def blocked(self, client: str | None) -> bool:
        return self.count(client) >= self.limit

    def hit(self, client: str | None) -> int:
        """Count one attempt and return the count so far. The window starts at the first
        attempt and is not extended."""
        return self._add(client, 1)[1]

    def take(self, client: str | None) -> bool:
        """Count one attempt if the client is under the limit, and say whether it was: a check
        that has to be paid for before it is made (a table code), so that requests in parallel
        get no more checks than the limit between them."""
        before, after = self._add(client, 1, cap=self.limit)
        return after > before

    def give_back(self, client: str | None) -> None:
        """Take back an attempt counted by ``take`` that turned out not to count (the code was
        right)."""
        self._add(client, -1)

    def _add(self, client: str | None, amount: int, cap: int | None = None) -> tuple[int, int]:
        """Add ``amount`` to this client's count under its row's lock, unless the count has
        reached ``cap``; the count before and after."""
        now = _now()
        with transaction.atomic():
            row = self._locked_row(self._key(client), now)
            before = row.count
            if cap is None or before < cap:
                row.count = max(0, before + amount)
                row.save(update_fields=["count", "ends_at"])
            return before, row.count

    def _locked_row(self, key: str, now: float) -> ThrottleCount:
        """The key's row, locked for this transaction, its window started anew if it ended."""
        row = ThrottleCount.objects.select_for_update().filter(key=key).first()
        if row is None:
            try:
                with transaction.atomic():
                    return ThrottleCount.objects.create(
                        key=key, count=0, ends_at=now + self.window_seconds
                    )
            except IntegrityError:  # another request started it first: count in its row
                row = ThrottleCount.objects.select_for_update().get(key=key)
            finally:
                ThrottleCount.objects.filter(ends_at__lte=now).delete()  # ended windows only
        if row.ends_at <= now:
            row.count, row.ends_at = 0, now + self.window_seconds
        return row

    def seconds_left(self, client: str | None) -> int:
        """Seconds until this client's window ends (0 when none is running)."""
        row = self._live_row(client)
        return 0 if row is None else max(0, math.ceil(row.ends_at - _now()))

    def wait_words(self, client: str | None) -> str:
        """The wait left, in whole minutes rounded up: "4 minutes", "1 minute"."""
        minutes = max(1, math.ceil(self.seconds_left(client) / 60))
        return f"{minutes} minute" if minutes == 1 else f"{minutes} minutes"


__all__ = ["Throttle", "client_address", "client_key"]
