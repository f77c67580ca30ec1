"""Load benchmark for score entry: the venue server against 3 sync workers, in one run.

Run as ``.venv/bin/python bench/entry_load.py [--db sqlite|postgres|both]
[--server both|venue|sync] [--players N] [--rounds R] [--baseline REF]``.

Servers take the same load turn about, R rounds each (5 unless told), each round on a fresh
database: gunicorn with
``make venue``'s settings (config/gunicorn_venue.py: threaded workers, each running the app for
one request at a time) and gunicorn with 3 plain sync workers, both with DJANGO_DEBUG=0 and venue
mode. Each serves a throwaway event of 300 players seated at 43 tables for day 1 of the
``tournament`` preset. Before the clock starts, as at a venue where the server has been up since
the morning, a few rounds of concurrent GETs load each worker's code and templates, and the desk
volunteers sign in through the login form (django-axes on; a password check is deliberately
slow, and desks sign in long before the first game ends). Then, all at once:

* one scorekeeper client per table opens its table link and submits the day's six games as fast
  as it can (valid scores: one player out with 0, the others 1..60, the scheduled engine), each
  POST followed by the redirect the page sends;
* the three desk clients poll the day grid and confirm every entered game of their share of
  the tables on its review page.

Afterwards the database is read directly: games stored against games submitted, duplicates, lost
games, and the standings selector against totals recomputed from the numbers the clients sent. The
two servers' figures are set side by side with their ratios (the target: the score posts' p95, venue
/ sync, the median of the rounds' ratios). Last, today's code and the baseline's are served at once,
3 sync workers each on a fresh database, and the same games are saved on both turn about, one
request at a time (bench/baseline.py; ``--baseline REF`` picks the commit, ``--baseline ''`` leaves
it out): the ratio of a save's time inside a worker, today / then. One PASS/FAIL line per target;
every target is a count or a ratio of two figures measured in this run. The timing targets are
judged on SQLite, make venue's database, and reported on PostgreSQL.

Each server gets a fresh, throwaway store: a SQLite file in a temporary folder, or a PostgreSQL
database (``entry_load_bench``, or BENCH_PG_DB) created on 127.0.0.1 and dropped at the end.
``--db both`` runs each database in its own child process, since Django binds its settings once
per process.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.entry_load_report import print_report  # noqa: E402
from bench.http_load import (  # noqa: E402  (the project is put on the path just above)
    DESKS,
    HTTP_TIMEOUT,
    SYNC_WORKERS,
    VENUE_SETTINGS,
    Log,
    desk,
    free_port,
    log_in,
    median_of,
    p50_p95,
    p95_of,
    scorekeeper,
    start_server,
    stop_server,
    sync_settings,
    warm_up,
)

PLAYERS = 300  # --players for a short run while developing
RUN_SECONDS = 120  # every client loop stops at this deadline, whatever happens
ROUNDS = 5  # --rounds: each server's, turn about
PG_ADMIN_URL = os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
PG_BENCH_DB = os.environ.get("BENCH_PG_DB", "entry_load_bench")


@dataclass(frozen=True)
class _Server:
    settings: list[str]
    label: str
    tree: Path = ROOT  # the code it serves


SERVERS = {
    "venue": _Server(VENUE_SETTINGS, "gunicorn with the venue settings (make venue)"),
    "sync": _Server(sync_settings(), f"gunicorn with {SYNC_WORKERS} sync workers"),
}
# The venue server's score-post p95 may be at most this times the sync workers' in the same run.
# No allowance for noise is added. Instead the servers take several rounds each, turn about on the
# same machine, and the target is judged on the median of the rounds' ratios: one round's phones
# are done in about two seconds, short enough for a burst of other work on the machine to decide
# a single round (seen here: one round's ratio 0.49 and the next one's 1.61, the code unchanged).
P95_RATIO_TARGET = 1.0
# The code before issue 22's rewrite of the save (the issue's figure for it: 26 ms a save inside
# a sync worker under the load, on a quiet machine). It is served beside today's code in the same
# run, and today's save inside a sync worker must take at most SAVE_RATIO_TARGET of its.
BASELINE_REF = "d58c4eae5d76a30f9675d61f8739df9bab34f25b"
SAVE_RATIO_TARGET = 2 / 3


# ---------------------------------------------------------------------------
# One database, both servers
# ---------------------------------------------------------------------------


def pg_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(sql)


def run_one(
    db: str, servers: list[str], players: int, baseline_ref: str, rounds: int = ROUNDS
) -> bool:
    work = Path(tempfile.mkdtemp(prefix="entry-load-"))
    env = _environment(db, work)
    os.environ.update(env)
    sys.path.insert(0, str(work))
    import django

    django.setup()
    try:
        outcomes: dict[str, list[_Outcome]] = {server: [] for server in servers}
        for turn in range(rounds):
            # Turn about, and the other way round on every second round, so that whatever else
            # the machine is doing, and whichever runs first, falls on both servers alike.
            for server in servers if turn % 2 == 0 else servers[::-1]:
                _fresh_database(db, work)
                outcomes[server].append(_run(db, server, work, env, players, turn, rounds))
        ok = all(outcome.ok for runs in outcomes.values() for outcome in runs)
        if len(outcomes) == len(SERVERS):
            ok = _compare(db, outcomes["venue"], outcomes["sync"]) and ok
        if "sync" in outcomes and baseline_ref:
            ok = _compare_saves(db, work, env, players, baseline_ref) and ok
        return ok
    finally:
        from django.db import connections

        connections.close_all()
        if db == "postgres":
            pg_admin(f'DROP DATABASE IF EXISTS "{PG_BENCH_DB}" WITH (FORCE)')
            pg_admin(f'DROP DATABASE IF EXISTS "{PG_BENCH_DB}_then" WITH (FORCE)')
        shutil.rmtree(work, ignore_errors=True)


def _environment(db: str, work: Path) -> dict:
    # A settings module of our own only to send collectstatic's output to the temporary folder:
    # a stray staticfiles/ in the project would shadow static/ for everyone's dev server.
    (work / "bench_settings.py").write_text(
        "from config.settings import *  # noqa: F401,F403\n"
        f"STATIC_ROOT = {str(work / 'static')!r}\n",
        encoding="utf-8",
    )
    if db == "sqlite":
        url = f"sqlite:///{work / 'bench.sqlite3'}"
    else:
        url = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{PG_BENCH_DB}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "bench_settings",
        "PYTHONPATH": os.pathsep.join([str(work), str(ROOT)]),
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_VENUE_MODE": "1",
        # make venue takes backups on its own; here they go with the rest of the run.
        "DJANGO_BACKUP_DIR": str(work / "backups"),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
    }
    env.pop("AXES_ENABLED", None)  # the login throttle stays on, as at a real event
    return env


def _fresh_database(db: str, work: Path) -> None:
    """An empty database under the same name, so the settings Django bound still hold."""
    from django.db import connections

    connections.close_all()
    if db == "sqlite":
        for suffix in ("", "-wal", "-shm", ".writers"):
            (work / f"bench.sqlite3{suffix}").unlink(missing_ok=True)
    else:
        pg_admin(f'DROP DATABASE IF EXISTS "{PG_BENCH_DB}" WITH (FORCE)')
        pg_admin(f'CREATE DATABASE "{PG_BENCH_DB}"')


@dataclass
class _Event:
    """The throwaway event the load runs against."""

    tournament: Any
    day: Any
    tables: dict[int, str]  # table number -> link token
    games: int
    desks: list[tuple[str, str]]  # username, password
    players: int
    slug: str


@dataclass
class _Load:
    """What driving the clients produced, and what it cost."""

    log: Log
    phones_seconds: float
    all_seconds: float
    client_cpu: float
    server_cpu: float


@dataclass
class _ServerLog:
    tracebacks: int
    in_worker: dict[str, list[float]]  # ms inside a worker per request, by kind of request
    in_app: dict[str, list[float]]  # of which inside Django (bench/timed_wsgi.py)


@dataclass
class _Outcome:
    """One server's run: the figures the comparison needs, and whether its own targets passed."""

    score_post_ms: list[float]  # as the phones timed them
    server: _ServerLog
    ok: bool


