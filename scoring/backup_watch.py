"""Backups on their own at the venue: every 15 minutes while scores change, when a day is
closed and when the server stops; the newest 20 of them kept, each also copied to a second
folder (a USB stick) when one is set; and what the organiser's pages say when that is not
happening.

`make venue` starts ``manage.py backup_watch`` beside the server (config/gunicorn_venue.py).
It is a process of its own, not a thread of the server, so that a backup never waits for a
worker and a worker never waits for a backup; it holds no database connection between checks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.db.models import Max, Min
from django.utils import timezone

from scoring.models import AuditEvent, UnplayedChange
from tournaments.backups import BackupError, BackupFile, backup, backups_in, copy_backup, prune
from tournaments.models import Day

logger = logging.getLogger(__name__)

EVERY = timedelta(minutes=15)
KEEP = 20
# Older than this, with scores changed since, and the organiser's pages say so.
STALE = timedelta(minutes=30)
# A backup this new may still be on its way to the second folder.
COPY_GRACE = timedelta(minutes=2)


@dataclass(frozen=True)
class Changes:
    """When the database first and last changed in a way a backup must keep, and when a day
    last closed."""

    first_change: datetime | None
    last_change: datetime | None
    last_close: datetime | None


def read_changes() -> Changes:
    """Three queries: the newest change to a score (every save, confirmation, correction and
    "wrong" leaves an AuditEvent), to a "not played" mark, and to a day's seating or closing."""
    scores = AuditEvent.objects.aggregate(first=Min("at"), last=Max("at"))
    unplayed = UnplayedChange.objects.aggregate(first=Min("at"), last=Max("at"))
    days = Day.objects.aggregate(
        first=Min("seated_at"), seated=Max("seated_at"), closed=Max("closed_at")
    )
    firsts = [m for m in (scores["first"], unplayed["first"], days["first"]) if m is not None]
    lasts = [m for m in (scores["last"], unplayed["last"], days["seated"], days["closed"]) if m]
    return Changes(min(firsts, default=None), max(lasts, default=None), days["closed"])


def backup_due(
    newest: datetime | None, changes: Changes, now: datetime, *, stopping: bool = False
) -> str | None:
    """Why a backup should be written now (a reason of tournaments.backups), or None.

    Nothing is written while nothing changed since the newest backup, whatever the clock says:
    twenty copies of a lunch break would push out the morning's. A day's close is kept at once;
    other changes at most ``EVERY`` after the backup before them, and when the server stops."""
    if changes.last_change is None or (newest is not None and changes.last_change <= newest):
        return None
    if stopping:
        return "shutdown"
    if changes.last_close is not None and (newest is None or changes.last_close > newest):
        return "day-close"
    if newest is None or now - newest >= EVERY:
        return "auto"
    return None


class BackupWatch:
    """One check at a time: write a backup when one is due, copy it, keep the newest ``KEEP``."""

    def __init__(self, folder: str | Path, copy_folder: str | Path | None = None):
        self.folder = Path(folder)
        self.copy_folder = Path(copy_folder) if copy_folder else None

    def check(self, *, stopping: bool = False) -> Path | None:
        """Write a backup if one is due and return its path; None when none was due. A failed
        copy to the second folder is logged (the organiser's pages show it), not raised: the
        backup on the laptop is still good."""
        try:
            newest = next(iter(backups_in(self.folder)), None)
            reason = backup_due(
                newest.taken_at if newest else None,
                read_changes(),
                timezone.now(),
                stopping=stopping,
            )
            if reason is None:
                return None
            written = backup(self.folder, reason)
        finally:
            # No connection kept open between checks: on SQLite an idle one would still pin the
            # WAL file, and on PostgreSQL it would hold a server slot all day.
            connections.close_all()
        logger.info("Backup written (%s): %s", reason, written)
        prune(self.folder, KEEP)
        self._copy(written)
        return written

    def _copy(self, written: Path) -> None:
        if self.copy_folder is None:
            return
        try:
            copy_backup(written, self.copy_folder)
        except BackupError as error:
            logger.warning("%s The backup stays in %s only.", error, self.folder)
            return
        prune(self.copy_folder, KEEP)


def _ago(moment: datetime, now: datetime) -> str:
    minutes = int((now - moment).total_seconds() // 60)
    if minutes < 120:
        return f"{minutes} minute{'s' if minutes != 1 else ''} ago"
    return f"{minutes // 60} hours ago"


def _unkept_since(newest: BackupFile | None, changes: Changes) -> datetime | None:
    """Since when there are changes no backup holds, or None when the newest backup holds all."""
    if newest is None:
        return changes.first_change
    if changes.last_change is not None and changes.last_change > newest.taken_at:
        return newest.taken_at
    return None


def backup_warnings(
    newest: BackupFile | None,
    changes: Changes,
    now: datetime,
    copy_folder: Path | None,
    copied: set[str],
) -> list[str]:
    """What the organiser should know about the backups, in plain words ([] when all is well):
    scores changed and the newest backup is older than ``STALE`` (or there is none); the second
    folder is missing; the newest backup never reached it. ``copied`` holds the file names of
    the backups in the second folder."""
    warnings = []
    since = _unkept_since(newest, changes)
    if since is not None and now - since > STALE:
        taken = (
            f"The last backup was taken {_ago(since, now)}"
            if newest is not None
            else f"No backup has been taken yet, and the first change was {_ago(since, now)}"
        )
        warnings.append(
            f"{taken}; scores have changed since. Automatic backups run with make venue; take "
            "one by hand with: python manage.py backup"
        )
    if copy_folder is not None and not copy_folder.is_dir():
        warnings.append(
            f"The second backup folder {copy_folder} is missing: plug the USB stick in (or make "
            "that folder on it). Backups are kept on this laptop only until then."
        )
    elif (
        copy_folder is not None
        and newest is not None
        and now - newest.taken_at > COPY_GRACE
        and newest.path.name not in copied
    ):
        warnings.append(
            f"The last backup was not copied to {copy_folder}: is the USB stick full or "
            "read-only? It is kept on this laptop only."
        )
    return warnings


def current_warnings() -> list[str]:
    """The warnings for the backups as configured, [] when automatic backups are off."""
    if not settings.AUTO_BACKUPS:
        return []
    copy_folder = Path(settings.BACKUP_COPY_DIR) if settings.BACKUP_COPY_DIR else None
    copied = {b.path.name for b in backups_in(copy_folder)} if copy_folder else set()
    newest = next(iter(backups_in(settings.BACKUP_DIR)), None)
    return backup_warnings(newest, read_changes(), timezone.now(), copy_folder, copied)
