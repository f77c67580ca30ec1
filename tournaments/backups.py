"""Consistent copies of the database while the server runs, and bringing one back."""

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from django.contrib.sessions.models import Session
from django.db import connections
from django.utils import timezone


class BackupError(Exception):
    pass


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


def backup(directory: str | Path) -> Path:
    """Write a timestamped copy into directory and return its path.

    SQLite uses the online backup API, which copies a consistent snapshot even while
    scorekeepers are saving; PostgreSQL uses pg_dump, which reads inside one snapshot.
    """
    directory = Path(directory)
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M%S-%f")
    db = _database()
    if _is_sqlite():
        target = directory / f"mexican-train-{stamp}.sqlite3"
        _private_file(target)
        _sqlite_copy(Path(db["NAME"]).resolve().as_uri(), str(target))
        return target
    target = directory / f"mexican-train-{stamp}.pgdump"
    _private_file(target)
    _run(
        ["pg_dump", "-Fc", "--no-owner", "-f", str(target), *_pg_args(db), str(db["NAME"])],
        _pg_env(db),
    )
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
