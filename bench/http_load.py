"""The load the server benches drive, shared by bench/entry_load.py, bench/abuse.py and
bench/venue.py: a minimal HTTP client, a table's phone and a desk volunteer as clients, and
gunicorn started, warmed up and stopped.

``BENCH_PORTS=8200-8299`` (say) keeps the servers to a range of ports of one's own on a shared
machine; without it the system picks a free port.
"""

from __future__ import annotations

import html
import http.client
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
HTTP_TIMEOUT = 30
DESKS = 3  # desk volunteers; each confirms the tables whose number % DESKS is its index

# ---------------------------------------------------------------------------
# A minimal HTTP client: one connection per request (gunicorn's sync workers close it anyway),
# its own cookie jar, and the time of each request.
# ---------------------------------------------------------------------------


class Response:
    def __init__(self, status: int, headers, body: str, ms: float):
        self.status, self.headers, self.body, self.ms = status, headers, body, ms

    @property
    def location(self) -> str:
        return urlsplit(self.headers.get("Location", "")).path or ""


class Browser:
    """One phone's HTTP client; ``source`` is the loopback address it sends from (a phone of its
    own on the network, as the venue server counts connections per address)."""

    def __init__(self, port: int, source: str | None = None):
        self.port = port
        self.source = (source, 0) if source else None
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, fields: dict | None = None) -> Response:
        headers = {"Host": f"127.0.0.1:{self.port}", "User-Agent": "entry-load-bench"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=HTTP_TIMEOUT, source_address=self.source
        )
        try:
            started = time.perf_counter()
            conn.request(method, path, body=body, headers=headers)
            raw = conn.getresponse()
            data = raw.read()
            ms = (time.perf_counter() - started) * 1000
        finally:
            conn.close()
        for header in raw.headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(header)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0" or "1970" in morsel["expires"]:
                    self.cookies.pop(name, None)  # Django deletes a cookie this way
                else:
                    self.cookies[name] = morsel.value
        return Response(raw.status, raw.headers, data.decode("utf-8", "replace"), ms)

    def get(self, path: str) -> Response:
        return self.request("GET", path)

    def post(self, path: str, fields: dict) -> Response:
        return self.request("POST", path, fields)


INPUT = re.compile(r"<input\b[^>]*>", re.I)
ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def inputs(page: str) -> dict[str, str]:
    """name -> value of every <input> of a page (a CSRF token is the same in every form)."""
    found = {}
    for tag in INPUT.findall(page):
        attrs = {k: html.unescape(v) for k, v in ATTR.findall(tag)}
        if "name" in attrs:
            found[attrs["name"]] = attrs.get("value", "")
    return found


# ---------------------------------------------------------------------------
# The clients
# ---------------------------------------------------------------------------


class Log:
    """What every client saw. Lists are appended from many threads; list.append is atomic."""

    def __init__(self):
        self.requests = 0
        self.errors: list[str] = []
        self.score_post_ms: list[float] = []
        self.submitted: dict[tuple[int, int], dict[int, int]] = {}  # (table, game) -> scores
        self.outs: dict[tuple[int, int], int] = {}
        self.confirmed: list[tuple[int, int]] = []
        self.lock = threading.Lock()

    def count(self, response: Response) -> Response:
        with self.lock:
            self.requests += 1
        return response

    def error(self, text: str) -> None:
        self.errors.append(text)


# Today's heading marks its numbers for the page's script; the baseline's (bench/baseline.py) did
# not, and both are read.
SCHEDULED = re.compile(
    r"Game (?:<span data-shown-game>)?(\d+)(?:</span>)?\s*<span class=\"muted\">· engine double "
    r"(?:<span data-shown-engine>)?(\d+)"
)


@dataclass
class GameForm:
    """A table page's form for its next game, filled in as a scorekeeper would."""

    game: int
    scores: dict[int, int]  # entry id -> points
    out: int  # the entry id who went out
    fields: dict[str, str]  # what the phone posts


def fill_next_game(page: str, rng: random.Random) -> GameForm | None:
    """The next game's form on a table page, with valid scores (one player out with 0, the
    others 1..60, the scheduled engine); None when the page offers no game to save."""
    fields = inputs(page)
    heading = SCHEDULED.search(page)
    if "game" not in fields or heading is None:
        return None
    game, engine = int(heading.group(1)), int(heading.group(2))
    players = [int(name.split("-", 1)[1]) for name in fields if name.startswith("score-")]
    out = rng.choice(players)
    scores = {p: 0 if p == out else rng.randint(1, 60) for p in players}
    post = {
        "csrfmiddlewaretoken": fields["csrfmiddlewaretoken"],
        "game": fields["game"],
        "base_version": fields["base_version"],
        "engine": str(engine),
        f"out-{out}": "on",
        **{f"score-{p}": str(v) for p, v in scores.items()},
    }
    return GameForm(game, scores, out, post)


