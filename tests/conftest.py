import os
import shutil

import pytest
from django.contrib.auth import get_user_model
from hypothesis import settings as hypothesis_settings
from users import PASSWORD

# Playwright's sync API runs an event loop in the test thread; the ORM calls the tests make
# around it are still plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")

# CI replays fixed examples with no saved ones, so its verdict never depends on luck; dev explores.
hypothesis_settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, print_blob=True
)
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_collection_modifyitems(config, items):
    """In CI the browser tests must run: a missing Chromium fails the run instead of skipping."""
    if shutil.which(CHROMIUM) or os.path.exists(CHROMIUM):
        return
    browser_items = [item for item in items if "page" in getattr(item, "fixturenames", ())]
    if not browser_items:
        return
    if os.environ.get("CI"):
        raise pytest.UsageError(
            f"Chromium is missing at {CHROMIUM}; CI must run the browser tests."
        )
    skip = pytest.mark.skip(reason=f"Chromium not installed at {CHROMIUM}")
    for item in browser_items:
        item.add_marker(skip)


@pytest.fixture(autouse=True)
def login_throttle(request, settings):
    """django-axes counts failed logins and core/login.py counts logins per address; only tests
    marked `axes` exercise them, so a test that logs in is not turned away because of another
    test's wrong passwords or logins. (Every throttle counts in the database, which each test
    starts empty.)"""
    on = request.node.get_closest_marker("axes") is not None
    settings.AXES_ENABLED = on
    settings.LOGIN_THROTTLE_ENABLED = on
    # A sweep of expired sessions would add a query to whichever test's request came first
    # (tests/core/test_session_sweep.py turns it on).
    settings.SESSION_SWEEP_SECONDS = 0


def _uses_database(request) -> bool:
    names = request.fixturenames
    return request.node.get_closest_marker("django_db") is not None or any(
        name in names for name in ("db", "transactional_db", "live_server")
    )


@pytest.fixture(autouse=True)
def rule_presets(request):
    """A transactional test ends with a flush that empties every table, the presets the
    migration loaded among them; put them back so each test starts as a migrated database."""
    if not _uses_database(request):
        return
    request.getfixturevalue("_django_db_helper")
    _restore_rule_presets()


def _restore_rule_presets() -> None:
    from tournaments.models import RulePreset
    from tournaments.presets import preset_rows, store_presets

    if RulePreset.objects.count() < len(preset_rows()):
        store_presets(RulePreset)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(autouse=True)
def content_security_policy_holds(request):
    """In every browser test, nothing the page does is blocked by the Content-Security-Policy:
    Chromium reports each blocked script, style or frame on the console."""
    page = request.getfixturevalue("page") if "page" in request.fixturenames else None
    if not hasattr(page, "on"):  # no browser here ("page" may name a test's own parameter)
        yield
        return
    blocked: list[str] = []
    page.on(
        "console",
        lambda message: (
            blocked.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    yield
    assert blocked == [], "the Content-Security-Policy blocked part of a page"


@pytest.fixture
def make_user(db, password_hash):
    def make(username="organiser1", *, superuser=False):
        # What create_user and create_superuser store, with the password hashed once per run.
        return get_user_model().objects.create(
            username=username, password=password_hash, is_staff=superuser, is_superuser=superuser
        )

    return make


@pytest.fixture(scope="session")
def password_hash():
    """PASSWORD as Django stores it. Hashing is slow on purpose (a quarter of a second here),
    and hundreds of tests create a user with this password; logging in still checks it."""
    from django.contrib.auth.hashers import make_password

    return make_password(PASSWORD)


@pytest.fixture
def organiser(make_user):
    return make_user("organiser1", superuser=True)


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def make_tournament(db):
    from tournaments.services.events import create_tournament

    def make(slug="spring", preset="tournament", organiser=None, **kwargs):
        return create_tournament(
            slug=slug,
            name=kwargs.pop("name", slug.title()),
            preset_key=preset,
            organiser=organiser,
            **kwargs,
        )

    return make


@pytest.fixture
def quick_seating(settings):
    """A small search budget for tests that seat days; the benchmarks measure the full one.

    The budget is counted in swap evaluations, which stop the search at the same place on any
    machine. The wall-clock limit is only a backstop, set far above what 50,000 evaluations
    take: a clock that ran out first on a busy CI machine would stop the search early and fail
    tests that assert the proven lower bound.
    """
    settings.SEATING_TIME_LIMIT = 60.0
    settings.SEATING_MAX_EVALS = 50_000


@pytest.fixture
def tournament(make_tournament, organiser):
    return make_tournament(slug="spring", organiser=organiser)


@pytest.fixture
def world(db):
    """The shared seated day (scoring_factories.seated_day) with its staff: desk users ``desk``
    and ``desk2`` and an organiser ``boss``."""
    from scoring_factories import seated_day, staff

    from tournaments.models import StaffRole

    w = seated_day()
    w.desk = staff(w.tournament, "desk1")
    w.desk2 = staff(w.tournament, "desk2")
    w.boss = staff(w.tournament, "boss", StaffRole.ORGANISER)
    return w


@pytest.fixture(scope="session")
def demo_snapshot(django_db_setup, django_db_blocker):
    """The demo event, played once per test process and rolled back (see demo_copy)."""
    from demo_copy import capture_demo

    from scoring.demo import load_demo

    with django_db_blocker.unblock():
        # Before the test that first asks for it has put back what an earlier test's flush took.
        _restore_rule_presets()
        return capture_demo(load_demo)


@pytest.fixture
def make_demo(db, demo_snapshot):
    """``make_demo(organiser)``: the demo event in this test's database, as
    ``scoring.demo.load_demo(organiser)`` leaves it, in a fraction of the time."""
    from demo_copy import copy_demo

    return lambda organiser: copy_demo(demo_snapshot, organiser)


@pytest.fixture
def demo_tournament(make_demo, organiser):
    return make_demo(organiser)


@pytest.fixture
def login_page(live_server, page):
    """A Playwright page logged in as the organiser of a fresh database."""

    def login(user):
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill(user.username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(f"{live_server.url}/organiser/")
        return page

    return login
