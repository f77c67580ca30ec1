"""Two people save the same game at the same moment: exactly one wins, the other is told.

Real threads, each with its own database connection, released together by a barrier. Runs on
whichever database the suite runs on (SQLite file with IMMEDIATE transactions, or PostgreSQL
with row locks); CI runs both.
"""
import threading
import time

import pytest
from django.db import connection

from scoring import services
from scoring.models import GameSheet, SheetState, Source
from tournaments.models import StaffRole

from scoring_factories import T1, seated_day, staff, typed

pytestmark = pytest.mark.django_db(transaction=True)


def run_together(*jobs):
    """Run each job in its own thread, all released at once; return what each returned or raised."""
    barrier = threading.Barrier(len(jobs))
    results = [None] * len(jobs)

    def worker(index, job):
        try:
            barrier.wait(timeout=10)
            results[index] = ("ok", job())
        except Exception as error:  # the test inspects what each thread got
            results[index] = ("error", error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a save hung"
    return results


@pytest.fixture
def slow_lock(monkeypatch):
    """Hold the table lock a moment, so the two saves surely overlap."""
    original = services._lock_tables

    def held(tables):
        locked = original(tables)
        time.sleep(0.3)
        return locked

    monkeypatch.setattr(services, "_lock_tables", held)


def test_two_new_saves_of_one_game_at_once(slow_lock):
    w = seated_day()
    desk = staff(w.tournament, "desk1")
    table, game = w.tables[0], w.games[1]

    def from_phone():
        return services.submit_game(table, game, typed(w, 1, T1, out="Ann Lee"), 0,
                                    source=Source.TABLE_LINK)

    def from_desk():
        return services.submit_game(table, game, typed(w, 1, {**T1, "Bob Roe": 13}, out="Ann Lee"),
                                    0, source=Source.DESK, user=desk)

    results = run_together(from_phone, from_desk)
    kinds = sorted(kind for kind, _ in results)
    assert kinds == ["error", "ok"], results
    error = next(value for kind, value in results if kind == "error")
    assert isinstance(error, services.VersionConflict), error
    assert error.current[0].version == 1
    assert "here is what it says now" in error.current[0].message
    assert GameSheet.objects.filter(state__in=[SheetState.ENTERED, SheetState.CONFIRMED]).count() == 1
    assert GameSheet.objects.count() == 1


def test_a_confirm_and_a_fix_of_one_version_at_once(slow_lock):
    w = seated_day()
    desk = staff(w.tournament, "desk1")
    staff(w.tournament, "boss", StaffRole.ORGANISER)
    table, game = w.tables[0], w.games[1]
    services.submit_game(table, game, typed(w, 1, T1, out="Ann Lee"), 0, source=Source.TABLE_LINK)

    def confirm():
        return services.confirm_game(table, game, 1, desk)

    def fix():
        return services.submit_game(table, game, typed(w, 1, {**T1, "Cy Doe": 41}, out="Ann Lee"),
                                    1, source=Source.TABLE_LINK)

    results = run_together(confirm, fix)
    assert sorted(kind for kind, _ in results) == ["error", "ok"], results
    error = next(value for kind, value in results if kind == "error")
    assert isinstance(error, (services.VersionConflict, services.SheetRefused)), error
    live = GameSheet.objects.filter(state__in=[SheetState.ENTERED, SheetState.CONFIRMED])
    assert live.count() == 1
    if results[0][0] == "ok":  # the confirm won: the fix saw a confirmed game
        assert live.get().state == SheetState.CONFIRMED and live.get().version == 1
    else:  # the fix won: the confirm was based on version 1, now superseded
        assert isinstance(error, services.VersionConflict)
        assert live.get().version == 2 and live.get().state == SheetState.ENTERED


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the writer queue is SQLite's")
def test_sqlite_writers_queue_on_a_file_lock_released_by_commit_rollback_and_close():
    import fcntl

    from django.db import transaction

    queue = open(f"{connection.settings_dict['NAME']}.writers", "a+b")

    def held() -> bool:
        try:
            fcntl.flock(queue, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(queue, fcntl.LOCK_UN)
        return False

    try:
        assert not held()
        with transaction.atomic():
            assert held()
            with transaction.atomic():  # a savepoint does not queue again
                assert held()
            assert held()
        assert not held()  # committed
        with pytest.raises(ZeroDivisionError):
            with transaction.atomic():
                assert held()
                1 / 0
        assert not held()  # rolled back

        # A second writer waits for the first, then goes on the moment it commits.
        order = []
        with transaction.atomic():
            second = threading.Thread(target=lambda: (_write_once(order), connection.close()))
            second.start()
            time.sleep(0.3)
            assert order == [] and second.is_alive()
            order.append("first")
        second.join(timeout=10)
        assert order == ["first", "second"]
        assert not held()

        # The queue alone, with no SQLite transaction open: a writer waits for the file lock and
        # goes on once it is released.
        fcntl.flock(queue, fcntl.LOCK_EX)
        order.clear()
        writer = threading.Thread(target=lambda: (_write_once(order), connection.close()))
        writer.start()
        time.sleep(0.3)
        assert order == [] and writer.is_alive()
        fcntl.flock(queue, fcntl.LOCK_UN)
        writer.join(timeout=10)
        assert order == ["second"]

        # A queue held past the database's timeout is given up on: SQLite's lock decides.
        options = connection.settings_dict["OPTIONS"]
        saved, options["timeout"] = options.get("timeout"), 0.3
        fcntl.flock(queue, fcntl.LOCK_EX)
        try:
            order.clear()
            writer = threading.Thread(target=lambda: (_write_once(order), connection.close()))
            writer.start()
            writer.join(timeout=10)
            assert order == ["second"]
        finally:
            fcntl.flock(queue, fcntl.LOCK_UN)
            options["timeout"] = saved
    finally:
        queue.close()


def _write_once(order):
    from django.db import transaction

    with transaction.atomic():
        order.append("second")
