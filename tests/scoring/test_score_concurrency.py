"""Two people save the same game at the same moment: exactly one wins, the other is told.

Real threads, each with its own database connection. The overlap is made certain, not left to
the scheduler: the first save writes its sheet and then, inside its transaction and still holding
the table's lock, waits until the second save is queued for that lock; only then does it commit.
Runs on whichever database the suite runs on (SQLite file with IMMEDIATE transactions behind the
writers' queue, or PostgreSQL with row locks); CI runs both.
"""

import threading

import pytest
from django.db import connection
from django.db.models.signals import post_save
from scoring_factories import T1, seated_day, staff, typed

from scoring import services
from scoring.models import AuditEvent, GameSheet, SheetState, Source
from tournaments.models import StaffRole

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 30  # seconds before a wait that should end at once is called a hang


class QueueWatch:
    """Stands in for the fcntl module inside the SQLite backend: every call goes through, and
    ``refused`` is set when a thread other than the test's own is turned away from the writers'
    queue, which is the moment that thread starts waiting for the writer before it."""

    def __init__(self, real):
        self.real = real
        self.refused = threading.Event()
        self.test_thread = threading.get_ident()

    def __getattr__(self, name):
        return getattr(self.real, name)

    def flock(self, fd, operation):
        try:
            return self.real.flock(fd, operation)
        except BlockingIOError:
            if threading.get_ident() != self.test_thread:
                self.refused.set()
            raise


class ProcessQueueWatch:
    """Stands in for the SQLite backend's lock for the threads of one process: sets ``refused``
    when a thread other than the test's own finds it taken and starts waiting."""

    def __init__(self, real, refused):
        self.real = real
        self.refused = refused
        self.test_thread = threading.get_ident()

    def acquire(self, timeout=-1):
        if self.real.acquire(blocking=False):
            return True
        if threading.get_ident() != self.test_thread:
            self.refused.set()
        return self.real.acquire(timeout=timeout)

    def release(self):
        self.real.release()


@pytest.fixture
def lock_wait(monkeypatch):
    """An event set when a save is queued for a lock another transaction holds: on SQLite when
    the writers' queue turns it away, on PostgreSQL as it sends its row-lock request (see
    ``flag_lock_requests``)."""
    if connection.vendor == "sqlite":
        from config.sqlite_backend import base

        if base.fcntl is not None:
            watch = QueueWatch(base.fcntl)
            monkeypatch.setattr(base, "fcntl", watch)
            # Threads of one process queue on the process's lock before the file lock.
            monkeypatch.setattr(
                base, "_PROCESS_WRITERS", ProcessQueueWatch(base._PROCESS_WRITERS, watch.refused)
            )
            return watch.refused
    return threading.Event()


def flag_lock_requests(event):
    """A query wrapper that sets ``event`` as a row-lock request is sent (PostgreSQL's SELECT
    ... FOR UPDATE; SQLite takes its lock when the transaction begins and sends none)."""

    def wrapper(execute, sql, params, many, context):
        if "FOR UPDATE" in sql:
            event.set()
        return execute(sql, params, many, context)

    return wrapper


