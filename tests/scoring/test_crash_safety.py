"""Kill the server in the middle of an import and of a score save: after a restart the database
holds all of it or none of it.

The server is gunicorn in a process group of its own, on the pytest test database. A first,
undisturbed request measures how long the import and its write transaction take; the same
request on a fresh tournament is then killed with SIGKILL (master and worker together, like a
power cut) half way through: on SQLite half way through the transaction the first one took (the
write lock shows when it is open), on PostgreSQL once half of the rows are written (its id
sequences, which never roll back, show them going in). The test checks the kill really landed
mid-request (the HTTP call got no answer) while the write transaction was open, that the
tournament holds none of the rows, and that after a restart the same upload goes through whole
-- which it could not if part of the first one had stayed behind (the player import refuses
names already entered; the score import would report those games unchanged, not entered).
"""

from __future__ import annotations

import functools
import http.client
import io
import random
import threading
import time
from dataclasses import dataclass

import pytest
from django.urls import reverse
from live_server_tools import Browser, Server, WriteWatch
from scoring_factories import csv_bytes
from users import PASSWORD

from scoring.models import AuditEvent, GameSheet, Score
from scoring.workbook_export import HEADER, export_day
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, KeepApart, Player
from tournaments.services.events import create_tournament
from tournaments.services.importing import import_players
from tournaments.services.seating import seat_day

pytestmark = pytest.mark.django_db(transaction=True)

MIN_WINDOW = 0.15  # seconds of open transaction needed to aim a kill at its middle
ATTEMPTS = 5


@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path / "gunicorn.log")
    server.start()
    yield server
    server.kill()


@pytest.fixture
def watch():
    watch = WriteWatch()
    yield watch
    watch.wait_until_quiet()  # the flush after the test must not queue behind a dead writer
    watch.close()


@dataclass
class Run:
    answered: bool  # the HTTP call got a response
    status: int | None
    seconds: float = 0.0  # from sending to the answer (or the kill)
    window: float = 0.0  # the longest unbroken stretch the database was held for writing (s)
    killed_writing: bool = False  # the write transaction was still open just before the kill
    rows_written: int | None = None  # PostgreSQL: ids the transaction used before the kill


def send_and_watch(
    send,
    watch: WriteWatch,
    *,
    kill_after: float | None = None,
    kill_at: float | None = None,
    kill_rows: int | None = None,
    server: Server | None = None,
    sequence: str = "",
) -> Run:
    """Send a request from a thread while watching the database, and maybe SIGKILL the server:
    ``kill_after`` seconds into an unbroken write transaction, ``kill_at`` seconds after
    sending, or (PostgreSQL) once ``kill_rows`` ids of ``sequence`` have been used.

    Only an unbroken stretch counts: on SQLite each new server connection holds the lock for a
    few milliseconds while it sets the journal mode, which is not the import.
    """
    outcome: dict = {}

    def go():
        try:
            outcome["response"] = send()
        except (OSError, http.client.HTTPException) as error:  # the server died mid-request
            outcome["error"] = error

    before = watch.sequence_value(sequence) if sequence else None
    thread = threading.Thread(target=go)
    run = Run(answered=False, status=None)
    thread.start()
    started = time.monotonic()
    since = None  # when the current stretch of writing began
    while thread.is_alive() and time.monotonic() - started < 60:
        now = time.monotonic()
        if watch.writing():
            since = now if since is None else since
            run.window = max(run.window, now - since)
        else:
            since = None
        if (
            (kill_after is not None and since is not None and now - since >= kill_after)
            or (kill_at is not None and now - started >= kill_at)
            or (kill_rows is not None and watch.sequence_value(sequence) - before >= kill_rows)
        ):
            run.killed_writing = watch.writing()
            if before is not None:
                run.rows_written = watch.sequence_value(sequence) - before
            server.kill()
            break
        time.sleep(0.003)
    thread.join(timeout=60)
    run.seconds = time.monotonic() - started
    assert not thread.is_alive(), "the request never ended"
    if "response" in outcome:
        run.answered, run.status = True, outcome["response"].status
    assert watch.wait_until_quiet(), "a write transaction was still open long after the kill"
    return run


