"""Venue benchmark -- run as ``.venv/bin/python bench/venue.py``.

Starts the venue configuration (`make venue`'s gunicorn settings, config/gunicorn_venue.py:
threaded workers with a per-client time limit; DJANGO_DEBUG=0, venue mode) on 127.0.0.1 with a
throwaway SQLite event of 300 players at 43 tables, and reports, PASS or FAIL for each:

* slow clients: the 43 tables save two games each with no slow clients (round A1), two more
  while 20 connections hold half a request open (round B), and the last two with none again
  (round A2). 0 errors, every game stored once; the p95 of the saves with the slow clients (B)
  and without them (A1 and A2 together) and their ratio, measured in this run; and the stalled
  connections closed by the server once its time limit is up (the longest held against that
  limit, at most 2x).
* attacks (bench/venue_attacks.py): on a third event, the 43 tables save while one address
  trickles 80 connections a byte every 5 s (round C) and while four posts of 300 MB are sent
  (round D): 0 errors, every game stored once, p95 within 3x of the same tables' round without
  (A3), the largest worker under 300 MB.
* a light table page: the bytes and requests of a first load (the page, then every stylesheet,
  script, image and icon it names; the favicon a browser asks for unless the page names one),
  at most 50 KB and 4 requests.
* a retried save stored once: a save sent, its answer lost (the client hangs up without
  reading it), then sent again with the same submission id, and once more: one stored version.
* weak Wi-Fi (bench/weak_wifi.py): the 43 tables of a second event, each a phone in Chromium at
  400 kbps and 400 ms with 5% of requests dropped and 2% hung; every save stored exactly once
  with the numbers last on its screen, the p95 from tap to "saved", and the saves retried.

``--weak-wifi`` runs only the last section, ``--attacks`` only the attack rounds.

For comparison (not a target), the README's former venue command, gunicorn's sync workers, is
started on the same database with 3 stalled connections, and one phone asks for its page.

Only loopback addresses are used. Every loop is bounded in count and time.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import secrets
import shutil
import socket
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.http_load import (  # noqa: E402  (the project is put on the path just above)
    HTTP_TIMEOUT,
    Browser,
    Log,
    free_port,
    inputs,
    percentile,
    scorekeeper,
    start_server,
    stop_server,
    sync_settings,
    wait_until_serving,
)
from bench.venue_attacks import attack_rounds  # noqa: E402
from bench.weak_wifi import weak_wifi_section  # noqa: E402

PLAYERS = 300
SLOW_CLIENTS = 20
GAMES_PER_ROUND = 2  # three rounds: the day's six games
ROUND_SECONDS = 120  # each round's clients stop at this deadline, whatever happens
CLIENT_TIMEOUT = 15  # seconds; passed to the server as VENUE_CLIENT_TIMEOUT
RATIO_TARGET = 3.0
# A stalled connection is closed once the server's time limit on reads is up; the bench gives it
# as long again for the rounds of saves running meanwhile and its own polling.
CLOSE_RATIO_TARGET = 2.0
PAGE_BYTES_TARGET = 50 * 1024
PAGE_REQUESTS_TARGET = 4


# ---------------------------------------------------------------------------
# The server, exactly as `make venue` starts it, but on 127.0.0.1 and a free port
# ---------------------------------------------------------------------------


def start_venue_server(env: dict, port: int, log_path: Path):
    import subprocess

    with open(log_path, "ab") as log_file:  # the server keeps its own copy of the handle
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn_venue.py", "config.wsgi"],
            cwd=ROOT,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return wait_until_serving(process, port, log_path)


# ---------------------------------------------------------------------------
# Slow clients
# ---------------------------------------------------------------------------


def open_half_requests(port: int, path: str, count: int = SLOW_CLIENTS) -> list[socket.socket]:
    """Connections that send the start of a save and then nothing more, as a phone whose
    Wi-Fi dropped mid-request (or someone doing it on purpose) would."""
    held = []
    for n in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        # The headers stop half-way: the server reads on in a worker thread, waiting for the rest.
        sock.sendall(
            (
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"X-Slow-Client: {n}\r\nContent-Type: application/x-www-"
            ).encode()
        )
        held.append(sock)
    return held


def closed_by_server(sock: socket.socket) -> bool:
    """Has the server closed this connection (end of stream, or a reset)?"""
    sock.settimeout(0.05)
    try:
        return sock.recv(4096) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def wait_for_closes(held: list[socket.socket], opened: float) -> tuple[int, float]:
    """How many stalled connections the server closed within CLOSE_RATIO_TARGET times its time
    limit of their opening (``opened``, monotonic), and how long the last one was held."""
    closed: set[int] = set()
    last = 0.0
    give_up = opened + CLIENT_TIMEOUT * CLOSE_RATIO_TARGET
    while time.monotonic() < give_up and len(closed) < len(held):
        for i, sock in enumerate(held):
            if i not in closed and closed_by_server(sock):
                closed.add(i)
                last = time.monotonic() - opened
        time.sleep(0.2)
    return len(closed), last


def warm_up(port: int, paths: list[str]) -> None:
    """Every table's page opened at once, twice, before the clock starts: each worker thread
    loads its code and templates, as on a server that has been up since the morning."""

    def fetch(path):
        with contextlib.suppress(OSError):
            Browser(port).get(path)

    for _ in range(2):
        threads = [threading.Thread(target=fetch, args=(path,)) for path in paths]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=HTTP_TIMEOUT)


def phone_address(table_number: int) -> str:
    """Each table's phone sends from its own loopback address, as phones on the Wi-Fi do."""
    return f"127.0.1.{table_number}"