def run_overlapping(first, second, lock_wait):
    """Run ``first`` and ``second`` in their own threads, overlapping for certain: ``second``
    starts once ``first`` has written, and ``first`` commits only once ``second`` is queued for
    the lock it holds. Return what each returned or raised, in that order."""
    first_wrote = threading.Event()
    held = threading.Event()
    first_thread = {}
    results = [None, None]

    def hold_the_lock(sender, **kwargs):
        # The audit event is the last row a save writes: everything else is written, not committed.
        if threading.get_ident() != first_thread.get("id") or first_wrote.is_set():
            return
        lock_wait.clear()
        first_wrote.set()
        if not lock_wait.wait(timeout=WAIT):
            raise AssertionError("the second save never queued for the table's lock")
        held.set()

    def run_first():
        first_thread["id"] = threading.get_ident()
        try:
            results[0] = ("ok", first())
        except Exception as error:  # the test inspects what each thread got
            results[0] = ("error", error)
        finally:
            first_wrote.set()  # a first save that failed early must not leave the second waiting
            connection.close()

    def run_second():
        try:
            assert first_wrote.wait(timeout=WAIT), "the first save never wrote"
            with connection.execute_wrapper(flag_lock_requests(lock_wait)):
                results[1] = ("ok", second())
        except Exception as error:
            results[1] = ("error", error)
        finally:
            connection.close()

    post_save.connect(hold_the_lock, sender=AuditEvent, weak=False, dispatch_uid="hold-the-lock")
    try:
        threads = [threading.Thread(target=run_first), threading.Thread(target=run_second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=2 * WAIT)
    finally:
        post_save.disconnect(sender=AuditEvent, dispatch_uid="hold-the-lock")
    assert not any(t.is_alive() for t in threads), "a save hung"
    assert held.is_set(), ("the saves did not overlap", results)
    return results


@pytest.mark.parametrize("first", ["phone", "desk"])
def test_two_new_saves_of_one_game_at_once(lock_wait, first):
    w = seated_day()
    desk = staff(w.tournament, "desk1")
    table, game = w.tables[0], w.games[1]

    def from_phone():
        return services.submit_game(
            table, game, typed(w, 1, T1, out="Ann Lee"), 0, source=Source.TABLE_LINK
        )

    def from_desk():
        return services.submit_game(
            table,
            game,
            typed(w, 1, {**T1, "Bob Roe": 13}, out="Ann Lee"),
            0,
            source=Source.DESK,
            user=desk,
        )

    saves = {"phone": from_phone, "desk": from_desk}
    second = "desk" if first == "phone" else "phone"
    results = run_overlapping(saves[first], saves[second], lock_wait)
    kinds = [kind for kind, _ in results]
    assert kinds == ["ok", "error"], results
    error = results[1][1]
    assert isinstance(error, services.VersionConflict), error
    assert error.current[0].version == 1
    assert "here is what it says now" in error.current[0].message
    live = GameSheet.objects.filter(state__in=[SheetState.ENTERED, SheetState.CONFIRMED])
    assert live.count() == 1
    assert GameSheet.objects.count() == 1
    assert live.get().source == (Source.TABLE_LINK if first == "phone" else Source.DESK)


@pytest.mark.parametrize("first", ["confirm", "fix"])
def test_a_confirm_and_a_fix_of_one_version_at_once(lock_wait, first):
    w = seated_day()
    desk = staff(w.tournament, "desk1")
    staff(w.tournament, "boss", StaffRole.ORGANISER)
    table, game = w.tables[0], w.games[1]
    services.submit_game(table, game, typed(w, 1, T1, out="Ann Lee"), 0, source=Source.TABLE_LINK)

    def confirm():
        return services.confirm_game(table, game, 1, desk)

    def fix():
        return services.submit_game(
            table,
            game,
            typed(w, 1, {**T1, "Cy Doe": 41}, out="Ann Lee"),
            1,
            source=Source.TABLE_LINK,
        )

    jobs = (confirm, fix) if first == "confirm" else (fix, confirm)
    results = run_overlapping(*jobs, lock_wait)
    assert [kind for kind, _ in results] == ["ok", "error"], results
    error = results[1][1]
    assert isinstance(error, (services.VersionConflict, services.SheetRefused)), error
    live = GameSheet.objects.filter(state__in=[SheetState.ENTERED, SheetState.CONFIRMED])
    assert live.count() == 1
    if first == "confirm":  # the fix saw a confirmed game
        assert live.get().state == SheetState.CONFIRMED and live.get().version == 1
    else:  # the confirm was based on version 1, now superseded
        assert isinstance(error, services.VersionConflict)
        assert live.get().version == 2 and live.get().state == SheetState.ENTERED


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the writer queue is SQLite's")
def test_sqlite_writers_queue_on_a_file_lock_released_by_commit_rollback_and_close(lock_wait):
    import fcntl

    from django.db import transaction

    with open(f"{connection.settings_dict['NAME']}.writers", "a+b") as queue:

        def held() -> bool:
            try:
                fcntl.flock(queue, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(queue, fcntl.LOCK_UN)
            return False

        assert not held()
        with transaction.atomic():
            assert held()
            with transaction.atomic():  # a savepoint does not queue again
                assert held()
            assert held()
        assert not held()  # committed
        with pytest.raises(ZeroDivisionError), transaction.atomic():
            assert held()
            raise ZeroDivisionError
        assert not held()  # rolled back

        # A second writer waits for the first, then goes on the moment it commits.
        order = []
        with transaction.atomic():
            second = threading.Thread(target=lambda: (_write_once(order), connection.close()))
            second.start()
            assert lock_wait.wait(timeout=WAIT), "the second writer never reached the queue"
            assert order == [] and second.is_alive()
            order.append("first")
        second.join(timeout=10)
        assert order == ["first", "second"]
        assert not held()

        # The queue alone, with no SQLite transaction open: a writer waits for the file lock and
        # goes on once it is released.
        fcntl.flock(queue, fcntl.LOCK_EX)
        order.clear()
        lock_wait.clear()
        writer = threading.Thread(target=lambda: (_write_once(order), connection.close()))
        writer.start()
        assert lock_wait.wait(timeout=WAIT), "the writer never reached the queue"
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


def _write_once(order):
    from django.db import transaction

    with transaction.atomic():
        order.append("second")