@dataclass
class _Stored:
    """What the database holds after the load, against what the clients sent."""

    stored: int
    confirmed: int
    duplicates: int
    lost: list[tuple[int, int]]
    unexpected: list[tuple[int, int]]


@dataclass
class _StandingsCheck:
    table: Any  # the standings as the app computes them
    mismatched: list[int]
    equal: bool


@dataclass(frozen=True)
class _Stats:
    """A player's record from what the clients sent, in the shape a tie-break reads."""

    games_out: int
    worst_game: int | None


def _run(
    db: str, server: str, work: Path, env: dict, players: int, turn: int, rounds: int
) -> _Outcome:
    """One round of one server: the full report on the first round, its targets on every one."""
    label = f"{SERVERS[server].label}, round {turn + 1} of {rounds}"
    print(f"\n== {db}: {players} players, {label} ==", flush=True)
    event = _seed_event(players)
    name = f"{server}-{turn}"
    load = _drive_load(event, env, work, name, SERVERS[server])
    server_log = _read_server_log(work, name)
    stored = _stored_games(event, load.log)
    check = _check_standings(event, load.log)
    if turn == 0:
        print_report(event, load, server_log, stored, check)
    else:
        print(f"score POSTs: {p50_p95(load.log.score_post_ms)}")
    ok = _verdict(f"{db}, {server}", event, load.log, server_log, stored, check)
    return _Outcome(load.log.score_post_ms, server_log, ok)


