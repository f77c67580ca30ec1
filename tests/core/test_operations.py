"""Backups, production settings and the login throttle."""

import os
import secrets
import stat
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from scoring_factories import T1, seated_day, snapshot, typed
from users import PASSWORD

from scoring.models import GameSheet, Score, Source
from scoring.services import submit_game
from tournaments.models import Player

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _all_scores():
    return sorted(
        Score.objects.values_list(
            "sheet__table__day__number",
            "sheet__table__number",
            "sheet__game__number",
            "entry__number",
            "points",
            "sheet__state",
        )
    )


def _scored_game(organiser):
    """A seated day with game 1 of table 1 confirmed at the desk: scores a restore could lose."""
    world = seated_day(organiser=organiser)
    submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, T1, out="Ann Lee"),
        0,
        source=Source.DESK,
        user=organiser,
    )


def _every_row():
    """Every score, game sheet, player and user, field by field: what a refused restore keeps."""
    return snapshot(Score, GameSheet, Player, get_user_model())


@pytest.mark.django_db(transaction=True)
def test_backup_then_restore_brings_back_every_score(tmp_path, organiser, make_demo, capsys):
    make_demo(organiser)
    before = _all_scores()
    assert len(before) > 400
    call_command("backup", str(tmp_path))
    backup_file = capsys.readouterr().out.strip()
    assert os.path.isfile(backup_file) and os.path.getsize(backup_file) > 0

    Score.objects.filter(entry__number__lte=10).update(points=999)
    Score.objects.filter(entry__number=11).delete()
    assert _all_scores() != before

    call_command("restore", backup_file)
    connection.close()
    assert _all_scores() == before


# Transactional: a restore closes the database connections before it looks at the file's kind,
# which would end the transaction an ordinary test runs in.
@pytest.mark.django_db(transaction=True)
def test_restore_refuses_missing_and_foreign_files(tmp_path, organiser):
    _scored_game(organiser)
    before = _every_row()
    assert before["Score"] and before["GameSheet"]
    with pytest.raises(CommandError, match="no backup file"):
        call_command("restore", str(tmp_path / "nothing.sqlite3"))
    assert _every_row() == before
    stray = tmp_path / "notes.txt"
    stray.write_text("not a backup")
    with pytest.raises(CommandError, match="is not a"):
        call_command("restore", str(stray))
    assert _every_row() == before


def _run_manage(*args, **env):
    full_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **env}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=full_env, capture_output=True, text=True
    )


def test_check_deploy_is_clean_under_production_settings():
    result = _run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="trains.example.org",
    )
    output = result.stdout + result.stderr
    issues = {
        line.split(")")[0].split("(")[-1] for line in output.splitlines() if "(security." in line
    }
    # HSTS is the organiser's own choice: it cannot be undone once browsers have seen it.
    assert issues <= {"security.W004"}, output


def test_production_refuses_to_start_without_a_secret_key():
    result = _run_manage("check", DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="x.org")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_venue_mode_lets_phones_log_in_over_plain_http():
    code = (
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, '*' in s.ALLOWED_HOSTS)"
    )
    result = _run_manage(
        "shell",
        "-c",
        code,
        DJANGO_DEBUG="0",
        DJANGO_VENUE_MODE="1",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
    )
    assert result.stdout.split()[-3:] == ["False", "False", "True"], result.stderr


@pytest.mark.axes
@pytest.mark.django_db
def test_five_wrong_passwords_lock_that_user_and_address_for_an_hour(client, organiser):
    for _ in range(5):
        response = client.post(
            "/accounts/login/", {"username": organiser.username, "password": "wrong"}
        )
        assert response.status_code in (200, 429)
    response = client.post(
        "/accounts/login/", {"username": organiser.username, "password": PASSWORD}
    )
    assert response.status_code == 429
    assert "locked for one hour" in response.content.decode()
    # Another address is not locked out.
    other = client.post(
        "/accounts/login/",
        {"username": organiser.username, "password": PASSWORD},
        REMOTE_ADDR="10.0.0.9",
    )
    assert other.status_code == 302


def _login(client, username, password="wrong", **headers):
    return client.post("/accounts/login/", {"username": username, "password": password}, **headers)


def _failed_login_bytes() -> int:
    """What django-axes has stored about failed logins, in characters."""
    from axes.models import AccessAttempt, AccessFailureLog

    total = 0
    for model in (AccessAttempt, AccessFailureLog):
        for row in model.objects.values():
            total += sum(len(str(value)) for value in row.values())
    return total


@pytest.mark.axes
@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_a_huge_username_is_refused_before_anything_is_stored(client, path):
    from axes.models import AccessAttempt

    long = "u" * 10_000  # under a login's body limit: the form refuses it
    for _ in range(3):
        response = client.post(path, {"username": long, "password": "wrong"})
        assert response.status_code == 200
        page = response.content.decode()
        assert "A username is at most 150 characters." in page
        assert len(page) < 20_000  # the username is not echoed back
    # Over the limit (core/request_limits.py), the body is not even read.
    huge = client.post(path, {"username": "u" * 1_000_000, "password": "wrong"})
    assert huge.status_code == 413
    assert not AccessAttempt.objects.exists()


