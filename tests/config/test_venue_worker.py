"""The venue's gunicorn worker: a time limit on every client socket, and a close that does not
wait on the client, and a worker that takes connections only while its app has room. Sockets
here are local socket pairs and loopback listeners: nothing touches a network."""

import importlib.util
import socket

import pytest
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

    from config.venue_worker import RequestEvents

    refused = []

    class Heard(RequestEvents):
        def refused(self):
            refused.append(True)

    statuses = []
    slotted = AppSlots(app, 1, events=Heard())
    body = slotted(
        {"CONTENT_LENGTH": "5", "wsgi.input": io.BytesIO(b"hello")},
        lambda status, headers: statuses.append(status),
    )
    assert list(body) == [b"ok"] and seen == [b"hello"]
    body.close()
    body = slotted(
        {"CONTENT_LENGTH": "5", "wsgi.input": Stalled()},
        lambda status, headers: statuses.append(status),
    )
    assert statuses == ["200 OK", "408 Request Timeout"] and seen == [b"hello"]
    assert refused == [True]  # its connection is closed, the rest of its body not waited for
    # The stalled request never took the slot: the next one runs at once.
    assert list(slotted({"wsgi.input": io.BytesIO()}, lambda *args: None)) == [b"ok"]


def test_a_request_holds_its_place_in_the_app_before_the_worker_hears_it_arrived():
    """Told first, the worker's main thread could see room that the request is about to take
    and accept one more connection, which would wait in this worker while another stood idle."""
    import io

    from config.venue_worker import AppSlots, RequestEvents

    room_when_told = []

    class Told(RequestEvents):
        def arrived(self):
            room_when_told.append(slotted.slots.has_room())

    slotted = AppSlots(lambda environ, start_response: [b"ok"], 1, events=Told())
    response = slotted({"CONTENT_LENGTH": "2", "wsgi.input": io.BytesIO(b"hi")}, None)
    assert room_when_told == [False]
    assert list(response) == [b"ok"]
    # The place is kept while the server writes the response, and given back once it is sent.
    assert not slotted.slots.has_room()
    response.close()
    assert slotted.slots.has_room()
    response.close()  # a second close gives nothing back twice
    assert slotted.slots.has_room() and slotted.slots._free == 1


def test_a_static_file_is_handed_to_the_server_and_frees_the_slot_at_once():
    import io

    from config.venue_worker import AppSlots

    class FileWrapper:
        def __init__(self, handle):
            self.handle = handle

    sent = FileWrapper(io.BytesIO(b"css"))
    slotted = AppSlots(lambda environ, start_response: sent, 1)
    assert slotted({"wsgi.input": io.BytesIO(), "wsgi.file_wrapper": FileWrapper}, None) is sent
    assert slotted.slots.has_room()


def test_an_app_that_raises_gives_its_slot_back():
    import io

    from config.venue_worker import AppSlots

    def broken(environ, start_response):
        raise RuntimeError("the app failed")

    slotted = AppSlots(broken, 1)
    with pytest.raises(RuntimeError):
        slotted({"wsgi.input": io.BytesIO()}, None)
    assert slotted.slots.has_room()


def test_the_app_says_when_its_slots_and_queue_fill_and_when_they_have_room_again():
    import threading
    import time

    from config.venue_worker import FairSlots

    changes = []
    slots = FairSlots(1, queue=1, on_full_change=lambda: changes.append(slots.has_room()))
    slots.__enter__()  # one request runs: a place in the queue is still free
    assert slots.has_room() and changes == []
    waiter = threading.Thread(target=slots.__enter__)
    waiter.start()
    for _ in range(500):
        if changes:
            break
        time.sleep(0.01)
    assert changes == [False] and not slots.has_room()
    slots.__exit__(None, None, None)  # handed to the waiter: the queue's place is free again
    waiter.join(5)
    assert changes == [False, True] and slots.has_room()


class _Pool:
    """Connections handed to the thread pool are kept, not run: the test plays the request."""

    def __init__(self):
        self.connections = []

    def submit(self, _handle, conn):
        from concurrent.futures import Future

        self.connections.append(conn)
        return Future()


def _worker(listener, app):
    import os
    import selectors
    from types import SimpleNamespace

    worker = VenueWorker(
        0, os.getpid(), [listener], SimpleNamespace(wsgi=lambda: app), 30, Config(), None
    )
    worker.poller = selectors.DefaultSelector()
    worker.method_queue.init()
    worker.tpool = _Pool()
    worker.load_wsgi()
    return worker


def _accepting(worker, listener) -> bool:
    worker.method_queue.run_callbacks(None)  # what the worker's loop runs on its main thread
    return any(key.fileobj is listener for key in worker.poller.get_map().values())