def _seed_event(players: int) -> _Event:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections

    from tournaments.models import StaffRole
    from tournaments.services.events import create_tournament
    from tournaments.services.registration import register_player
    from tournaments.services.seating import seat_day

    started = time.monotonic()
    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    tournament = create_tournament(slug="entry-load", name="Entry load", preset_key="tournament")
    for number in range(1, players + 1):
        register_player(tournament, name=f"Player {number:03}", club=f"Club {number % 12:02}")
    day = tournament.days.get(number=1)
    outcome = seat_day(day, seed=20240601)
    tables = {t.number: t.link_token for t in day.tables.all()}
    games = tournament.rules.games_per_day
    desks = []
    for index in range(DESKS):
        password = secrets.token_urlsafe(16)
        user = get_user_model().objects.create_user(f"desk{index}", password=password)
        StaffRole.objects.create(tournament=tournament, user=user, role=StaffRole.DESK)
        desks.append((f"desk{index}", password))
    sizes = Counter(len(t) for t in outcome.tables)
    print(
        f"seeded in {time.monotonic() - started:.1f} s: {len(tables)} tables "
        f"({', '.join(f'{n} of {s}' for s, n in sorted(sizes.items(), reverse=True))}), "
        f"{games} games each",
        flush=True,
    )
    connections.close_all()
    return _Event(tournament, day, tables, games, desks, players, tournament.slug)


def _fresh_throttle_counts(env: dict, folder: Path) -> dict:
    """A count of its own for the next run: another run's desk logins must not throttle it (the
    database's count today; a baseline tree's, bench/baseline.py, in the folder given)."""
    from django.db import connections

    from core.models import ThrottleCount

    ThrottleCount.objects.all().delete()
    connections.close_all()
    return {**env, "DJANGO_THROTTLE_DIR": str(folder)}


def _drive_load(event: _Event, env: dict, work: Path, name: str, spec: _Server) -> _Load:
    """Start the server, run every table's phone and every desk against it, stop it."""
    port = free_port()
    env = _fresh_throttle_counts(env, work / f"{name}-throttles")
    before = os.times()  # the server's CPU shows in children_* once it is reaped
    server = start_server(
        env,
        port,
        work / f"{name}-gunicorn.log",
        spec.settings,
        access_log=work / f"{name}-access.log",
        tree=spec.tree,
    )
    log = Log()
    try:
        tokens = list(event.tables.values())
        warm_up(port, [f"/table/{token}/" for token in tokens[: SYNC_WORKERS * 2]])
        grid_path = f"/organiser/t/{event.slug}/day/1/scores/"
        signed_in = [
            (username, log_in(port, username, password, grid_path))
            for username, password in event.desks
        ]
        deadline = time.monotonic() + RUN_SECONDS
        tables_done = threading.Event()
        phones = [
            threading.Thread(
                target=scorekeeper, args=(port, n, token, event.games, log, deadline, 1000 + n)
            )
            for n, token in sorted(event.tables.items())
        ]
        desk_threads = [
            threading.Thread(
                target=desk,
                args=(browser, i, username, event.slug, log, deadline, tables_done),
            )
            for i, (username, browser) in enumerate(signed_in)
        ]
        load_started = time.monotonic()
        client_cpu = time.process_time()
        for thread in desk_threads + phones:
            thread.start()
        for thread in phones:
            thread.join(timeout=max(0.0, deadline - time.monotonic()) + HTTP_TIMEOUT)
        phones_seconds = time.monotonic() - load_started
        tables_done.set()
        for thread in desk_threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()) + HTTP_TIMEOUT)
        all_seconds = time.monotonic() - load_started
        client_cpu = time.process_time() - client_cpu
        hung = [t for t in phones + desk_threads if t.is_alive()]
        if hung:
            log.error(f"{len(hung)} clients still running at the deadline")
    finally:
        stop_server(server)
    after = os.times()
    server_cpu = (
        after.children_user + after.children_system - before.children_user - before.children_system
    )
    return _Load(log, phones_seconds, all_seconds, client_cpu, server_cpu)


