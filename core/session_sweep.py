"""Expired sessions deleted while the server runs, not only when it starts.

A refused table save keeps the phone's numbers in its session, so that the page can show them
again; those sessions expire after a few hours (scoring.views_entry TABLE_SESSION_SECONDS), but an
expired row stays in the database until someone deletes it, and a server that runs all week
(or a flood of refused saves) would keep them all. Each server process deletes the expired
ones at most once every SESSION_SWEEP_SECONDS, after answering a request, so no separate job
has to be set up on the laptop.
"""

from __future__ import annotations

import logging
import threading
import time
from importlib import import_module

from django.conf import settings
from django.db import DatabaseError

logger = logging.getLogger(__name__)


class ExpiredSessionSweepMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self._lock = threading.Lock()
        self._next_sweep = 0.0  # the first request of a process sweeps

    def __call__(self, request):
        response = self.get_response(request)
        every = settings.SESSION_SWEEP_SECONDS
        if every and time.monotonic() >= self._next_sweep and self._lock.acquire(blocking=False):
            try:
                self._next_sweep = time.monotonic() + every
                sweep_expired_sessions()
            finally:
                self._lock.release()
        return response


def sweep_expired_sessions() -> None:
    try:
        import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()
    except DatabaseError:  # busy: the next sweep deletes them
        logger.warning("Expired sessions were not deleted this time", exc_info=True)
