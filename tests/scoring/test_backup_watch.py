"""Backups on their own at the venue: when one is due, how many are kept, the second folder,
what the organiser's pages say, and the watcher beside a real venue server."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone
from live_server_tools import ROOT, free_port, server_database_url
from scoring_factories import T1, organiser_url, seated_day, typed

from scoring.backup_watch import (
    EVERY,
    KEEP,
    STALE,
    BackupWatch,
    Changes,
    backup_due,
    backup_warnings,
)
from scoring.models import Source
from scoring.services import close_day, submit_game
from tournaments.backups import BackupFile, backups_in, prune

NOON = datetime(2026, 6, 6, 12, 0, tzinfo=UTC)


def _changes(last=None, closed=None, first=None):
    return Changes(first or last, last, closed)


# When a backup is due -------------------------------------------------------------------------


def test_nothing_is_written_while_nothing_changed_however_long_ago_the_last_backup():
    newest = NOON - timedelta(hours=5)
    assert backup_due(newest, _changes(last=newest - timedelta(minutes=1)), NOON) is None
    assert backup_due(None, _changes(), NOON) is None  # an empty database
    assert backup_due(newest, _changes(last=newest), NOON, stopping=True) is None


def test_a_change_is_kept_fifteen_minutes_after_the_backup_before_it():
    newest = NOON - EVERY + timedelta(seconds=1)
    changed = _changes(last=NOON - timedelta(minutes=1))
    assert backup_due(newest, changed, NOON) is None
    assert backup_due(newest, changed, NOON + timedelta(seconds=1)) == "auto"
    assert backup_due(None, changed, NOON) == "auto"  # the first one at once


def test_a_days_close_and_a_stopping_server_are_kept_at_once():
    newest = NOON - timedelta(minutes=2)
    closed = _changes(last=NOON - timedelta(minutes=1), closed=NOON - timedelta(minutes=1))
    assert backup_due(newest, closed, NOON) == "day-close"
    earlier_close = _changes(last=NOON - timedelta(minutes=1), closed=newest - timedelta(hours=1))
    assert backup_due(newest, earlier_close, NOON) is None
    assert backup_due(newest, earlier_close, NOON, stopping=True) == "shutdown"


# What the organiser's pages say ---------------------------------------------------------------


def _file(taken_at, name="mexican-train-x-auto.sqlite3"):
    return BackupFile(Path("/backups") / name, taken_at, "auto")


def test_no_warning_while_the_backups_keep_up_or_nothing_changed():
    recent = _file(NOON - timedelta(minutes=10))
    assert backup_warnings(recent, _changes(last=NOON), NOON, None, set()) == []
    old = _file(NOON - timedelta(hours=3))
    lunch = _changes(last=old.taken_at - timedelta(minutes=5))
    assert backup_warnings(old, lunch, NOON, None, set()) == []
    assert backup_warnings(None, _changes(), NOON, None, set()) == []


def test_a_warning_when_changes_wait_longer_than_half_an_hour_for_a_backup():
    old = _file(NOON - STALE - timedelta(minutes=12))
    [warning] = backup_warnings(old, _changes(last=NOON - timedelta(minutes=1)), NOON, None, set())
    assert warning.startswith("The last backup was taken 42 minutes ago; scores have changed")
    assert "python manage.py backup" in warning
    first = _changes(last=NOON, first=NOON - timedelta(minutes=31))
    [warning] = backup_warnings(None, first, NOON, None, set())
    assert "No backup has been taken yet, and the first change was 31 minutes ago" in warning
    soon = _changes(last=NOON, first=NOON - timedelta(minutes=5))
    assert backup_warnings(None, soon, NOON, None, set()) == []


def test_a_missing_second_folder_and_a_backup_that_never_reached_it_are_said(tmp_path):
    newest = _file(NOON - timedelta(minutes=5))
    missing = tmp_path / "usb-stick"
    [warning] = backup_warnings(newest, _changes(last=NOON), NOON, missing, set())
    assert f"The second backup folder {missing} is missing" in warning
    missing.mkdir()
    [warning] = backup_warnings(newest, _changes(last=NOON), NOON, missing, set())
    assert f"The last backup was not copied to {missing}" in warning
    assert backup_warnings(newest, _changes(last=NOON), NOON, missing, {newest.path.name}) == []
    just_written = _file(NOON - timedelta(seconds=30))
    assert backup_warnings(just_written, _changes(last=NOON), NOON, missing, set()) == []


# The watch on a database ----------------------------------------------------------------------


def _scored_game(organiser):
    world = seated_day(organiser=organiser)
    submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, T1, out="Ann Lee"),
        0,
        source=Source.DESK,
        user=organiser,
    )
    return world


def _fake_backup(folder: Path, taken_at: datetime, reason: str | None = "auto") -> Path:
    stamp = timezone.localtime(taken_at).strftime("%Y%m%d-%H%M%S-%f")
    path = folder / f"mexican-train-{stamp}{f'-{reason}' if reason else ''}.sqlite3"
    path.write_bytes(b"old")
    return path


@pytest.mark.django_db(transaction=True)
def test_the_watch_writes_one_backup_per_change_and_copies_it(tmp_path, organiser):
    stick = tmp_path / "stick"
    stick.mkdir()
    watch = BackupWatch(tmp_path / "backups", stick)
    assert watch.check() is None  # nothing in the database yet
    _scored_game(organiser)
    written = watch.check()
    assert written is not None and written.name.endswith("-auto" + written.suffix)
    assert (stick / written.name).read_bytes() == written.read_bytes()
    assert oct(os.stat(stick / written.name).st_mode & 0o777) == "0o600"
    assert watch.check() is None  # nothing changed since
    assert watch.check(stopping=True) is None
    assert [b.path for b in backups_in(stick)] == [stick / written.name]
    assert not list(stick.glob(".*partial"))


@pytest.mark.django_db(transaction=True)
def test_closing_a_day_is_backed_up_at_once_and_holds_the_close(tmp_path, organiser):
    world = _scored_game(organiser)
    watch = BackupWatch(tmp_path)
    assert watch.check() is not None
    close_day(world.day, organiser)
    written = watch.check()
    assert written is not None and "-day-close." in written.name
    if connection.vendor == "sqlite":
        with sqlite3.connect(written) as copy:
            [closed] = copy.execute(
                "SELECT closed_at FROM tournaments_day WHERE id = ?", [world.day.pk]
            ).fetchone()
        assert closed is not None


def test_only_the_newest_twenty_automatic_backups_are_kept_and_none_taken_by_hand(tmp_path):
    kept_by_hand = _fake_backup(tmp_path, NOON - timedelta(days=3), reason=None)
    automatic = [_fake_backup(tmp_path, NOON - timedelta(minutes=15 * i)) for i in range(KEEP + 5)]
    (tmp_path / "notes.txt").write_text("the organiser's own file")
    removed = prune(tmp_path, KEEP)
    assert sorted(removed) == sorted(automatic[KEEP:])
    left = {p.name for p in tmp_path.iterdir()}
    assert left == {p.name for p in automatic[:KEEP]} | {kept_by_hand.name, "notes.txt"}


@pytest.mark.django_db(transaction=True)
def test_a_missing_stick_keeps_the_backup_on_the_laptop_and_the_page_says_so(
    tmp_path, client, settings, organiser
):
    world = _scored_game(organiser)
    settings.AUTO_BACKUPS = True
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_COPY_DIR = str(tmp_path / "stick")
    written = BackupWatch(settings.BACKUP_DIR, settings.BACKUP_COPY_DIR).check()
    assert written is not None and written.is_file()
    client.force_login(organiser)
    page = client.get(organiser_url(world.tournament)).content.decode()
    assert f"The second backup folder {tmp_path / 'stick'} is missing" in page


@pytest.mark.django_db(transaction=True)
def test_organiser_pages_warn_of_an_old_backup_and_public_pages_never(
    tmp_path, client, settings, organiser
):
    world = _scored_game(organiser)
    settings.AUTO_BACKUPS = True
    settings.BACKUP_DIR = tmp_path
    settings.BACKUP_COPY_DIR = ""
    _fake_backup(tmp_path, timezone.now() - timedelta(minutes=45))
    client.force_login(organiser)
    page = client.get(organiser_url(world.tournament)).content.decode()
    assert "The last backup was taken 45 minutes ago; scores have changed since" in page
    public = client.get(f"/{world.tournament.slug}/").content.decode()
    assert "backup" not in public.lower()
    settings.AUTO_BACKUPS = False  # a server whose backups are someone else's job
    page = client.get(organiser_url(world.tournament)).content.decode()
    assert "The last backup was taken" not in page


@pytest.mark.django_db(transaction=True)
def test_restore_lists_the_backups_newest_first_and_takes_one_by_its_number(
    tmp_path, capsys, settings, organiser
):
    _scored_game(organiser)
    settings.BACKUP_DIR = tmp_path
    first = BackupWatch(tmp_path).check()
    call_command("backup", str(tmp_path))
    by_hand = Path(capsys.readouterr().out.strip())
    call_command("restore")
    listing = capsys.readouterr().out
    assert listing.index(by_hand.name) < listing.index(first.name)
    assert "taken by hand" in listing and "scores changed" in listing
    call_command("restore", "2")
    assert f"Restored {first}" in capsys.readouterr().out


# Beside the real venue server -----------------------------------------------------------------


def _venue_env(tmp_path) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": server_database_url(),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_VENUE_MODE": "1",
        "DJANGO_SECRET_KEY": "x" * 50,
        "DJANGO_BASE_URL": "http://127.0.0.1:1",
        "DJANGO_PORT": str(free_port()),
        "VENUE_HOST": "127.0.0.1",
        "VENUE_WORKERS": "1",
        "DJANGO_BACKUP_DIR": str(tmp_path / "backups"),
        "PYTHONPATH": str(ROOT),
    }


def _wait_for(condition, seconds=30.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.django_db(transaction=True)
def test_the_venue_server_backs_up_at_start_and_keeps_the_last_save_when_stopped(
    tmp_path, organiser
):
    world = _scored_game(organiser)
    folder = tmp_path / "backups"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn_venue.py", "config.wsgi"],
        cwd=ROOT,
        env=_venue_env(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert _wait_for(lambda: len(backups_in(folder)) == 1), "no backup at start"
        submit_game(
            world.tables[0],
            world.games[2],
            typed(world, 2, T1, out="Ann Lee"),
            0,
            source=Source.DESK,
            user=organiser,
        )
        # Ctrl+C reaches the server's process group; the watch is in a group of its own.
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=60)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
    newest, start = backups_in(folder)
    assert start.reason == "auto" and newest.reason == "shutdown", server.stderr.read()
    if connection.vendor == "sqlite":
        with sqlite3.connect(newest.path) as copy:
            games = copy.execute("SELECT COUNT(*) FROM scoring_gamesheet").fetchone()[0]
        assert games == 2


@pytest.mark.django_db
def test_restore_refuses_a_number_not_in_the_list_and_changes_nothing(tmp_path, settings):
    settings.BACKUP_DIR = tmp_path
    settings.BACKUP_COPY_DIR = ""
    _fake_backup(tmp_path, NOON)
    before = list(Session.objects.values_list("pk", flat=True))
    with pytest.raises(CommandError, match="There is no backup number 2: the list has 1"):
        call_command("restore", "2")
    assert list(Session.objects.values_list("pk", flat=True)) == before