def refusal(response: Response) -> str:
    """The error a refused save's page shows, in plain words (at most 200 characters)."""
    problem = re.search(r'<div class="error"[^>]*>(.*?)</div>', response.body, re.S)
    if problem is None:
        return ""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", problem.group(1)))[:200]


def scorekeeper(
    port: int,
    table_number: int,
    token: str,
    games: int,
    log: Log,
    deadline: float,
    seed: int,
    source: str | None = None,
) -> None:
    """One table's phone: open the link, save every game in turn, as fast as the server answers."""
    rng = random.Random(seed)
    browser = Browser(port, source)
    path = f"/table/{token}/"
    try:
        page = log.count(browser.get(path))
        if page.status != 200:
            log.error(f"table {table_number}: GET {page.status}")
            return
        saved = 0
        failures = 0
        while saved < games and failures < 3 and time.monotonic() < deadline:
            form = fill_next_game(page.body, rng)
            if form is None:
                log.error(f"table {table_number}: no game form after {saved} games")
                return
            response = log.count(browser.post(path, form.fields))
            log.score_post_ms.append(response.ms)
            if response.status == 302 and response.location == path:
                log.submitted[(table_number, form.game)] = form.scores
                log.outs[(table_number, form.game)] = form.out
                saved += 1
            else:
                # Valid scores for a fresh game: any refusal or server error is a failure.
                failures += 1
                log.error(
                    f"table {table_number} game {form.game}: POST {response.status} "
                    f"{refusal(response)}"
                )
            page = log.count(browser.get(path))  # the redirect (or a fresh look after a failure)
            if page.status != 200:
                log.error(f"table {table_number}: GET {page.status}")
                return
        if saved < games:
            log.error(f"table {table_number}: only {saved} of {games} games saved")
    except (OSError, http.client.HTTPException) as error:
        log.error(f"table {table_number}: {type(error).__name__}: {error}")


REVIEW = re.compile(r'href="(/organiser/t/[\w-]+/day/1/table/(\d+)/game/(\d+)/review/)"')


def log_in(port: int, username: str, password: str, next_path: str) -> Browser:
    """A desk volunteer signs in through the login form (django-axes on), before the first game
    ends."""
    browser = Browser(port)
    login = browser.get("/accounts/login/")
    response = browser.post(
        "/accounts/login/",
        {
            "csrfmiddlewaretoken": inputs(login.body)["csrfmiddlewaretoken"],
            "username": username,
            "password": password,
            "next": next_path,
        },
    )
    if response.status != 302:
        raise RuntimeError(f"desk {username}: login answered {response.status}")
    return browser


def desk(
    browser: Browser,
    index: int,
    username: str,
    slug: str,
    log: Log,
    deadline: float,
    tables_done: threading.Event,
) -> None:
    """A desk volunteer: confirm every entered game at tables number % DESKS == index."""
    grid_path = f"/organiser/t/{slug}/day/1/scores/"
    try:
        grid = log.count(browser.get(grid_path))
        while time.monotonic() < deadline:
            if grid.status != 200:
                log.error(f"desk {username}: grid {grid.status}")
                return
            mine = [
                (url, int(t), int(g))
                for url, t, g in REVIEW.findall(grid.body)
                if int(t) % DESKS == index
            ]
            if not mine:
                if tables_done.is_set():
                    # The phones are finished and nothing of ours is waiting: look once more
                    # (a save may have landed after this grid was drawn), then stop.
                    grid = log.count(browser.get(grid_path))
                    if not [1 for _, t, _ in REVIEW.findall(grid.body) if int(t) % DESKS == index]:
                        return
                    continue
                time.sleep(0.2)  # a person glances at the grid now and then, not in a loop
                grid = log.count(browser.get(grid_path))
                continue
            url, table, game = mine[0]
            review = log.count(browser.get(url))
            fields = inputs(review.body)
            if review.status != 200 or "base_version" not in fields:
                log.error(f"desk {username}: review of table {table} game {game}: {review.status}")
                grid = log.count(browser.get(grid_path))
                continue
            response = log.count(
                browser.post(
                    url,
                    {
                        "csrfmiddlewaretoken": fields["csrfmiddlewaretoken"],
                        "base_version": fields["base_version"],
                        "decision": "confirm",
                        "reason": "",
                    },
                )
            )
            if response.status == 302 and response.location == grid_path:
                log.confirmed.append((table, game))
            else:
                # Each desk has its own tables and phones never touch a game twice here,
                # so a refusal or conflict is a real failure.
                log.error(f"desk {username}: confirm table {table} game {game}: {response.status}")
            grid = log.count(browser.get(grid_path))  # the redirect, and the next look
    except (OSError, http.client.HTTPException) as error:
        log.error(f"desk {username}: {type(error).__name__}: {error}")