def _taken_connection(worker, listener, source="127.0.0.1"):
    import time

    client = socket.create_connection(listener.getsockname(), source_address=(source, 0))
    for _ in range(500):
        worker.accept(listener)  # nothing yet: it returns, as on another worker's win
        if worker.tpool.connections:
            return client, worker.tpool.connections.pop()
        time.sleep(0.01)
    raise AssertionError("the connection was not taken")


def test_a_worker_takes_connections_only_while_its_app_has_room_and_its_door_is_free():
    """A taken connection holds the door until its request arrives (or a moment passes); a full
    app queue stops new connections until a request leaves. Loopback sockets only."""
    import io
    import threading
    import time

    from config.venue_worker import DOORWAY_SECONDS

    release = threading.Event()

    def app(environ, start_response):
        release.wait(5)
        return [b"ok"]

    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    worker = _worker(listener, app)
    clients = []
    try:
        worker.set_accept_enabled(True)
        assert _accepting(worker, listener)
        client, conn = _taken_connection(worker, listener)
        clients.append(client)
        assert not _accepting(worker, listener)  # its request has not arrived yet

        def request(conn):
            worker._handling.conn = conn  # the request's thread, as gunicorn's handle() sets it
            response = worker.wsgi({"wsgi.input": io.BytesIO()}, lambda *args: None)
            list(response)  # gunicorn writes the response, then closes it
            response.close()

        running = threading.Thread(target=request, args=(conn,))
        running.start()  # it arrives and runs: a place in the queue is left
        for _ in range(500):
            if _accepting(worker, listener):
                break
            time.sleep(0.01)
        assert _accepting(worker, listener)

        client, conn = _taken_connection(worker, listener)
        clients.append(client)
        waiting = threading.Thread(target=request, args=(conn,))
        waiting.start()  # it arrives and waits: the app is full
        time.sleep(0.2)
        assert not _accepting(worker, listener)

        release.set()
        running.join(5)
        waiting.join(5)
        assert _accepting(worker, listener)

        client, _conn = _taken_connection(worker, listener)
        clients.append(client)  # a request that never arrives holds the door only a moment
        assert not _accepting(worker, listener)
        time.sleep(DOORWAY_SECONDS)
        worker.set_accept_enabled(True)  # gunicorn's loop asks on each turn while it is off
        assert _accepting(worker, listener)
    finally:
        release.set()
        for client in clients:
            client.close()
        worker.method_queue.close()
        worker.tmp.close()
        listener.close()


def _trickle(sock: socket.socket, stop, every: float) -> None:
    """A client sending one byte every ``every`` seconds until told to stop or shut out."""
    while not stop.wait(every):
        try:
            sock.sendall(b"x")
        except OSError:
            return


def test_a_request_trickled_a_byte_at_a_time_is_cut_off_at_its_deadline(monkeypatch):
    """Each read gets its byte well within the per-read limit, yet the request as a whole has
    one deadline from its first byte: a client sending a byte every 0.1 s is stopped at 0.6 s."""
    import threading
    import time

    from config import venue_worker

    monkeypatch.setattr(venue_worker, "CLIENT_TIMEOUT", 0.6)
    server_side, client_side = socket.socketpair()
    stop = threading.Event()
    sender = threading.Thread(target=_trickle, args=(client_side, stop, 0.1))
    try:
        conn = TimedConn(Config(), server_side, ("127.0.0.1", 5000), ("127.0.0.1", 8000))
        conn.init()
        sender.start()
        started = time.monotonic()
        received = b""
        with pytest.raises(TimeoutError):
            for _ in range(100):
                received += conn.sock.recv(1)
        assert 0.5 <= time.monotonic() - started < 1.5
        assert 3 <= len(received) <= 8  # it was sending all along: no single read timed out
    finally:
        stop.set()
        sender.join(5)
        server_side.close()
        client_side.close()


def test_a_declared_body_adds_time_by_its_size_and_the_response_is_not_held_to_it(monkeypatch):
    import time

    from config import venue_worker

    monkeypatch.setattr(venue_worker, "CLIENT_TIMEOUT", 0.2)
    monkeypatch.setattr(venue_worker, "BODY_BYTES_PER_SECOND", 1000)
    server_side, client_side = socket.socketpair()
    try:
        conn = TimedConn(Config(), server_side, ("127.0.0.1", 5000), ("127.0.0.1", 8000))
        conn.init()
        conn.sock.allow_body(500)  # half a second more
        time.sleep(0.4)
        client_side.sendall(b"body")
        assert conn.sock.recv(4) == b"body"  # past the headers' 0.2 s, within the body's 0.7
        conn.sock.request_arrived()
        time.sleep(0.4)
        client_side.sendall(b"next")
        assert conn.sock.recv(4) == b"next"  # no deadline once the request is in
        assert server_side.gettimeout() == 0.2  # the per-read limit is put back after each read
    finally:
        server_side.close()
        client_side.close()


