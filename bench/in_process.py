"""The start and finish shared by the benchmarks that drive Django in this process (desk,
standings).

Importing this module sets Django up: with no DATABASE_URL the event goes in a throwaway SQLite
file; with DATABASE_URL set (PostgreSQL, say) :func:`run_bench` creates a throwaway test
database beside it and drops it at the end. Each target is recorded with :func:`record` and
printed as one PASS/FAIL line; any FAIL makes the exit status 1.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_tmp = None
if not os.environ.get("DATABASE_URL"):
    _tmp = tempfile.TemporaryDirectory(prefix="bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{_tmp.name}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

_results: list[tuple[str, bool, str]] = []


def record(name: str, ok: bool, detail: str) -> None:
    """One target's verdict, printed at the end."""
    _results.append((name, ok, detail))


def run_bench(run: Callable[[], None]) -> None:
    setup_test_environment(debug=False)
    test_db = None
    if _tmp is None:
        test_db = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    else:
        call_command("migrate", verbosity=0)
    try:
        run()
    finally:
        if test_db is not None:
            connection.creation.destroy_test_db(test_db, verbosity=0)
    print()
    for name, ok, detail in _results:
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}")
    if not all(ok for _, ok, _ in _results):
        sys.exit(1)