def _no_later_than(aim: dict, run: Run) -> dict:
    """The kill's aim, moved no later than what ``run`` (a request that finished) took."""
    seen = {"kill_after": run.window, "kill_at": run.seconds}
    return {k: min(v, seen[k]) if seen.get(k) else v for k, v in aim.items()}


def _aim_again(kill_at: float, run: Run) -> dict:
    """The next kill's moment, aimed by the request's clock when its write transaction is too
    short to watch: a request that finished first wrote at the end, so aim at the middle of its
    own write stretch, counted back from its answer; one killed before it wrote, later."""
    if run.answered:
        back = run.window / 2 if run.window else run.seconds / 2
        return {"kill_at": max(run.seconds - back, 0.001)}
    return {"kill_at": kill_at * 1.5}


def crash_and_restart(
    *, server, watch, fresh_target, send, rows_of, whole, sequence, sequence_rows
):
    """Calibrate on one target, then kill the same request on fresh targets until a kill lands
    inside the write transaction, restarting the server after each kill. Returns that target."""
    calibration = send_and_watch(lambda: send(fresh_target()), watch)
    assert calibration.answered and calibration.status == 302, calibration
    # PostgreSQL shows the rows going in (its sequences do not roll back): kill when half of
    # them are written. SQLite shows only that the write lock is held: kill half way through
    # the transaction the first request took. A transaction too short to aim at that way is
    # aimed at by the request's clock (_aim_again).
    if not watch.sqlite:
        aim = {"kill_rows": sequence_rows}
    elif calibration.window >= MIN_WINDOW:
        aim = {"kill_after": calibration.window}
    else:
        aim = _aim_again(0.0, calibration)
    killed = []
    fraction = 1.0 if "kill_at" in aim else 0.5
    for _ in range(ATTEMPTS):
        target = fresh_target()
        run = send_and_watch(
            functools.partial(send, target),
            watch,
            server=server,
            sequence=sequence,
            **{k: type(v)(v * fraction) for k, v in aim.items()},
        )
        rows = rows_of(target)
        # The invariant, whatever the timing: all of it or none of it.
        assert rows in (whole, tuple(0 for _ in whole)), (rows, whole, run)
        server.start()
        killed.append((target, run, rows))
        if not run.answered and run.killed_writing and rows == tuple(0 for _ in whole):
            break
        if "kill_at" in aim:
            aim, fraction = _aim_again(aim["kill_at"] * fraction, run), 1.0
            continue
        # It finished first (or committed just before the kill): aim earlier, and at this run's
        # own timing when it was quicker than the calibration's (the load on a shared machine
        # changes it from one request to the next).
        fraction /= 2
        aim = _no_later_than(aim, run)
    print(
        f"calibration: request {calibration.seconds:.2f} s, write transaction "
        f"{calibration.window:.2f} s; killed: "
        + "; ".join(
            f"answered={r.answered} writing={r.killed_writing} rows={rows} "
            f"ids used={r.rows_written}"
            for _, r, rows in killed
        )
    )
    target, run, rows = killed[-1]
    assert not run.answered, f"every request finished before its kill: {killed}"
    assert run.killed_writing, f"no kill landed while the write transaction was open: {killed}"
    assert rows == tuple(0 for _ in whole), rows
    if run.rows_written is not None:
        # PostgreSQL: the sequences moved, so rows were written, and none of them survived.
        assert run.rows_written > 0, run
    return target


def player_file(prefix: str, count: int) -> bytes:
    """A club list as CSV: mostly rows to insert, a keep-apart pair every 50 rows."""
    rows = [["Name", "Club", "Keep apart"]]
    for i in range(1, count + 1):
        partner = f"{prefix} {i - 1:05}" if i % 50 == 0 else ""
        rows.append([f"{prefix} {i:05}", f"Club {i % 17}", partner])
    return csv_bytes(rows)


