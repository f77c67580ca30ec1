"""Consistent copies of the database while the server runs, and bringing one back."""

import os
import re
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.contrib.sessions.models import Session
from django.db import connections
from django.utils import timezone


class BackupError(Exception):
    pass


# Why a backup was written, as its file name ends; a backup taken by hand has no ending.
AUTOMATIC_REASONS = {
    "auto": "scores changed (every 15 minutes)",
    "day-close": "a day was closed",
    "shutdown": "the server stopped",
}
_NAME = re.compile(
    r"^mexican-train-(?P<stamp>\d{8}-\d{6}-\d{6})(?:-(?P<reason>[a-z-]+))?\.(?:sqlite3|pgdump)$"
)
_STAMP = "%Y%m%d-%H%M%S-%f"


@dataclass(frozen=True)
class BackupFile:
    path: Path
    taken_at: datetime
    reason: str | None  # one of AUTOMATIC_REASONS, or None for a backup taken by hand

    @property
    def automatic(self) -> bool:
        return self.reason is not None

    @property
    def why(self) -> str:
        return AUTOMATIC_REASONS.get(self.reason or "", "taken by hand")


def backup_file(path: Path) -> BackupFile | None:
    """The backup a file name describes, or None for any other file (a half-written copy, a
    note, a file of another program)."""
    match = _NAME.match(path.name)
    if match is None or (match["reason"] and match["reason"] not in AUTOMATIC_REASONS):
        return None
    # The stamp is local time, as the organiser reads it in the file list.
    taken_at = timezone.make_aware(datetime.strptime(match["stamp"], _STAMP))  # noqa: DTZ007
    return BackupFile(path, taken_at, match["reason"])


def backups_in(directory: str | Path) -> list[BackupFile]:
    """The backups in a folder, newest first; none when the folder is missing."""
    try:
        entries = list(os.scandir(directory))
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = [backup_file(Path(entry.path)) for entry in entries if entry.is_file()]
    return sorted((b for b in found if b is not None), key=lambda b: b.taken_at, reverse=True)


