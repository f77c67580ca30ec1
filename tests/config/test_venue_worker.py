"""The venue's gunicorn worker: a time limit on every client socket, and a close that does not
wait on the client. Sockets here are local socket pairs: nothing touches a network."""

import importlib.util
import socket

from gunicorn.config import Config
from gunicorn.workers.gthread import ThreadWorker
from live_server_tools import ROOT

from config.venue_worker import CLIENT_TIMEOUT, TimedConn, VenueWorker


def test_the_venue_config_uses_the_timed_threaded_worker():
    spec = importlib.util.spec_from_file_location(
        "gunicorn_venue", ROOT / "config/gunicorn_venue.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.worker_class == "config.venue_worker.VenueWorker"
    assert module.threads * module.workers >= 64
    assert issubclass(VenueWorker, ThreadWorker)


def test_each_request_reads_with_a_time_limit():
    server_side, client_side = socket.socketpair()
    try:
        conn = TimedConn(Config(), server_side, ("127.0.0.1", 5000), ("127.0.0.1", 8000))
        server_side.setblocking(True)  # as the worker does before every request
        conn.init()
        assert server_side.gettimeout() == CLIENT_TIMEOUT
    finally:
        server_side.close()
        client_side.close()


def test_a_close_sends_everything_and_does_not_wait_for_a_silent_client(monkeypatch):
    from config import venue_worker

    modes = []
    real_close = venue_worker.util.close
    # How the socket reads when it is closed: non-blocking (0.0) means no read could wait.
    monkeypatch.setattr(
        venue_worker.util, "close", lambda sock: (modes.append(sock.gettimeout()), real_close(sock))
    )
    server_side, client_side = socket.socketpair()
    try:
        conn = TimedConn(Config(), server_side, ("127.0.0.1", 5000), ("127.0.0.1", 8000))
        client_side.sendall(b"unread request bytes")
        server_side.setblocking(True)
        server_side.sendall(b"the response")
        conn.close(graceful=True)  # the client never closes its side: this must not block
        client_side.settimeout(5)
        received = b""
        for _ in range(10):
            chunk = client_side.recv(4096)
            if not chunk:
                break
            received += chunk
        assert received == b"the response"
        assert server_side.fileno() == -1
        assert modes == [0.0]
    finally:
        client_side.close()


def test_waiting_requests_get_the_app_in_the_order_they_came():
    import threading
    import time

    from config.venue_worker import FairSlots

    slots = FairSlots(1)
    order = []
    slots.__enter__()  # the slot is busy: everyone below waits
    started = []

    def request(n):
        started.append(n)
        with slots:
            order.append(n)

    threads = []
    for n in range(5):
        thread = threading.Thread(target=request, args=(n,))
        thread.start()
        threads.append(thread)
        while len(started) <= n:
            time.sleep(0.001)
        time.sleep(0.01)  # n is waiting before n + 1 arrives
    slots.__exit__(None, None, None)
    for thread in threads:
        thread.join(5)
    assert order == [0, 1, 2, 3, 4]


def test_a_body_is_read_before_the_app_is_taken_and_a_stalled_one_gets_408():
    import io

    from config.venue_worker import AppSlots

    seen = []

    def app(environ, start_response):
        seen.append(environ["wsgi.input"].read())
        start_response("200 OK", [])
        return [b"ok"]

    class Stalled(io.RawIOBase):
        def read(self, size=-1):
            raise TimeoutError("timed out")

    statuses = []
    slotted = AppSlots(app, 1)
    body = slotted(
        {"CONTENT_LENGTH": "5", "wsgi.input": io.BytesIO(b"hello")},
        lambda status, headers: statuses.append(status),
    )
    assert body == [b"ok"] and seen == [b"hello"]
    body = slotted(
        {"CONTENT_LENGTH": "5", "wsgi.input": Stalled()},
        lambda status, headers: statuses.append(status),
    )
    assert statuses == ["200 OK", "408 Request Timeout"] and seen == [b"hello"]
    # The stalled request never took the slot: the next one runs at once.
    assert slotted({"wsgi.input": io.BytesIO()}, lambda *args: None) == [b"ok"]
