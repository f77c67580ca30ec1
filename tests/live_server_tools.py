"""A real server process for tests that must kill it: gunicorn on the pytest test database.

pytest-django's live_server runs in the test process, so it cannot be killed mid-request. Here
the server is a separate process group started with the test database's URL; ``kill()`` is a
SIGKILL to the whole group (master and worker), like a power cut, and ``start()`` brings it back
on the same database. ``Browser`` is a plain http.client user agent with its own cookie jar, so
requests go through the login form and CSRF exactly as a browser's would.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from html import unescape
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def server_database_url() -> str:
    """The URL of the database this pytest process runs on (the test database, not the real one)."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    if connection.vendor == "postgresql":
        auth = quote(s["USER"] or "postgres", safe="")
        if s.get("PASSWORD"):
            auth += ":" + quote(s["PASSWORD"], safe="")
        return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    raise RuntimeError(f"no server URL for {s['ENGINE']}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """gunicorn serving the test database on 127.0.0.1, in a process group of its own."""

    def __init__(self, log_path: Path, workers: int = 1):
        self.port = free_port()
        self.log_path = log_path
        self.workers = workers
        self.process: subprocess.Popen | None = None
        self.env = {
            **os.environ,
            "DATABASE_URL": server_database_url(),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            # Debug serves the stylesheet without collectstatic; crash safety does not depend on it.
            "DJANGO_DEBUG": "1",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "PYTHONPATH": str(ROOT),
        }

    def start(self) -> None:
        """Start the server, or leave it be when it is running: a second one on the same port
        would wait to bind while the first went on serving, and a later kill() would stop
        the second only."""
        if self.process is not None and self.process.poll() is None:
            return
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "config.wsgi",
                    "--bind",
                    f"127.0.0.1:{self.port}",
                    "--workers",
                    str(self.workers),
                    "--timeout",
                    "120",
                    "--error-logfile",
                    "-",
                ],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}:\n{self.log()}")
            try:
                if Browser(self.port).get("/accounts/login/").status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"gunicorn did not answer within 30 s:\n{self.log()}")

    def kill(self) -> None:
        """SIGKILL master and workers at once: nothing gets to clean up or commit."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


class Response:
    def __init__(self, status: int, headers, body: str):
        self.status, self.headers, self.body = status, headers, body

    @property
    def location(self) -> str:
        return urlsplit(self.headers.get("Location", "")).path


class Browser:
    """One user agent: cookies kept between requests, one connection per request."""

    def __init__(self, port: int, timeout: float = 60):
        self.port = port
        self.timeout = timeout
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, body: bytes | None = None, content_type: str | None = None
    ) -> Response:
        headers = {"Host": f"127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if content_type:
            headers["Content-Type"] = content_type
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        try:
            conn.request(method, path, body=body, headers=headers)
            raw = conn.getresponse()
            data = raw.read()
        finally:
            conn.close()
        for header in raw.headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(header)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0" or "1970" in morsel["expires"]:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return Response(raw.status, raw.headers, data.decode("utf-8", "replace"))

    def get(self, path: str) -> Response:
        return self.request("GET", path)

    def post(self, path: str, fields: dict) -> Response:
        return self.request(
            "POST", path, urlencode(fields).encode(), "application/x-www-form-urlencoded"
        )

    def post_file(
        self, path: str, fields: dict, field: str, filename: str, data: bytes
    ) -> Response:
        boundary = uuid.uuid4().hex
        parts = []
        for name, value in fields.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                f"{value}\r\n".encode()
            )
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; '
            f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
            + data
            + b"\r\n"
        )
        parts.append(f"--{boundary}--\r\n".encode())
        return self.request(
            "POST", path, b"".join(parts), f"multipart/form-data; boundary={boundary}"
        )

    def csrf(self, path: str) -> str:
        page = self.get(path)
        assert page.status == 200, (path, page.status)
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.body)
        assert match, f"no CSRF token on {path}"
        return unescape(match.group(1))

    def login(self, username: str, password: str) -> None:
        token = self.csrf("/accounts/login/")
        response = self.post(
            "/accounts/login/",
            {
                "csrfmiddlewaretoken": token,
                "username": username,
                "password": password,
                "next": "",
            },
        )
        assert response.status == 302, f"login failed: {response.status}"


class WriteWatch:
    """Is some other connection inside a write transaction on the test database right now?

    SQLite: try to take the write lock without waiting (and give it straight back).
    PostgreSQL: another backend on this database holds a transaction id, which it gets with its
    first write or row lock (plain reads in autocommit never get one).
    """

    def __init__(self):
        s = connection.settings_dict
        self.sqlite = connection.vendor == "sqlite"
        if self.sqlite:
            self.conn = sqlite3.connect(s["NAME"], timeout=0, isolation_level=None)
        else:
            import psycopg

            self.conn = psycopg.connect(
                host=s["HOST"] or "127.0.0.1",
                port=s["PORT"] or 5432,
                user=s["USER"],
                password=s.get("PASSWORD") or None,
                dbname=s["NAME"],
                autocommit=True,
            )

    def writing(self) -> bool:
        if self.sqlite:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError:  # "database is locked": the server is writing
                return True
            self.conn.execute("ROLLBACK")
            return False
        return bool(
            self.conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND backend_xid IS NOT NULL"
            ).fetchone()[0]
        )

    def wait_until_quiet(self, timeout: float = 15) -> bool:
        """Wait until no other connection is writing: after a kill, PostgreSQL notices the dead
        client and rolls its transaction back (SQLite's lock goes with the process at once)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.writing():
                return True
            time.sleep(0.02)
        return False

    def sequence_value(self, table: str) -> int | None:
        """PostgreSQL only: how far a table's id sequence has gone, committed or not."""
        if self.sqlite:
            return None
        row = self.conn.execute(
            "SELECT last_value FROM pg_sequences WHERE schemaname = 'public' AND "
            "sequencename = split_part(pg_get_serial_sequence(%s, 'id'), '.', 2)",
            [table],
        ).fetchone()
        return row[0] or 0 if row else 0  # last_value is NULL until the first nextval

    def close(self) -> None:
        self.conn.close()
