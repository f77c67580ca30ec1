"""The venue bench's attack rounds (bench/venue.py): one laptop on the Wi-Fi trying to stop score
entry, while the 43 tables of a third event save their games.

* round A3: the tables save two games, nothing else happening (the baseline);
* round C, trickle: 128 connections from one address (more than the server's 96 threads), each
  sending a byte every 5 s (half of them a request's headers, half a 100,000-byte body after
  whole headers), opened again as soon as the server closes one;
* round D, large bodies: four posts declaring 300 MB each (two to a table's page, two to an
  upload page), sent as fast as loopback takes them, opened again when refused.

Each attack runs ATTACK_SECONDS before the tables start saving and goes on until they are done.
Each attack round: 0 errors and every game stored once, the p95 of its saves within RATIO_TARGET
times round A3's, and the largest worker's memory (resident set) under MEMORY_TARGET_MB.
The attacker sends from its own loopback address; each table's phone from its own.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

# The probe that found it sent 80 against a server of 64 threads; ours has 96 (3 workers of 32),
# so the attack here sends more than that.
TRICKLE_CONNECTIONS = 128
TRICKLE_EVERY = 5.0
TRICKLE_BODY = 100_000
LARGE_POSTS = 4
LARGE_BODY = 300 * 1024 * 1024
ATTACKER = "127.0.0.2"
RATIO_TARGET = 3.0
MEMORY_TARGET_MB = 300
# How long each attack runs before the tables save: longer than a request's deadline on the
# server (15 s, and 5 s more for a 100,000-byte body), so what the tables meet is the attack's
# steady state, every connection the server cut off opened again.
ATTACK_SECONDS = 30


def _connect(port: int) -> socket.socket | None:
    try:
        return socket.create_connection(
            ("127.0.0.1", port), timeout=2, source_address=(ATTACKER, 0)
        )
    except OSError:
        return None


class Trickle:
    """TRICKLE_CONNECTIONS connections kept open (reopened when the server closes one), each
    sending one byte every TRICKLE_EVERY seconds, in one thread."""

    def __init__(self, port: int, table_path: str):
        self.port = port
        self.head = f"POST {table_path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
        self.body_head = (
            f"POST /organiser/t/attack/check-in/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {TRICKLE_BODY}\r\n\r\n"
        ).encode()
        self.stop = threading.Event()
        self.opened = 0
        self.held_longest = 0.0
        self.open_at_end = 0  # opened before the tables started and never closed by the server
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc_info):
        self.stop.set()
        self._thread.join(TRICKLE_EVERY * 3)

    def _open(self, n: int):
        sock = _connect(self.port)
        if sock is None:
            return None
        self.opened += 1
        if n % 2:
            try:
                sock.sendall(self.body_head)  # whole headers, then the body a byte at a time
            except OSError:
                sock.close()
                return None
        return [sock, 0, time.monotonic()]  # the socket, bytes of the head sent, opened at

    def _send_byte(self, n: int, held) -> bool:
        sock, sent, _opened = held
        byte = self.head[sent : sent + 1] if n % 2 == 0 and sent < len(self.head) else b"x"
        try:
            sock.sendall(byte)
        except OSError:
            return False
        held[1] = sent + 1
        return True

    def _run(self):
        held: list = [None] * TRICKLE_CONNECTIONS
        while not self.stop.is_set():
            for n in range(TRICKLE_CONNECTIONS):
                if held[n] is not None and not self._send_byte(n, held[n]):
                    self.held_longest = max(self.held_longest, time.monotonic() - held[n][2])
                    held[n][0].close()
                    held[n] = None
                if held[n] is None:
                    held[n] = self._open(n)
            self.stop.wait(TRICKLE_EVERY)
        started = time.monotonic()
        for item in held:
            if item is not None:
                self.open_at_end += started - item[2] > ATTACK_SECONDS
                item[0].close()


class LargeBodies:
    """LARGE_POSTS clients, each posting a body that declares LARGE_BODY bytes as fast as the
    server takes it, again as soon as the server refuses or closes."""

    def __init__(self, port: int, table_path: str):
        self.port = port
        self.paths = [table_path, "/organiser/t/attack/players/import/"]
        self.stop = threading.Event()
        self.posts = 0
        self.bytes_sent = 0
        self.statuses: dict[str, int] = {}
        self._lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._run, args=(n,), daemon=True) for n in range(LARGE_POSTS)
        ]

    def __enter__(self):
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc_info):
        self.stop.set()
        for thread in self._threads:
            thread.join(10)

    def _post(self, path: str) -> tuple[int, str]:
        sock = _connect(self.port)
        if sock is None:
            return 0, "no connection"
        chunk = b"x" * (1024 * 1024)
        sent = 0
        try:
            sock.sendall(
                (
                    f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                    "Content-Type: multipart/form-data; boundary=attack\r\n"
                    f"Content-Length: {LARGE_BODY}\r\n\r\n"
                ).encode()
            )
            while sent < LARGE_BODY and not self.stop.is_set():
                sock.sendall(chunk)
                sent += len(chunk)
            sock.settimeout(5)
            answer = sock.recv(64).split(b"\r\n", 1)[0].decode(errors="replace") or "closed"
        except OSError as error:
            answer = f"cut off ({type(error).__name__})"
        finally:
            sock.close()
        return sent, answer

    def _run(self, n: int):
        path = self.paths[n % len(self.paths)]
        while not self.stop.is_set():
            sent, answer = self._post(path)
            with self._lock:
                self.posts += 1
                self.bytes_sent += sent
                self.statuses[answer] = self.statuses.get(answer, 0) + 1
            self.stop.wait(0.05)


class WorkerMemory:
    """The largest resident set of any of the server's workers, sampled every 0.2 s."""

    def __init__(self, master_pid: int):
        self.master_pid = master_pid
        self.peak_mb = 0.0
        self.stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc_info):
        self.stop.set()
        self._thread.join(5)

    def _workers(self) -> list[int]:
        children = Path(f"/proc/{self.master_pid}/task/{self.master_pid}/children")
        try:
            return [int(pid) for pid in children.read_text().split()]
        except OSError:
            return []

    def _run(self):
        while not self.stop.wait(0.2):
            for pid in self._workers():
                self.peak_mb = max(self.peak_mb, _resident_mb(pid))


