"""The figures bench/entry_load.py prints for one server's round: what the clients saw, what the
database holds and where a request's time went."""

from __future__ import annotations

import os
import statistics
from typing import TYPE_CHECKING

from bench.http_load import percentile

if TYPE_CHECKING:
    from bench.entry_load import _Event, _Load, _ServerLog, _StandingsCheck, _Stored


def print_report(
    event: _Event, load: _Load, server: _ServerLog, stored: _Stored, check: _StandingsCheck
) -> None:
    log = load.log
    expected = len(event.tables) * event.games
    ms = log.score_post_ms
    p50 = statistics.median(ms) if ms else float("nan")
    p95 = percentile(ms, 0.95) if ms else float("nan")
    print(
        f"load: phones done in {load.phones_seconds:.1f} s, desks done in "
        f"{load.all_seconds:.1f} s ({log.requests / load.all_seconds:.0f} requests/s); CPU "
        f"used: server {load.server_cpu:.1f} s (gunicorn and its workers, start-up included), "
        f"these clients {load.client_cpu:.1f} s, on {os.cpu_count()} CPUs"
    )
    print(f"requests:            {log.requests}")
    print(
        f"errors:              {len(log.errors)}"
        + (f" (server tracebacks: {server.tracebacks})" if server.tracebacks else "")
    )
    for line in log.errors[:10]:
        print(f"  - {line}")
    print(f"games expected:      {expected} ({len(event.tables)} tables x {event.games})")
    print(f"games submitted:     {len(log.submitted)} (POST answered with the redirect)")
    print(
        f"live sheets stored:  {stored.stored} ({stored.confirmed} confirmed; "
        f"desk confirmed {len(log.confirmed)})"
    )
    print(f"duplicates:          {stored.duplicates}")
    lost = stored.lost
    print(f"lost games:          {len(lost)}" + (f" e.g. {lost[:5]}" if lost else ""))
    print(f"unexpected sheets:   {len(stored.unexpected)}")
    print(
        f"score POSTs:         {len(ms)}, p50 {p50:.0f} ms, p95 {p95:.0f} ms, "
        f"max {max(ms or [0]):.0f} ms"
    )
    print_server_times(server)
    print(
        f"standings:           {len(check.table.rows)} rows, {len(check.mismatched)} differ "
        f"from the recomputation; status: {check.table.status_line}"
    )


def print_server_times(server: _ServerLog) -> None:
    """Each kind of request's time inside a worker and, of that, inside the app: the rest of the
    time a phone waits is for a free worker (sync) or a free app slot (venue)."""
    for kind, times in sorted(server.in_worker.items()):
        in_app = server.in_app.get(kind) or [float("nan")]
        print(
            f"  in a worker, {kind + ':':<13} {len(times):>4} requests, mean "
            f"{statistics.mean(times):.0f} ms, p95 {percentile(times, 0.95):.0f} ms, "
            f"{sum(times) / 1000:.1f} s in all; in the app mean {statistics.mean(in_app):.0f} ms"
        )
