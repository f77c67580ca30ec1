"""Backups, production settings and the login throttle."""

import os
import secrets
import subprocess
import sys

import pytest
from conftest import PASSWORD
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from scoring_factories import T1, seated_day, snapshot, typed

from scoring.models import GameSheet, Score, Source
from scoring.services import submit_game
from tournaments.models import Player

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
def test_backup_then_restore_brings_back_every_score(tmp_path, organiser, capsys):
    from scoring.demo import load_demo

    load_demo(organiser)
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


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_damaged_backup_and_keeps_the_database(tmp_path, organiser):
    _scored_game(organiser)
    before = _every_row()
    assert before["Score"] and before["GameSheet"]
    suffix = ".sqlite3" if connection.vendor == "sqlite" else ".pgdump"
    damaged = tmp_path / f"mexican-train-damaged{suffix}"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4096)
    with pytest.raises(CommandError, match="damaged|failed"):
        call_command("restore", str(damaged))
    assert type(organiser).objects.filter(pk=organiser.pk).exists()
    assert _every_row() == before
