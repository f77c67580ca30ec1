"""The throttles count in the database: a window ends when it was set to, parallel attempts are
each counted, a crowd of other clients never frees a lock, and IPv6 counts by the /64."""

import threading

import pytest
from django.db import connection

from core.models import ThrottleCount
from core.throttle import Throttle, client_key

CODES = Throttle("test-codes", limit=10, window_seconds=10 * 60)


@pytest.fixture
def clock(monkeypatch):
    now = [1_800_000_000.0]
    monkeypatch.setattr("core.throttle._now", lambda: now[0])
    return now


@pytest.mark.django_db
def test_a_window_ends_when_it_was_set_to_however_many_attempts_arrive_in_it(clock):
    for _ in range(10):
        CODES.hit("10.0.0.5")
    assert CODES.blocked("10.0.0.5")
    clock[0] += 4 * 60
    CODES.hit("10.0.0.5")  # an attempt every few minutes does not keep the lock going
    clock[0] += 4 * 60
    CODES.hit("10.0.0.5")
    assert CODES.blocked("10.0.0.5")
    assert CODES.seconds_left("10.0.0.5") == 2 * 60
    assert CODES.wait_words("10.0.0.5") == "2 minutes"
    clock[0] += 2 * 60  # ten minutes after the first attempt
    assert not CODES.blocked("10.0.0.5")
    assert CODES.count("10.0.0.5") == 0 and CODES.seconds_left("10.0.0.5") == 0
    assert CODES.hit("10.0.0.5") == 1  # a new window
    assert CODES.seconds_left("10.0.0.5") == 10 * 60


@pytest.mark.django_db
def test_a_crowd_of_other_clients_never_frees_a_lock(clock):
    for _ in range(10):
        CODES.hit("10.0.0.5")
    for n in range(600):  # more than a cache's 300 entries, each one wrong code
        CODES.hit(f"10.1.{n // 250}.{n % 250}")
    assert CODES.blocked("10.0.0.5")
    assert CODES.count("10.0.0.5") == 10


@pytest.mark.django_db
def test_only_ended_windows_are_deleted(clock):
    CODES.hit("10.0.0.5")
    clock[0] += 5 * 60
    CODES.hit("10.0.0.6")
    clock[0] += 5 * 60 + 1  # the first window is over, the second is not
    CODES.hit("10.0.0.7")
    assert set(ThrottleCount.objects.values_list("key", flat=True)) == {
        "test-codes:10.0.0.6",
        "test-codes:10.0.0.7",
    }


@pytest.mark.django_db(transaction=True)
def test_parallel_attempts_are_each_counted():
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"].startswith(
        ("file:memorydb", ":memory:")
    ):
        pytest.skip("an in-memory SQLite database is not shared between threads")
    start = threading.Barrier(16)
    counts = []
    failures = []

    def attempt():
        from django.db import connections

        try:
            start.wait(10)
            counts.append(CODES.hit("10.0.0.9"))
        except Exception as error:  # reported below
            failures.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=attempt, daemon=True) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not any(thread.is_alive() for thread in threads)
    assert not failures
    assert sorted(counts) == list(range(1, 17))  # each count seen once: none lost
    assert CODES.count("10.0.0.9") == 16


@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        ("2001:db8:1:2::1", "2001:db8:1:2:ffff:aaaa:bbbb:cccc", True),
        ("2001:db8:1:2::1", "2001:db8:1:3::1", False),
        ("::ffff:192.0.2.7", "192.0.2.7", True),
        ("::ffff:192.0.2.7", "::ffff:192.0.2.8", False),
        ("192.0.2.7", "192.0.2.8", False),
        (None, None, True),
    ],
)
def test_ipv6_counts_by_its_64_and_ipv4_by_its_address(first, second, same):
    assert (client_key(first) == client_key(second)) is same


@pytest.mark.django_db
def test_every_address_in_one_ipv6_64_shares_one_count(clock):
    for n in range(10):
        CODES.hit(f"2001:db8:1:2::{n + 1:x}")
    assert CODES.blocked("2001:db8:1:2:abcd::9")
    assert not CODES.blocked("2001:db8:1:3::1")


@pytest.mark.django_db(transaction=True)
def test_checks_paid_for_in_parallel_are_never_more_than_the_limit():
    start = threading.Barrier(24)
    taken = []

    def attempt():
        from django.db import connections

        try:
            start.wait(10)
            taken.append(CODES.take("10.0.0.10"))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=attempt, daemon=True) for _ in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not any(thread.is_alive() for thread in threads)
    assert taken.count(True) == 10 and taken.count(False) == 14
    assert CODES.count("10.0.0.10") == 10  # a refused check adds nothing


@pytest.mark.django_db
def test_a_check_that_did_not_count_is_given_back(clock):
    for _ in range(9):
        assert CODES.take("10.0.0.11")
    assert CODES.take("10.0.0.11")  # the tenth: a right code, given back
    CODES.give_back("10.0.0.11")
    assert CODES.count("10.0.0.11") == 9 and not CODES.blocked("10.0.0.11")
    assert CODES.take("10.0.0.11")
    assert not CODES.take("10.0.0.11")