def save_round(port: int, tables: dict[int, str], games: int) -> Log:
    """Every table's phone saves ``games`` games at once (entry_load's scorekeeper client)."""
    log = Log()
    deadline = time.monotonic() + ROUND_SECONDS
    threads = [
        threading.Thread(
            target=scorekeeper,
            args=(port, n, token, games, log, deadline, 7000 + n + games, phone_address(n)),
        )
        for n, token in sorted(tables.items())
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()) + HTTP_TIMEOUT)
    hung = [t for t in threads if t.is_alive()]
    if hung:
        log.error(f"{len(hung)} phones still running at the deadline")
    return log


# ---------------------------------------------------------------------------
# The table page's weight
# ---------------------------------------------------------------------------

ASSET = re.compile(r'<(?:link|script|img)\b[^>]*?(?:href|src)="(/[^"]+)"', re.I)


def raw_get(port: int, path: str) -> tuple[int, int]:
    """Status and bytes on the wire of a GET as a phone's browser sends it (gzip accepted)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HTTP_TIMEOUT)
    try:
        conn.request(
            "GET", path, headers={"Host": f"127.0.0.1:{port}", "Accept-Encoding": "gzip, br"}
        )
        response = conn.getresponse()
        body = response.read()
        head = sum(len(f"{k}: {v}\r\n") for k, v in response.getheaders()) + 20
        return response.status, len(body) + head
    finally:
        conn.close()


def page_weight(port: int, path: str) -> tuple[int, int, list[str]]:
    """Bytes and requests of a first load of ``path``, and what was fetched."""
    page = Browser(port).get(path)
    status, html_bytes = raw_get(port, path)
    fetched = [f"{path} ({html_bytes} B)"]
    total, requests = html_bytes, 1
    assets = list(dict.fromkeys(ASSET.findall(page.body)))
    if not re.search(r'<link\b[^>]*rel="icon"', page.body):
        assets.append("/favicon.ico")  # a browser asks for it when the page names no icon
    for asset in assets[:20]:
        status, size = raw_get(port, asset)
        fetched.append(f"{asset} ({size} B, {status})")
        total += size
        requests += 1
    return total, requests, fetched


# ---------------------------------------------------------------------------
# A retried save
# ---------------------------------------------------------------------------


def post_and_hang_up(port: int, path: str, fields: dict, cookies: dict) -> None:
    """Send a save and close the connection without reading the answer: the answer is lost."""
    body = urlencode(fields).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"Cookie: {'; '.join(f'{k}={v}' for k, v in cookies.items())}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(head + body)


def retried_save(port: int, token: str) -> tuple[bool, str]:
    from scoring.models import GameSheet, TableSubmission

    browser = Browser(port)
    path = f"/table/{token}/"
    fields = inputs(browser.get(path).body)
    players = [name for name in fields if name.startswith("score-")]
    post = {
        "csrfmiddlewaretoken": fields["csrfmiddlewaretoken"],
        "game": fields["game"],
        "base_version": fields["base_version"],
        "engine": "12",
        f"out-{players[0].split('-', 1)[1]}": "on",
        "submission_id": secrets.token_hex(16),
        **{name: "0" if i == 0 else str(10 + i) for i, name in enumerate(players)},
    }
    post_and_hang_up(port, path, post, browser.cookies)
    # The first copy is stored in its own time; wait until it is (bounded), then send it again.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not GameSheet.objects.filter(table__link_token=token):
        time.sleep(0.1)
    answers = [browser.post(path, post).status for _ in range(2)]
    sheets = list(
        GameSheet.objects.filter(table__link_token=token).values_list("version", flat=True)
    )
    remembered = TableSubmission.objects.filter(key=post["submission_id"]).count()
    detail = (
        f"sent 3 times (first answer lost), answers to the repeats {answers}, "
        f"versions stored {sheets}, submission ids remembered {remembered}"
    )
    return answers == [302, 302] and sheets == [1] and remembered == 1, detail


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------


def seeded_day(slug: str):
    """A day of PLAYERS seated at 43 tables, and each table's link."""
    from tournaments.services.events import create_tournament
    from tournaments.services.registration import register_player
    from tournaments.services.seating import seat_day

    tournament = create_tournament(slug=slug, name=slug.title(), preset_key="tournament")
    for number in range(1, PLAYERS + 1):
        register_player(tournament, name=f"Player {number:03}", club=f"Club {number % 12:02}")
    day = tournament.days.get(number=1)
    seat_day(day, seed=20240601)
    return day, {t.number: t.link_token for t in day.tables.all()}


