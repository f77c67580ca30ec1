"""Expired sessions are deleted while the server runs, at most once an interval per process."""

import datetime

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from core import session_sweep

pytestmark = pytest.mark.django_db


def _session(key: str, expires_in_hours: float) -> None:
    Session.objects.create(
        session_key=key,
        session_data="e30:",
        expire_date=timezone.now() + datetime.timedelta(hours=expires_in_hours),
    )


def test_a_request_deletes_expired_sessions_and_keeps_live_ones(settings, monkeypatch):
    settings.SESSION_SWEEP_SECONDS = 3600
    clock = [1000.0]
    monkeypatch.setattr(session_sweep.time, "monotonic", lambda: clock[0])
    middleware = session_sweep.ExpiredSessionSweepMiddleware(lambda request: "answered")
    _session("old" * 10, -1)
    _session("live" * 8, 5)
    assert middleware(None) == "answered"
    assert list(Session.objects.values_list("session_key", flat=True)) == ["live" * 8]

    _session("older" * 6, -2)
    clock[0] += 1800  # half an interval: not yet
    middleware(None)
    assert Session.objects.count() == 2
    clock[0] += 1801
    middleware(None)
    assert list(Session.objects.values_list("session_key", flat=True)) == ["live" * 8]


def test_the_sweep_runs_in_the_apps_own_middleware(settings):
    settings.SESSION_SWEEP_SECONDS = 3600
    _session("gone" * 8, -1)
    Client().get("/")  # a fresh process's first request (the app's middleware is built anew)
    assert not Session.objects.filter(session_key="gone" * 8).exists()


def test_off_when_set_to_zero(settings):
    settings.SESSION_SWEEP_SECONDS = 0
    _session("kept" * 8, -1)
    session_sweep.ExpiredSessionSweepMiddleware(lambda request: None)(None)
    assert Session.objects.filter(session_key="kept" * 8).exists()
