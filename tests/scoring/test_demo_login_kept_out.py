"""The demo's published login never reaches the venue by accident: `make run` keeps the demo in a
database of its own, and `make venue` will not serve a database that holds the demo login with
its published password unless told to."""

import subprocess

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from live_server_tools import ROOT

from scoring.management.commands.load_demo import DEMO_PASSWORD, DEMO_USERNAME

pytestmark = pytest.mark.django_db


def test_a_database_with_the_demo_login_is_not_served():
    get_user_model().objects.create_user(DEMO_USERNAME, "", DEMO_PASSWORD)
    with pytest.raises(CommandError, match="password is published in the README"):
        call_command("check_no_demo_login")


def test_told_to_it_serves_the_demo_and_says_what_that_means(capsys):
    get_user_model().objects.create_user(DEMO_USERNAME, "", DEMO_PASSWORD)
    call_command("check_no_demo_login", "--allow-demo")
    assert "anyone on this Wi-Fi" in capsys.readouterr().out


@pytest.mark.parametrize("password", [None, "a-password-of-their-own"])
def test_no_demo_login_or_one_with_its_own_password_is_served(password):
    if password:
        get_user_model().objects.create_user(DEMO_USERNAME, "", password)
    call_command("check_no_demo_login")  # no error


def _make_dry_run(target: str, *args: str) -> str:
    return subprocess.run(
        ["make", "-n", target, *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


def test_make_run_keeps_the_demo_in_its_own_database_and_make_venue_checks_first():
    run = _make_dry_run("run")
    assert "load_demo" in run
    assert all("demo.sqlite3" in line for line in run.splitlines() if "manage.py" in line), run
    venue = _make_dry_run("venue")
    assert "demo.sqlite3" not in venue
    assert venue.index("check_no_demo_login") < venue.index("gunicorn")
    assert "--allow-demo" in _make_dry_run("venue", "ALLOW_DEMO=1")
    assert "createsuperuser" in _make_dry_run("organiser")
