"""tests/domain is the inner loop with no database: domain/'s rules and algorithms alone, run in
seconds with ``pytest tests/domain``.

A test here that asks for the database errors before any database is made: it belongs beside
the code that reads one (tests/tournaments, tests/scoring, tests/standings).
"""

import pytest

# Every database fixture of pytest-django goes through _django_db_helper; live_server through
# transactional_db, but only once its own fixture runs.
DATABASE_FIXTURES = frozenset({"_django_db_helper", "live_server"})


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    asked = DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ()))
    if asked or item.get_closest_marker("django_db"):
        pytest.fail(
            f"{item.nodeid} asks for the database ({', '.join(sorted(asked)) or 'django_db'}); "
            "tests/domain runs without one: move it beside the code it reads.",
            pytrace=False,
        )