def _read_server_log(work: Path, server_name: str) -> _ServerLog:
    server_log = (work / f"{server_name}-gunicorn.log").read_text(errors="replace")
    if "Traceback (most recent call last)" in server_log:  # the folder goes at the end: show it
        print(server_log[server_log.index("Traceback (most recent call last)") :][:3000])
    in_worker: dict[str, list[float]] = {}
    in_app: dict[str, list[float]] = {}
    for line in (work / f"{server_name}-access.log").read_text().splitlines():
        method, path, _status, seconds, app_ms = line.split()[:5]
        kind = _request_kind(method, path)
        in_worker.setdefault(kind, []).append(float(seconds) * 1000)
        if app_ms != "-":  # a request refused before the app (a 408) has no time inside it
            in_app.setdefault(kind, []).append(float(app_ms))
    tracebacks = server_log.count("Traceback (most recent call last)")
    return _ServerLog(tracebacks, in_worker, in_app)


def _request_kind(method: str, path: str) -> str:
    if path.startswith("/table/"):
        return "score POST" if method == "POST" else "table page"
    if path.endswith("/scores/"):
        return "desk grid"
    if path.endswith("/review/"):
        return "desk confirm" if method == "POST" else "desk review"
    return "other"


def _stored_games(event: _Event, log: Log) -> _Stored:
    """What the database holds now, against what the clients sent."""
    from scoring.models import LIVE_STATES, GameSheet, SheetState

    live = GameSheet.objects.filter(table__day=event.day, state__in=LIVE_STATES)
    stored = live.count()
    confirmed = live.filter(state=SheetState.CONFIRMED).count()
    # Each game is submitted once and confirming does not make a version, so any version after
    # the first is a game saved twice (two live copies are already impossible: a constraint).
    duplicates = GameSheet.objects.filter(table__day=event.day, version__gt=1).count()
    stored_scores = {}
    for sheet in live.select_related("table", "game").prefetch_related("scores"):
        stored_scores[(sheet.table.number, sheet.game.number)] = (
            {s.entry_id: s.points for s in sheet.scores.all()},
            sheet.went_out_id,
        )
    lost = [
        key
        for key, scores in log.submitted.items()
        if stored_scores.get(key) != (scores, log.outs[key])
    ]
    unexpected = [key for key in stored_scores if key not in log.submitted]
    return _Stored(stored, confirmed, duplicates, lost, unexpected)


def _check_standings(event: _Event, log: Log) -> _StandingsCheck:
    """The standings against a recomputation from what the clients sent."""
    from domain.tie_breaks import resolve_tie_breaks
    from standings.read import COMPLETE, Cut, standings
    from tournaments.models import Entry

    tournament = event.tournament
    tie_breaks = resolve_tie_breaks(tournament.rules.tie_breaks or ())
    totals: Counter = Counter()
    played: Counter = Counter()
    outs: Counter = Counter()
    worst: dict[int, int] = {}
    for game_key, scores in log.submitted.items():
        for entry_id, points in scores.items():
            totals[entry_id] += points
            played[entry_id] += 1
            worst[entry_id] = max(worst.get(entry_id, 0), points)
        outs[log.outs[game_key]] += 1
    entries = list(Entry.objects.filter(tournament=tournament).values_list("pk", flat=True))

    def rank_key(entry_id):
        # A player with no games has no worst game: the tie-break ranks them below everyone.
        stats = _Stats(games_out=outs[entry_id], worst_game=worst.get(entry_id))
        return (totals[entry_id], *(part for t in tie_breaks for part in t.sort_key(stats)))

    expected_rank = {e: 1 + sum(1 for o in entries if rank_key(o) < rank_key(e)) for e in entries}
    table = standings(tournament, Cut(day=1))  # day 2 is not seated: the event so far
    mismatched = [
        row.record.entry_id
        for row in table.rows
        if (row.total, row.record.games_played, row.record.games_out, row.rank)
        != (
            totals[row.record.entry_id],
            played[row.record.entry_id],
            outs[row.record.entry_id],
            expected_rank[row.record.entry_id],
        )
    ]
    # Day 2 is not seated, so the event is not over: the view after day 1 is complete (every
    # game it counts confirmed), not final.
    complete = table.state == COMPLETE
    equal = len(table.rows) == len(entries) == event.players and not mismatched and complete
    return _StandingsCheck(table, mismatched, equal)