def _resident_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def attack_rounds(port: int, server_pid: int, day, tables: dict[int, str], rounds) -> list:
    """Rounds A3, C and D on ``day`` (its 43 tables), each of ``rounds.games`` games saved with
    ``rounds.save_round`` and reported with ``rounds.report_round`` (bench/venue.py's). Returns
    the targets."""
    from scoring.models import LIVE_STATES, GameSheet

    games = rounds.games
    expected = len(tables) * games
    table_path = f"/table/{tables[1]}/"
    baseline = rounds.save_round(port, tables, games)
    p95_a, ok_a = rounds.report_round("A3 (no attack)", baseline, expected)

    with WorkerMemory(server_pid) as memory, Trickle(port, table_path) as trickle:
        time.sleep(ATTACK_SECONDS)
        trickled = rounds.save_round(port, tables, games)
    p95_c, ok_c = rounds.report_round(f"C ({TRICKLE_CONNECTIONS} trickling)", trickled, expected)
    trickle_peak = memory.peak_mb
    print(
        f"trickle: {trickle.opened} connections opened by the attacker, the longest held "
        f"{trickle.held_longest:.1f} s before the server closed it; "
        f"{trickle.open_at_end} open since before the tables started and never closed"
    )
    with WorkerMemory(server_pid) as memory, LargeBodies(port, table_path) as large:
        time.sleep(ATTACK_SECONDS)
        flooded = rounds.save_round(port, tables, games)
    p95_d, ok_d = rounds.report_round(f"D ({LARGE_POSTS} posts of 300 MB)", flooded, expected)
    print(
        f"large bodies: {large.posts} posts, {large.bytes_sent / 1024 / 1024:.0f} MB sent, "
        f"answers {large.statuses}; largest worker {memory.peak_mb:.0f} MB "
        f"(during the trickle {trickle_peak:.0f} MB)"
    )
    stored = GameSheet.objects.filter(table__day=day, state__in=LIVE_STATES).count()
    duplicates = GameSheet.objects.filter(table__day=day, version__gt=1).count()
    print(f"attack event: games stored {stored} of {expected * 3}, duplicates {duplicates}")
    stored_ok = stored == expected * 3 and duplicates == 0
    ratio_c = p95_c / p95_a if p95_a else float("inf")
    ratio_d = p95_d / p95_a if p95_a else float("inf")
    peak = max(trickle_peak, memory.peak_mb)
    return [
        (
            f"{TRICKLE_CONNECTIONS} trickling connections from one address: 0 errors, every game "
            f"stored once, p95 {p95_c:.0f} / {p95_a:.0f} ms = {ratio_c:.2f} <= {RATIO_TARGET:g}",
            ok_a and ok_c and stored_ok and ratio_c <= RATIO_TARGET,
        ),
        (
            f"{LARGE_POSTS} posts of 300 MB: 0 errors, p95 {p95_d:.0f} / {p95_a:.0f} ms = "
            f"{ratio_d:.2f} <= {RATIO_TARGET:g}, largest worker {peak:.0f} MB "
            f"< {MEMORY_TARGET_MB} MB",
            ok_d and stored_ok and ratio_d <= RATIO_TARGET and peak < MEMORY_TARGET_MB,
        ),
    ]