def test_a_player_import_killed_mid_way_leaves_no_player_behind(server, watch, organiser):
    browser = Browser(server.port)
    browser.login(organiser.username, PASSWORD)
    count = 1500
    made = []

    def fresh_target():
        n = len(made) + 1
        tournament = create_tournament(
            slug=f"crash-{n}", name=f"Crash {n}", preset_key="tournament"
        )
        made.append((tournament, f"Crash{n} Player"))
        return made[-1]

    def send(target):
        tournament, prefix = target
        url = reverse("organiser:import_players", args=[tournament.slug])
        return browser.post_file(
            url,
            {"csrfmiddlewaretoken": browser.csrf(url)},
            "file",
            "players.csv",
            player_file(prefix, count),
        )

    def rows_of(target):
        tournament, prefix = target
        return (
            Entry.objects.filter(tournament=tournament).count(),
            Player.objects.filter(name__startswith=prefix).count(),
            KeepApart.objects.filter(tournament=tournament).count(),
        )

    whole = (count, count, count // 50)
    target = crash_and_restart(
        server=server,
        watch=watch,
        fresh_target=fresh_target,
        send=send,
        rows_of=rows_of,
        whole=whole,
        sequence="tournaments_entry",
        sequence_rows=count,
    )
    assert rows_of(made[0]) == whole  # the undisturbed import stored everything

    # After the restart the same file goes in whole: had half of the killed import survived,
    # its names would now be refused as already entered.
    browser = Browser(server.port)
    browser.login(organiser.username, PASSWORD)
    response = send(target)
    assert response.status == 302, response.body[:2000]
    assert rows_of(target) == whole


def filled_workbook(day, rng: random.Random) -> bytes:
    """The day's own exported workbook with every game filled in: one player out, others 1-60."""
    from openpyxl import load_workbook

    wb = load_workbook(io.BytesIO(export_day(day)))
    ws = wb.active
    assert [c.value for c in ws[1]] == HEADER
    games: dict[tuple, list] = {}
    for row in ws.iter_rows(min_row=2):
        games.setdefault((row[1].value, row[2].value), []).append(row)
    for rows in games.values():
        out = rng.randrange(len(rows))
        for index, row in enumerate(rows):
            row[6].value = 0 if index == out else rng.randint(1, 60)
            row[7].value = "yes" if index == out else None
    data = io.BytesIO()
    wb.save(data)
    return data.getvalue()


def test_a_score_workbook_killed_mid_way_leaves_no_game_behind(
    server, watch, organiser, quick_seating
):
    browser = Browser(server.port)
    browser.login(organiser.username, PASSWORD)
    rng = random.Random(6)
    players = 300
    made = []

    def fresh_target():
        n = len(made) + 1
        tournament = create_tournament(slug=f"day-{n}", name=f"Day {n}", preset_key="tournament")
        import_players(
            tournament,
            player_file(f"Day{n} Player", players),
            "players.csv",
            user=COMMAND_LINE,
        )
        day = tournament.days.get(number=1)
        seat_day(day, seed=n)
        target = (tournament, day, filled_workbook(day, rng))
        made.append(target)
        return target

    def send(target):
        tournament, _, data = target
        url = reverse("organiser:upload_workbook", args=[tournament.slug])
        return browser.post_file(
            url,
            {"csrfmiddlewaretoken": browser.csrf(url), "reason": ""},
            "file",
            "scores.xlsx",
            data,
        )

    def rows_of(target):
        _, day, _ = target
        return (
            GameSheet.objects.filter(table__day=day).count(),
            Score.objects.filter(sheet__table__day=day).count(),
            AuditEvent.objects.filter(table__day=day).count(),
        )

    tables = -(-players // 7)
    games = tables * 6
    whole = (games, players * 6, games)
    target = crash_and_restart(
        server=server,
        watch=watch,
        fresh_target=fresh_target,
        send=send,
        rows_of=rows_of,
        whole=whole,
        sequence="scoring_score",
        sequence_rows=players * 6,
    )
    assert rows_of(made[0]) == whole

    # After the restart the same workbook goes in whole, as new games: had part of the killed
    # import survived, those games would be reported unchanged, not entered.
    browser = Browser(server.port)
    browser.login(organiser.username, PASSWORD)
    response = send(target)
    assert response.status == 302, response.body[:2000]
    assert rows_of(target) == whole
    assert (
        AuditEvent.objects.filter(table__day=target[1], action=AuditEvent.ENTERED).count() == games
    )