def _verdict(
    name: str, event: _Event, log: Log, server: _ServerLog, stored: _Stored, check: _StandingsCheck
) -> bool:
    """Print PASS or FAIL for each of one server's targets; True when every one passes."""
    expected = len(event.tables) * event.games
    targets = [
        ("0 errors", not log.errors and not server.tracebacks),
        (
            "every game stored, 0 lost",
            stored.stored == expected
            and len(log.submitted) == expected
            and not stored.lost
            and not stored.unexpected,
        ),
        ("0 duplicates", stored.duplicates == 0),
        ("every game confirmed by the desk", stored.confirmed == expected),
        ("standings equal the recomputation", check.equal),
    ]
    for target, ok in targets:
        print(f"{'PASS' if ok else 'FAIL'} [{name}] {target}")
    return all(ok for _, ok in targets)


# ---------------------------------------------------------------------------
# The two servers side by side
# ---------------------------------------------------------------------------


def _compare(db: str, venue: list[_Outcome], sync: list[_Outcome]) -> bool:
    """The two servers' figures over every round, their ratio venue / sync, and the p95 target."""
    print(
        f"\n== {db}: the venue settings against {SYNC_WORKERS} sync workers, the same load, "
        f"{len(venue)} rounds each, turn about =="
    )
    ratios = []
    for turn, (venue_run, sync_run) in enumerate(zip(venue, sync, strict=True), start=1):
        mine, other = p95_of(venue_run.score_post_ms), p95_of(sync_run.score_post_ms)
        ratios.append(mine / other)
        print(f"round {turn}: score POST p95 {mine:.0f} / {other:.0f} ms = {mine / other:.2f}")

    def pooled(runs: list[_Outcome], pick) -> list[float]:
        return [value for run in runs for value in pick(run)]

    def worker(kind: str):
        return lambda o: o.server.in_worker.get(kind, [])

    def app(kind: str):
        return lambda o: o.server.in_app.get(kind, [])

    figures = [
        ("score POST p50, as the phone waits", median_of, lambda o: o.score_post_ms),
        ("score POST p95, as the phone waits", p95_of, lambda o: o.score_post_ms),
        ("save in a worker, median", median_of, worker("score POST")),
        ("save in a worker, p95", p95_of, worker("score POST")),
        ("save in the app, median", median_of, app("score POST")),
        ("table page in the app, median", median_of, app("table page")),
    ]
    print(f"every round together{'':<18}{'venue':>9}{'sync':>9}  venue / sync")
    for label, statistic, values in figures:
        ours, theirs = statistic(pooled(venue, values)), statistic(pooled(sync, values))
        print(f"{label:<38}{ours:>6.0f} ms{theirs:>6.0f} ms  {ours / theirs:.2f}")
    ratio = median_of(ratios)
    target = (
        f"p95 of score POSTs with the venue settings no worse than with {SYNC_WORKERS} sync "
        f"workers: the median of the {len(ratios)} rounds' venue / sync = {ratio:.3f} "
        f"<= {P95_RATIO_TARGET:.2f}"
    )
    return _judged(db, target, ratio <= P95_RATIO_TARGET)


def _judged(db: str, target: str, ok: bool) -> bool:
    """A timing target's line: judged on SQLite, make venue's database; reported elsewhere."""
    if db != "sqlite":
        print(f"(reported only, judged on SQLite, make venue's database: {target})")
        return True
    print(f"{'PASS' if ok else 'FAIL'} [{db}] {target}")
    return ok


# ---------------------------------------------------------------------------
# Today's save against the code before its rewrite
# ---------------------------------------------------------------------------