def prune(directory: str | Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` automatic backups in a folder, and return what was
    deleted. Backups taken by hand are never deleted: someone chose to keep them."""
    automatic = [b for b in backups_in(directory) if b.automatic]
    removed = []
    for old in automatic[keep:]:
        old.path.unlink(missing_ok=True)
        removed.append(old.path)
    return removed


def copy_backup(source: Path, directory: str | Path) -> Path:
    """Copy a backup into another folder that must already exist (a USB stick's folder: one
    made here when the stick is not plugged in would be on the laptop's own disk, a copy that
    looks safe and is not). Written under a temporary name and renamed, so a stick pulled out
    mid-copy never leaves a file that looks like a whole backup."""
    directory = Path(directory)
    if not directory.is_dir():
        raise BackupError(f"The second backup folder {directory} is missing.")
    target = directory / source.name
    partial = directory / f".{source.name}.partial"
    partial.unlink(missing_ok=True)
    _private_file(partial)
    try:
        with source.open("rb") as reading, partial.open("wb") as writing:
            shutil.copyfileobj(reading, writing, 1024 * 1024)
            writing.flush()
            os.fsync(writing.fileno())
        os.replace(partial, target)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"Copying to {directory} failed: {error.strerror or error}") from error
    return target


def _database():
    return connections["default"].settings_dict


def _is_sqlite() -> bool:
    return connections["default"].vendor == "sqlite"


def _pg_env(db) -> dict:
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return env


def _pg_args(db) -> list[str]:
    args = []
    if db.get("HOST"):
        args += ["-h", str(db["HOST"])]
    if db.get("PORT"):
        args += ["-p", str(db["PORT"])]
    if db.get("USER"):
        args += ["-U", str(db["USER"])]
    return args


def _run(command: list[str], env: dict) -> None:
    tool = command[0]
    if shutil.which(tool) is None:
        raise BackupError(f"{tool} is not installed; install the PostgreSQL client tools.")
    # The command is pg_dump or psql with the settings' own database, no user input.
    result = subprocess.run(command, env=env, capture_output=True, text=True)  # noqa: S603
    if result.returncode != 0:
        raise BackupError(f"{tool} failed: {result.stderr.strip()}")


def _sqlite_copy(source_uri: str, destination_path: str, *, check_integrity: bool = False) -> None:
    """Copy one SQLite database into another with the online backup API, page by page under
    SQLite's own locking, so writers on either side never see a half-copied file."""
    source = sqlite3.connect(source_uri, uri=True, timeout=20)
    try:
        if check_integrity and _integrity(source) != "ok":
            raise BackupError("That backup file is damaged; choose another one.")
        destination = sqlite3.connect(destination_path, timeout=20)
        try:
            source.backup(destination)
        finally:
            destination.close()
    finally:
        source.close()


def _integrity(connection: sqlite3.Connection) -> str:
    try:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.DatabaseError as error:  # "file is not a database"
        return str(error)


def _private_file(path: Path) -> None:
    """Create ``path`` empty, readable and writable by its owner only.

    A backup holds every login's password hash and the live sessions: read from the file, a
    session key opens the organiser's pages. Created private before a byte is written, so no
    other account on the laptop can read it even while it is being written; the copy and
    pg_dump then write into this file and keep its mode.
    """
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def backup(directory: str | Path, reason: str | None = None) -> Path:
    """Write a timestamped copy into directory and return its path; ``reason`` (one of
    AUTOMATIC_REASONS) marks a backup the app took on its own.

    SQLite uses the online backup API, which copies a consistent snapshot even while
    scorekeepers are saving; PostgreSQL uses pg_dump, which reads inside one snapshot. The copy
    is written under a temporary name and renamed when whole: a laptop that dies mid-backup
    leaves no file that looks like one.
    """
    if reason is not None and reason not in AUTOMATIC_REASONS:
        raise BackupError(f"Unknown backup reason {reason!r}.")
    directory = Path(directory)
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    stamp = timezone.localtime().strftime(_STAMP)
    db = _database()
    suffix = ".sqlite3" if _is_sqlite() else ".pgdump"
    target = directory / f"mexican-train-{stamp}{f'-{reason}' if reason else ''}{suffix}"
    partial = directory / f".{target.name}.partial"
    _private_file(partial)
    try:
        if _is_sqlite():
            _sqlite_copy(Path(db["NAME"]).resolve().as_uri(), str(partial))
        else:
            _run(
                [
                    "pg_dump",
                    "-Fc",
                    "--no-owner",
                    "-f",
                    str(partial),
                    *_pg_args(db),
                    str(db["NAME"]),
                ],
                _pg_env(db),
            )
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def restore(path: str | Path) -> None:
    """Replace the whole database with the backup at path, and log everyone out.

    The sessions in a backup are the ones live when it was written: whoever holds a copy of the
    file could read them and come back in as that organiser. None of them survives a restore;
    everyone logs in again.
    """
    _replace_database(Path(path))
    _clear_sessions()


def _clear_sessions() -> None:
    Session.objects.all().delete()


def _replace_database(path: Path) -> None:
    if not path.is_file():
        raise BackupError(f"There is no backup file at {path}.")
    db = _database()
    connections.close_all()
    if _is_sqlite():
        if path.suffix != ".sqlite3":
            raise BackupError(f"{path.name} is not a SQLite backup (.sqlite3).")
        _sqlite_copy(f"{path.resolve().as_uri()}?mode=ro", str(db["NAME"]), check_integrity=True)
        return
    if path.suffix != ".pgdump":
        raise BackupError(f"{path.name} is not a PostgreSQL backup (.pgdump).")
    _run(
        [
            "pg_restore",
            "--clean",
            "--if-exists",
            "--no-owner",
            "--single-transaction",
            *_pg_args(db),
            "-d",
            str(db["NAME"]),
            str(path),
        ],
        _pg_env(db),
    )