def seed():
    from tournaments.services.events import create_tournament
    from tournaments.services.registration import register_player
    from tournaments.services.seating import seat_day

    day, tables = seeded_day("venue")
    spare = create_tournament(slug="retry", name="Retry", preset_key="tournament")
    for number in range(1, 5):
        register_player(spare, name=f"Retry player {number}")
    spare_day = spare.days.get(number=1)
    seat_day(spare_day, seed=1)
    return day, tables, spare_day.tables.get().link_token


def report_round(name: str, log: Log, expected: int) -> tuple[float, bool]:
    ms = log.score_post_ms
    p95 = percentile(ms, 0.95) if ms else float("nan")
    print(
        f"round {name}: {len(log.submitted)} of {expected} saves answered, "
        f"{len(log.errors)} errors, p95 {p95:.0f} ms, max {max(ms or [0]):.0f} ms"
    )
    for line in log.errors[:5]:
        print(f"  - {line}")
    return p95, not log.errors and len(log.submitted) == expected


# What the attack rounds (bench/venue_attacks.py) save with: the same rounds as the others.
SAVE_ROUNDS = SimpleNamespace(
    games=GAMES_PER_ROUND, save_round=save_round, report_round=report_round
)


def slow_client_rounds(port: int, day, tables: dict[int, str]) -> list[tuple[str, bool]]:
    """Saves without slow clients (rounds A1 and A2, before and after, so warming up and a
    busy machine weigh on both sides) and with SLOW_CLIENTS half-open connections (round B)."""
    from scoring.models import LIVE_STATES, GameSheet

    expected = len(tables) * GAMES_PER_ROUND
    round_a1 = save_round(port, tables, GAMES_PER_ROUND)
    _, ok_a1 = report_round("A1 (no slow clients)", round_a1, expected)

    opened = time.monotonic()
    held = open_half_requests(port, f"/table/{tables[1]}/")
    time.sleep(1)  # let every stalled connection reach a worker thread
    try:
        still_open = sum(not closed_by_server(sock) for sock in held)
        round_b = save_round(port, tables, GAMES_PER_ROUND)
        p95_b, ok_b = report_round(f"B ({still_open} half-open connections)", round_b, expected)
        still_open_after = sum(not closed_by_server(sock) for sock in held)
        print(f"half-open connections still open when round B ended: {still_open_after}")
        closed, last = wait_for_closes(held, opened)
    finally:
        for sock in held:
            sock.close()
    round_a2 = save_round(port, tables, GAMES_PER_ROUND)
    _, ok_a2 = report_round("A2 (no slow clients)", round_a2, expected)
    without = round_a1.score_post_ms + round_a2.score_post_ms
    p95_a = percentile(without, 0.95)
    ok_a = ok_a1 and ok_a2
    expected *= 3
    ratio = p95_b / p95_a if p95_a else float("inf")
    print(f"p95 with / without the slow clients: {p95_b:.0f} / {p95_a:.0f} ms = {ratio:.2f}")
    close_ratio = last / CLIENT_TIMEOUT
    print(
        f"stalled connections closed by the server: {closed} of {len(held)}, the last held "
        f"{last:.1f} s: {close_ratio:.2f}x the server's time limit ({CLIENT_TIMEOUT} s)"
    )
    stored = GameSheet.objects.filter(table__day=day, state__in=LIVE_STATES).count()
    duplicates = GameSheet.objects.filter(table__day=day, version__gt=1).count()
    print(f"games stored: {stored} of {expected}, duplicates {duplicates}")
    return [
        (
            f"{SLOW_CLIENTS} half-open connections held while {len(tables)} tables save: "
            f"0 errors, every game stored once, p95 ratio {ratio:.2f} <= {RATIO_TARGET}",
            ok_a
            and ok_b
            and still_open == still_open_after == SLOW_CLIENTS
            and stored == expected
            and duplicates == 0
            and ratio <= RATIO_TARGET,
        ),
        (
            f"every stalled connection closed within {CLOSE_RATIO_TARGET:g}x the server's time "
            f"limit: the last {close_ratio:.2f}x",
            closed == len(held) and close_ratio <= CLOSE_RATIO_TARGET,
        ),
    ]


