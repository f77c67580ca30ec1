"""Consistent copies of the database while the server runs, and bringing one back."""
import datetime
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from django.db import connections


class BackupError(Exception):
    pass


def _database():
    return connections["default"].settings_dict


def _is_sqlite(db) -> bool:
    return db["ENGINE"] == "django.db.backends.sqlite3"


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
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise BackupError(f"{tool} failed: {result.stderr.strip()}")


def backup(directory: str | Path) -> Path:
    """Write a timestamped copy into directory and return its path.

    SQLite uses the online backup API, which copies a consistent snapshot even while
    scorekeepers are saving; PostgreSQL uses pg_dump, which reads inside one snapshot.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    db = _database()
    if _is_sqlite(db):
        target = directory / f"mexican-train-{stamp}.sqlite3"
        source = sqlite3.connect(str(db["NAME"]), timeout=20)
        try:
            destination = sqlite3.connect(str(target))
            try:
                source.backup(destination)
            finally:
                destination.close()
        finally:
            source.close()
        return target
    target = directory / f"mexican-train-{stamp}.pgdump"
    _run(["pg_dump", "-Fc", "--no-owner", "-f", str(target), *_pg_args(db), str(db["NAME"])],
         _pg_env(db))
    return target


def restore(path: str | Path) -> None:
    """Replace the whole database with the backup at path."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"There is no backup file at {path}.")
    db = _database()
    connections.close_all()
    if _is_sqlite(db):
        if path.suffix != ".sqlite3":
            raise BackupError(f"{path.name} is not a SQLite backup (.sqlite3).")
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if source.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise BackupError(f"{path.name} is damaged; choose another backup.")
            destination = sqlite3.connect(str(db["NAME"]), timeout=20)
            try:
                source.backup(destination)
            finally:
                destination.close()
        finally:
            source.close()
        return
    if path.suffix != ".pgdump":
        raise BackupError(f"{path.name} is not a PostgreSQL backup (.pgdump).")
    _run(["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction",
          *_pg_args(db), "-d", str(db["NAME"]), str(path)], _pg_env(db))