class _Unreadable:
    def read(self, *_args):
        raise AssertionError("the body was read")


@pytest.mark.parametrize(
    ("path", "length", "status"),
    [
        ("/table/abc/", 300 * 1024 * 1024, "413"),
        ("/table/abc/", 17 * 1024, "413"),
        ("/organiser/t/x/players/import/", 11 * 1024 * 1024, "413"),
        ("/organiser/t/x/players/", 2 * 1024 * 1024, "413"),
    ],
)
def test_a_body_larger_than_its_address_takes_is_refused_unread(path, length, status, settings):
    from config.venue_worker import AppSlots, RequestEvents

    settings.UPLOAD_MAX_BYTES = 5 * 1024 * 1024
    heard = []

    class Heard(RequestEvents):
        def refused(self):
            heard.append("refused")

        def body_expected(self, length):
            heard.append("body")

    answered = []
    slotted = AppSlots(lambda environ, start_response: [b"the app"], 1, events=Heard())
    environ = {"PATH_INFO": path, "CONTENT_LENGTH": str(length), "wsgi.input": _Unreadable()}
    body = b"".join(slotted(environ, lambda status, headers: answered.append(status)))
    assert answered[0].startswith(status)
    assert heard == ["refused"]  # the connection is closed after the answer, not drained
    assert b"nothing was stored" in body
    assert slotted.slots.has_room() and slotted.slots._free == 1


def test_a_body_its_address_takes_is_read_and_passed_on(settings):
    import io

    from config.venue_worker import AppSlots, RequestEvents

    settings.UPLOAD_MAX_BYTES = 5 * 1024 * 1024
    heard = []

    class Heard(RequestEvents):
        def body_expected(self, length):
            heard.append(length)

    def app(environ, start_response):
        start_response("200 OK", [])
        return [environ["wsgi.input"].read()]

    upload = b"x" * (5 * 1024 * 1024)
    slotted = AppSlots(app, 1, events=Heard())
    environ = {
        "PATH_INFO": "/organiser/t/x/scores/upload/",
        "CONTENT_LENGTH": str(len(upload)),
        "wsgi.input": io.BytesIO(upload),
    }
    response = slotted(environ, lambda *args: None)
    assert b"".join(response) == upload
    response.close()
    assert heard == [len(upload)]


def test_one_address_gets_only_so_many_connections_in_a_worker(monkeypatch):
    """The ninth connection from one address is closed before a thread is spent on it; once one
    of the eight closes, the next is taken again. Loopback sockets only."""
    import time

    from config import venue_worker

    monkeypatch.setattr(venue_worker, "MAX_CONNECTIONS_PER_ADDRESS", 8)
    monkeypatch.setattr(venue_worker, "DOORWAY_SECONDS", 0.0)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    worker = _worker(listener, lambda environ, start_response: [b"ok"])
    clients = []
    try:
        taken = []
        for _ in range(8):
            client, conn = _taken_connection(worker, listener, "127.0.0.2")
            clients.append(client)
            taken.append(conn)
        over = socket.create_connection(listener.getsockname(), source_address=("127.0.0.2", 0))
        clients.append(over)
        for _ in range(100):
            worker.accept(listener)
            time.sleep(0.01)
        assert not worker.tpool.connections  # not handed to a thread
        over.settimeout(5)
        assert over.recv(1) == b""  # closed by the server
        assert worker.nr_conns == 8

        taken.pop().close()
        client, _conn = _taken_connection(worker, listener, "127.0.0.2")
        clients.append(client)
        assert worker._per_address["127.0.0.2"] == 8
        # The laptop's own browser is not counted: the desk and projector run on it.
        for _ in range(10):
            client, _conn = _taken_connection(worker, listener, "127.0.0.1")
            clients.append(client)
        assert "127.0.0.1" not in worker._per_address
    finally:
        for client in clients:
            client.close()
        worker.method_queue.close()
        worker.tmp.close()
        listener.close()


def test_the_worker_module_loads_before_django_is_set_up():
    """gunicorn's master imports the worker class before any app is loaded: a module that
    reaches Django's models at import time stops `make venue` from starting."""
    import subprocess
    import sys

    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings"}
    loaded = subprocess.run(
        [sys.executable, "-c", "import config.venue_worker"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert loaded.returncode == 0, loaded.stderr