def sync_comparison(env: dict, work: Path, token: str) -> None:
    """For comparison, not a target: the README's former venue command (gunicorn's sync
    workers, 3 of them) with 3 stalled connections, and one phone opening its table page."""
    port = free_port()
    sync_env = {**env, "DJANGO_PORT": str(port)}
    process = start_server(sync_env, port, work / "sync.log", sync_settings())
    try:
        held = open_half_requests(port, f"/table/{token}/", count=3)
        time.sleep(1)
        started = time.monotonic()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", f"/table/{token}/", headers={"Host": f"127.0.0.1:{port}"})
            answer = f"answered {conn.getresponse().status}"
        except OSError as error:
            answer = f"no answer ({type(error).__name__})"
        waited = time.monotonic() - started
        for sock in held:
            sock.close()
        print(
            f"for comparison, sync workers (3) with 3 stalled connections: a table page "
            f"{answer} after {waited:.1f} s (gave up at 10 s)"
        )
    finally:
        stop_server(process)


def run(work: Path, env: dict, only: str = "") -> bool:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    started = time.monotonic()
    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    day, tables, retry_token = seed()
    wifi_day, wifi_tables = seeded_day("wifi")
    attack_day, attack_tables = seeded_day("attack")
    print(f"seeded in {time.monotonic() - started:.1f} s: {len(tables)} tables", flush=True)
    connections.close_all()

    port = int(env["DJANGO_PORT"])
    server = start_venue_server(env, port, work / "gunicorn.log")
    targets = []
    try:
        warm_up(port, [f"/table/{token}/" for token in tables.values()])
        if only == "--weak-wifi":
            targets += weak_wifi_section(port, wifi_day, wifi_tables)
            return report(targets)
        if only == "--attacks":
            targets += attack_rounds(port, server.pid, attack_day, attack_tables, SAVE_ROUNDS)
            return report(targets)
        targets += slow_client_rounds(port, day, tables)
        targets += attack_rounds(port, server.pid, attack_day, attack_tables, SAVE_ROUNDS)

        total, requests, fetched = page_weight(port, f"/table/{retry_token}/")
        print(f"table page, first load: {total} bytes in {requests} requests: {', '.join(fetched)}")
        targets.append(
            (
                f"table page {total / 1024:.1f} KB in {requests} requests "
                f"(at most {PAGE_BYTES_TARGET // 1024} KB and {PAGE_REQUESTS_TARGET} requests)",
                total <= PAGE_BYTES_TARGET and requests <= PAGE_REQUESTS_TARGET,
            )
        )

        ok, detail = retried_save(port, retry_token)
        print(f"retried save: {detail}")
        targets.append(("a retried submission is stored once", ok))
        targets += weak_wifi_section(port, wifi_day, wifi_tables)
    finally:
        stop_server(server)
    sync_comparison(env, work, retry_token)
    log_text = (work / "gunicorn.log").read_text(errors="replace")
    tracebacks = Counter(
        line.strip() for line in log_text.splitlines() if line.startswith(("TimeoutError", "Trace"))
    )
    if tracebacks:
        print(f"server log: {dict(tracebacks)}")
    return report(targets)


def report(targets: list[tuple[str, bool]]) -> bool:
    for name, ok in targets:
        print(f"{'PASS' if ok else 'FAIL'} {name}")
    return all(ok for _, ok in targets)


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="venue-bench-"))
    # collectstatic goes to the temporary folder: a stray staticfiles/ in the project would
    # shadow static/ for the development server.
    (work / "bench_settings.py").write_text(
        "from config.settings import *  # noqa: F401,F403\n"
        f"STATIC_ROOT = {str(work / 'static')!r}\n",
        encoding="utf-8",
    )
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{work / 'bench.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "bench_settings",
        "PYTHONPATH": os.pathsep.join([str(work), str(ROOT)]),
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_VENUE_MODE": "1",
        # make venue takes backups on its own; here they go with the rest of the run.
        "DJANGO_BACKUP_DIR": str(work / "backups"),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_BASE_URL": f"http://127.0.0.1:{port}",
        "DJANGO_PORT": str(port),
        "VENUE_HOST": "127.0.0.1",
        "VENUE_CLIENT_TIMEOUT": str(CLIENT_TIMEOUT),
    }
    os.environ.update(env)
    sys.path.insert(0, str(work))
    print(f"== venue configuration on 127.0.0.1:{port}, {PLAYERS} players ==", flush=True)
    try:
        only = next((arg for arg in sys.argv[1:] if arg in ("--weak-wifi", "--attacks")), "")
        ok = run(work, env, only)
    finally:
        from django.db import connections

        connections.close_all()
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n{'PASS' if ok else 'FAIL'} overall")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