def _compare_saves(db: str, work: Path, env: dict, players: int, ref: str) -> bool:
    """A save inside a sync worker, today against the code at ``ref``: both served at once on
    fresh databases, the same games saved on each turn about, one request at a time."""
    from bench import baseline

    print(f"\n== {db}: a save inside a sync worker, today against the code at {ref[:7]} ==")
    _fresh_database(db, work)
    tree = baseline.checkout(ref, work / "baseline")
    if tree is None:
        print(
            "REFERENCE, not measured in this run and not judged: 26 ms a save inside a sync "
            "worker on a quiet machine before the save's rewrite (issue 22), goal at most 17 ms"
        )
        return True
    today = _seed_event(players)
    then_env = baseline.environment(tree, env, work, _baseline_database(db, work))
    then = baseline.seed(tree, then_env, players, f"the code at {ref[:7]}")
    sides = {"today": (env, ROOT, today.tables), ref[:7]: (then_env, tree, then["tables"])}
    in_worker, in_app, errors = _paired_save_times(work, sides, today.games)
    for line in errors[:10]:
        print(f"  - {line}")
    print(f"{'':<30}{'today':>9}{ref[:7]:>10}  today / then")
    for label, times in (("save in a worker, median", in_worker), ("in the app", in_app)):
        ours, theirs = median_of(times["today"]), median_of(times[ref[:7]])
        print(f"{label:<30}{ours:>6.1f} ms{theirs:>7.1f} ms  {ours / theirs:.2f}")
    ratio = median_of(in_worker["today"]) / median_of(in_worker[ref[:7]])
    target = (
        f"a save inside a sync worker at least a third faster than the code at {ref[:7]}: "
        f"today / then {ratio:.2f} <= {SAVE_RATIO_TARGET:.2f}"
        + (f" ({len(errors)} saves failed: no comparison)" if errors else "")
    )
    ok = _judged(db, target, not errors and ratio <= SAVE_RATIO_TARGET)
    print(
        "  (for scale, not judged: issue 22 measured 26 ms inside a sync worker under the load, "
        "on a quiet machine, at that code)"
    )
    return ok


def _baseline_database(db: str, work: Path) -> str:
    """A fresh database of its own for the old code, beside this run's."""
    if db == "sqlite":
        return f"sqlite:///{work / 'baseline.sqlite3'}"
    pg_admin(f'DROP DATABASE IF EXISTS "{PG_BENCH_DB}_then" WITH (FORCE)')
    pg_admin(f'CREATE DATABASE "{PG_BENCH_DB}_then"')
    return PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{PG_BENCH_DB}_then"


def _paired_save_times(work: Path, sides: dict, games: int):
    """Both servers (3 sync workers each) up at once, every game saved on each in turn: the
    score POSTs' ms inside a worker and inside the app, by side, and the errors."""
    from bench.baseline import paired_saves

    servers, ports = [], {}
    try:
        for name, (env, tree, _tables) in sides.items():
            ports[name] = free_port()
            env = {**env, "DJANGO_THROTTLE_DIR": str(work / f"pair-{name}-throttles")}
            log, access = work / f"pair-{name}-gunicorn.log", work / f"pair-{name}-access.log"
            servers.append(
                start_server(env, ports[name], log, sync_settings(), access_log=access, tree=tree)
            )
            warm_up(ports[name], [f"/table/{token}/" for token in _tables.values()][:6])
        errors = paired_saves(ports, {name: side[2] for name, side in sides.items()}, games)
    finally:
        for server in servers:
            stop_server(server)
    logs = {name: _read_server_log(work, f"pair-{name}") for name in sides}
    in_worker = {name: log.in_worker.get("score POST", []) for name, log in logs.items()}
    in_app = {name: log.in_app.get("score POST", []) for name, log in logs.items()}
    return in_worker, in_app, errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--server", choices=["both", *SERVERS], default="both")
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument(
        "--rounds", type=int, default=ROUNDS, help="rounds each server takes, turn about"
    )
    parser.add_argument(
        "--baseline",
        default=BASELINE_REF,
        help="the commit whose save today's is measured against ('' for none)",
    )
    args = parser.parse_args()
    if args.db != "both":
        servers = list(SERVERS) if args.server == "both" else [args.server]
        ok = run_one(args.db, servers, args.players, args.baseline, max(1, args.rounds))
        return 0 if ok else 1
    ok = True
    for db in ("sqlite", "postgres"):
        command = [sys.executable, __file__, "--db", db, "--server", args.server]
        command += ["--players", str(args.players), "--baseline", args.baseline]
        command += ["--rounds", str(args.rounds)]
        child = subprocess.run(command, cwd=ROOT)
        ok = ok and child.returncode == 0
    print(f"\n{'PASS' if ok else 'FAIL'} overall")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
