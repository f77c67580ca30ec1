"""Django's SQLite backend, with writers queued on a file lock beside the database.

A SQLite writer that finds the database locked polls, sleeping longer and longer between tries.
In a rush of score saves a writer often sleeps on long after the lock is free, and an unlucky
one keeps losing the race to newcomers (bench/entry_load.py measures it). So each transaction
first takes an exclusive flock on "<database>.writers";
a waiter tries again every millisecond, so it starts about as soon as the lock is released. The
threads of one process (the venue's threaded workers) line up on a lock of the process first, so
only one of them at a time polls.
SQLite's own lock and timeout still guard everything that does not come through here (another
program, a plain autocommit write). A writer gives up queueing after the database's timeout
(OPTIONS["timeout"]) and goes on to SQLite's lock, so a transaction left open somewhere ends in
SQLite's usual "database is locked" rather than a wait without end.
"""

import contextlib
import os
import threading
import time
from typing import BinaryIO

from django.db.backends.sqlite3 import base, creation

try:
    import fcntl
except ImportError:  # Windows: no flock, so SQLite's own waiting only
    HAS_FLOCK = False
else:
    HAS_FLOCK = True


QUEUE_POLL_SECONDS = 0.001

# The threads of one process (the venue's threaded workers) queue here first, blocked without
# polling, so only one of them at a time polls the file lock: dozens of threads waking every
# millisecond would take the CPU from the one that holds the lock.
_PROCESS_WRITERS = threading.Lock()


def queue_path(database_name: str) -> str:
    return f"{database_name}.writers"


def keep_private(database_name: str) -> None:
    """The database file readable by its owner only: it holds every login's password hash and
    the live sessions (a session key read from the file opens the organiser's pages). SQLite
    gives its -wal and -shm files the database file's mode, so they follow. A file another
    account owns is left as it is (chmod would be refused anyway)."""
    with contextlib.suppress(OSError):
        if os.stat(database_name).st_mode & 0o077:
            os.chmod(database_name, 0o600)


# The hooks overridden here are Django's private ones (the backends' own extension points),
# which django-stubs leaves out: that is why each call to the original is ignored ([misc]).


class DatabaseCreation(creation.DatabaseCreation):
    def _destroy_test_db(self, test_database_name, verbosity):
        super()._destroy_test_db(test_database_name, verbosity)  # type: ignore[misc]
        if test_database_name and not self.is_in_memory_db(test_database_name):
            with contextlib.suppress(FileNotFoundError):
                os.remove(queue_path(test_database_name))


class DatabaseWrapper(base.DatabaseWrapper):
    creation_class = DatabaseCreation
    _queue_file: BinaryIO | None = None
    _queued = False

    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        if not self.is_in_memory_db():
            keep_private(self.settings_dict["NAME"])
        return connection

    def _join_writer_queue(self) -> None:
        if not HAS_FLOCK or self.is_in_memory_db():
            return
        if self._queue_file is None:
            # Held open for the connection's life (closed in _close), so no `with` block.
            queue = os.open(queue_path(self.settings_dict["NAME"]), os.O_RDWR | os.O_CREAT, 0o600)
            self._queue_file = os.fdopen(queue, "a+b")
        timeout = self.settings_dict["OPTIONS"].get("timeout", 5)
        give_up = time.monotonic() + timeout
        if not _PROCESS_WRITERS.acquire(timeout=timeout):
            return  # not queued: SQLite's own lock and timeout decide
        while True:
            try:
                fcntl.flock(self._queue_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() >= give_up:
                    _PROCESS_WRITERS.release()
                    return
                time.sleep(QUEUE_POLL_SECONDS)
            else:
                self._queued = True
                return

    def _leave_writer_queue(self) -> None:
        if self._queued and self._queue_file is not None:
            self._queued = False
            fcntl.flock(self._queue_file, fcntl.LOCK_UN)
            _PROCESS_WRITERS.release()

    def _start_transaction_under_autocommit(self):
        self._join_writer_queue()
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._leave_writer_queue()
            raise

    def _commit(self):
        try:
            return super()._commit()  # type: ignore[misc]
        finally:
            self._leave_writer_queue()

    def _rollback(self):
        try:
            return super()._rollback()  # type: ignore[misc]
        finally:
            self._leave_writer_queue()

    def _close(self):
        try:
            return super()._close()  # type: ignore[misc]
        finally:
            self._leave_writer_queue()
            if self._queue_file is not None:
                self._queue_file.close()
                self._queue_file = None