# ---------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------


def free_port() -> int:
    """A port nobody listens on: from BENCH_PORTS (a range such as 8200-8299) when it is set."""
    wanted = os.environ.get("BENCH_PORTS", "")
    first, _, last = wanted.partition("-")
    candidates = range(int(first), int(last or first) + 1) if first else [0]
    for candidate in candidates:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", candidate))
            except OSError:
                continue  # taken by another run
            return sock.getsockname()[1]
    raise RuntimeError(f"no free port in BENCH_PORTS={wanted}")


# make venue's settings; gunicorn's plain sync workers are the other server the benches compare.
VENUE_SETTINGS = ["-c", "config/gunicorn_venue.py"]
SYNC_WORKERS = 3


def sync_settings(workers: int = SYNC_WORKERS) -> list[str]:
    return ["--workers", str(workers)]


# Each request's method, path, status, seconds inside the worker and, when the app is the timed
# one (bench/timed_wsgi.py), milliseconds inside Django.
ACCESS_LOG_FORMAT = "%(m)s %(U)s %(s)s %(L)s %({app_ms}e)s"


def start_server(
    env: dict,
    port: int,
    log_path: Path,
    settings: list[str] = VENUE_SETTINGS,
    access_log: Path | None = None,
    tree: Path = ROOT,
) -> subprocess.Popen:
    """gunicorn serving the app in ``tree`` on 127.0.0.1:port with ``settings``, once it answers
    a page. With ``access_log``, every request's times are written there (ACCESS_LOG_FORMAT) and
    the app is the timed one, to tell queueing from work."""
    logging = []
    if access_log is not None:
        logging = ["--access-logfile", str(access_log), "--access-logformat", ACCESS_LOG_FORMAT]
    app = "bench.timed_wsgi" if access_log is not None else "config.wsgi"
    command = [sys.executable, "-m", "gunicorn", app, *settings, "--bind", f"127.0.0.1:{port}"]
    command += ["--timeout", "60", "--error-logfile", "-", *logging]
    with open(log_path, "ab") as log_file:  # the server keeps its own copy of the handle
        process = subprocess.Popen(
            command,
            cwd=tree,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return wait_until_serving(process, port, log_path)


def wait_until_serving(process, port: int, log_path: Path):
    """The started server once it answers a page; stopped, with an error, if it does not within
    30 s (every bench that starts gunicorn waits this way)."""
    started = time.monotonic()
    while time.monotonic() - started < 30:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}; see {log_path}")
        try:
            if Browser(port).get("/accounts/login/").status == 200:
                return process
        except OSError:
            pass
        time.sleep(0.2)
    stop_server(process)
    raise RuntimeError(f"gunicorn did not answer within 30 s; see {log_path}")


def warm_up(port: int, paths: list[str], logins: int = SYNC_WORKERS) -> None:
    """Load every worker's code and templates before the clock starts, as on a server that has
    been up all morning: a few rounds of concurrent GETs (``logins`` of them the login page, the
    rest ``paths``), so each worker answers some."""

    def fetch(path):
        Browser(port).get(path)

    for _ in range(3):
        threads = [
            threading.Thread(target=fetch, args=(path,))
            for path in ["/accounts/login/"] * logins + paths
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()


def stop_server(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # its own session: only the server's processes
            process.wait(timeout=5)


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-fraction * len(ordered) // 1))))
    return ordered[rank - 1]


def median_of(values: list[float]) -> float:
    """The median, or NaN for no values (a run that measured nothing prints nan, not a crash)."""
    return statistics.median(values) if values else float("nan")


def p95_of(values: list[float]) -> float:
    return percentile(values, 0.95) if values else float("nan")


def p50_p95(values: list[float]) -> str:
    return f"{len(values)}, p50 {median_of(values):.0f} ms, p95 {p95_of(values):.0f} ms"