@pytest.mark.axes
@pytest.mark.django_db
def test_what_a_failed_login_stores_is_bounded(client, settings):
    from axes.models import AccessAttempt

    from core.login import axes_username

    # Any path that skips the form still records at most an account's length of username.
    assert axes_username(None, {"username": "x" * 10_000}) == "x" * 150
    # Posts made while locked out add nothing to the record.
    padding = {"username": "desk1", "password": "wrong", "junk": "j" * 12_000}
    for _ in range(5):
        client.post("/accounts/login/", padding)
    stored = _failed_login_bytes()
    assert stored < 10_000
    for _ in range(10):
        assert client.post("/accounts/login/", padding).status_code == 429
    assert _failed_login_bytes() == stored
    assert AccessAttempt.objects.get().failures_since_start == 5


@pytest.mark.axes
@pytest.mark.django_db
def test_behind_a_trusted_proxy_a_lockout_is_per_client_not_per_proxy(client, settings, organiser):
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    attacker = {**proxy, "HTTP_X_FORWARDED_FOR": "203.0.113.7"}
    for _ in range(6):
        _login(client, organiser.username, **attacker)
    assert _login(client, organiser.username, PASSWORD, **attacker).status_code == 429
    # The desk, through the same proxy, logs in; a client writing its own header gains nothing:
    # the proxy appends the address it saw, and that one is used.
    desk = {**proxy, "HTTP_X_FORWARDED_FOR": "198.51.100.20"}
    assert _login(client, organiser.username, PASSWORD, **desk).status_code == 302
    client.logout()
    spoofed = {**proxy, "HTTP_X_FORWARDED_FOR": "198.51.100.20, 203.0.113.7"}
    assert _login(client, organiser.username, PASSWORD, **spoofed).status_code == 429


@pytest.mark.axes
@pytest.mark.django_db
def test_without_trusted_proxies_the_forwarded_header_is_ignored(client, organiser):
    for n in range(6):
        _login(
            client, organiser.username, REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"1.2.3.{n}"
        )
    response = _login(client, organiser.username, PASSWORD, REMOTE_ADDR="10.0.0.1")
    assert response.status_code == 429


@pytest.mark.axes
@pytest.mark.django_db
def test_logins_are_throttled_per_address_before_any_password_is_hashed(
    client, settings, organiser
):
    from axes.models import AccessAttempt

    settings.LOGIN_ATTEMPTS_PER_MINUTE = 8
    for n in range(8):
        assert _login(client, f"made-up-{n}").status_code == 200
    turned_away = _login(client, "made-up-8")
    assert turned_away.status_code == 429
    assert "Too many logins were tried from this device" in turned_away.content.decode()
    assert _login(client, organiser.username, PASSWORD).status_code == 429
    assert AccessAttempt.objects.count() == 8  # the ninth never reached authentication
    # Another address is not held back.
    assert _login(client, organiser.username, PASSWORD, REMOTE_ADDR="10.0.0.9").status_code == 302


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_damaged_backup_and_keeps_the_database(tmp_path, organiser):
    _scored_game(organiser)
    before = _every_row()
    assert before["Score"] and before["GameSheet"]
    suffix = ".sqlite3" if connection.vendor == "sqlite" else ".pgdump"
    damaged = tmp_path / f"mexican-train-damaged{suffix}"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4096)
    with pytest.raises(CommandError, match=r"damaged|failed"):
        call_command("restore", str(damaged))
    assert type(organiser).objects.filter(pk=organiser.pk).exists()
    assert _every_row() == before


@pytest.mark.django_db(transaction=True)
def test_a_backup_is_readable_by_its_owner_only(tmp_path, organiser, capsys):
    _scored_game(organiser)
    folder = tmp_path / "backups"
    call_command("backup", str(folder))
    written = capsys.readouterr().out.strip()
    assert stat.S_IMODE(os.stat(written).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700


@pytest.mark.skipif(connection.vendor != "sqlite", reason="PostgreSQL keeps its own files")
@pytest.mark.django_db
def test_the_database_file_is_readable_by_its_owner_only():
    name = connection.settings_dict["NAME"]
    os.chmod(name, 0o644)  # as an older copy of the app, or a copied file, left it
    connection.get_new_connection(connection.get_connection_params()).close()
    assert stat.S_IMODE(os.stat(name).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(f"{name}.writers").st_mode) & 0o077 == 0


@pytest.mark.django_db(transaction=True)
def test_a_restore_logs_everyone_out(tmp_path, client, organiser, capsys):
    _scored_game(organiser)
    client.force_login(organiser)
    assert client.get("/organiser/").status_code == 200
    call_command("backup", str(tmp_path))
    written = capsys.readouterr().out.strip()
    call_command("restore", written)
    connection.close()
    assert not Session.objects.exists()
    assert client.get("/organiser/").status_code == 302  # to the login page
    assert _all_scores()  # the scores came back with the restore
