"""gunicorn's threaded worker with a time limit on each client's reads and writes.

gunicorn's threaded worker waits for a new connection's first bytes without taking a thread, but
once a request has begun it reads the rest in a thread with no time limit: a phone that sends
half a request and stalls (a Wi-Fi drop mid-save, or anyone on the network doing it on purpose)
holds that thread for as long as the connection stays open. Here every client socket gets a
timeout, so such a connection is closed after CLIENT_TIMEOUT seconds and its thread goes back
to serving tables.

gunicorn also closes a finished connection "gracefully" on the worker's main thread, waiting up
to 2 s for the client to close its side; a client that never does stops that worker accepting
anyone for 2 s, per connection. Here the close takes only what the client already sent and does
not wait.

Each worker runs the app for one request at a time (APP_SLOTS), and takes a new connection only
while its app has room (APP_QUEUE, DOORWAY_SECONDS): the others wait in the listening socket's
queue, shared by the workers, for whichever frees first.

A time limit on each read is not a limit on the request: a client sending a byte every few
seconds never trips it and holds its thread for as long as it likes, and eighty such
connections from one laptop held every thread. So a request gets one deadline from its first
byte for its headers and body (each read waits only for the time left), one client address
gets at most MAX_CONNECTIONS_PER_ADDRESS connections in a worker, and a body larger than its
address takes (core/request_limits.py) is answered 413 before any of it is read. Written against
gunicorn 27.0.1 (pinned in requirements.txt).
"""

from __future__ import annotations

import errno
import io
import os
import socket
import threading
import time
from collections import Counter, deque
from wsgiref.types import WSGIApplication

from gunicorn import util  # type: ignore[import-untyped]
from gunicorn.workers.gthread import TConn, ThreadWorker  # type: ignore[import-untyped]

from core.request_limits import declared_length, too_large, too_large_text

# Long enough for a phone on a poor signal to send a save or fetch a page; short enough that
# a stalled connection gives its thread back soon.
CLIENT_TIMEOUT = float(os.environ.get("VENUE_CLIENT_TIMEOUT", "15"))

# A request's headers and a small body must arrive within CLIENT_TIMEOUT of its first byte; a
# larger body gets a second more for every BODY_BYTES_PER_SECOND it declares (a 5 MB
# spreadsheet from a laptop on weak Wi-Fi: about four minutes). The largest body an address
# takes (core/request_limits.py) bounds it.
BODY_BYTES_PER_SECOND = int(os.environ.get("VENUE_BODY_BYTES_PER_SECOND", str(20 * 1024)))

# A phone's browser opens up to six connections to the server; a connection over this many from
# one address in one worker is closed at once, so one laptop cannot take every thread. The venue
# laptop's own browser (the desk, the projector, the organiser) comes from its loopback address
# and is not counted: it is not on the network.
MAX_CONNECTIONS_PER_ADDRESS = int(os.environ.get("VENUE_CONNECTIONS_PER_ADDRESS", "8"))
THIS_LAPTOP = frozenset({"127.0.0.1", "::1"})


# How many requests of one worker run the app (Django) at once. The threads are there to wait on
# slow phones, not to run Django side by side: threads sharing the interpreter slow each other
# down, and one holding the database's write lock then holds it for longer while the room queues
# behind it (bench/entry_load.py measures it). A request's body is read before it takes a slot,
# so a phone sending slowly never holds one.
APP_SLOTS = int(os.environ.get("VENUE_APP_SLOTS", "1"))

# How many requests that have fully arrived may wait for a worker's slots before the worker
# stops taking new connections. None: the rest wait in the listening socket's queue, which the
# workers share, and go to whichever worker frees first, as with gunicorn's sync workers. A
# request waiting inside a busy worker can be passed by one that came later to a worker that
# freed first: with one such place per worker the score posts' p95 was 1.14 times that of three
# sync workers (the median of five rounds, bench/entry_load.py), with none 0.84 on the same day.
APP_QUEUE = int(os.environ.get("VENUE_APP_QUEUE", "0"))


class FairSlots:
    """A semaphore that serves its waiters in the order they came: a freed slot is handed to
    the longest waiter, so no request is overtaken again and again by newcomers.

    ``on_full_change`` is called (in the requester's thread) whenever the slots and their
    ``queue`` waiting places become full, or stop being full."""

    def __init__(self, slots: int, queue: int = 0, on_full_change=None):
        self._lock = threading.Lock()
        self._slots = max(1, slots)
        self._free = self._slots
        self._waiting: deque[threading.Event] = deque()
        self._room = self._slots + max(0, queue)
        self._on_full_change = on_full_change

    def _busy(self) -> int:
        return self._slots - self._free + len(self._waiting)

    def has_room(self) -> bool:
        """Is there a slot or a waiting place free?"""
        with self._lock:
            return self._busy() < self._room

    def join(self) -> threading.Event | None:
        """Count a request as this app's, running or waiting; its turn (None: it runs now)."""
        with self._lock:
            if self._free and not self._waiting:
                self._free -= 1
                turn = None
            else:
                turn = threading.Event()
                self._waiting.append(turn)
            became_full = self._busy() == self._room
        if became_full and self._on_full_change:
            self._on_full_change()
        return turn

    @staticmethod
    def wait(turn: threading.Event | None) -> None:
        if turn is not None:
            turn.wait()  # the slot is ours when set: release handed it over

    def __enter__(self):
        self.wait(self.join())
        return self

    def __exit__(self, *exc_info):
        with self._lock:
            was_full = self._busy() == self._room
            if self._waiting:
                self._waiting.popleft().set()
            else:
                self._free += 1
        if was_full and self._on_full_change:
            self._on_full_change()


class RequestEvents:
    """What an app's requests tell the connection they came on (the worker's version below)."""

    def body_expected(self, length: int) -> None:
        """The headers have arrived and declare a body of ``length`` bytes."""

    def arrived(self) -> None:
        """The request has fully arrived (headers and body read)."""

    def refused(self) -> None:
        """The request was answered without its body being read: close the connection."""


class AppSlots:
    """A WSGI app run by at most ``slots`` threads at once, each request's body read first.

    ``events`` hears of each request's body and arrival, in the request's thread."""

    def __init__(self, app, slots: int, queue: int = 0, on_full_change=None, events=None):
        self.app = app
        self.slots = FairSlots(slots, queue, on_full_change)
        self._events: RequestEvents = events or RequestEvents()

    def __call__(self, environ, start_response):
        length = declared_length(environ) or 0
        if length and too_large(environ):
            self._events.arrived()
            self._events.refused()
            return _plain(start_response, "413 Content Too Large", too_large_text(environ))
        if length:
            self._events.body_expected(length)
            try:
                body = environ["wsgi.input"].read(length)
            except OSError:  # the phone stalled past the request's deadline, or went away
                self._events.arrived()
                self._events.refused()  # the rest of its body is not waited for
                return _plain(
                    start_response,
                    "408 Request Timeout",
                    "The request did not arrive in time. Please try again.",
                )
            environ["wsgi.input"] = io.BytesIO(body)
        # Counted in the slots before the worker hears it has arrived: told first, its main
        # thread could see room that is no longer there and take one more connection, which
        # would then wait here while another worker stood idle.
        turn = self.slots.join()
        try:
            self._events.arrived()
            self.slots.wait(turn)
            result = self.app(environ, start_response)
        except BaseException:
            self.slots.__exit__(None, None, None)
            raise
        file_wrapper = environ.get("wsgi.file_wrapper")
        if file_wrapper is not None and isinstance(result, file_wrapper):
            self.slots.__exit__(None, None, None)  # a static file: sent by the server as it is
            return result
        return HeldUntilSent(result, self.slots)


def _plain(start_response, status: str, text: str) -> list[bytes]:
    start_response(status, [("Content-Type", "text/plain; charset=utf-8")])
    return [text.encode()]


class HeldUntilSent:
    """An app's response that keeps its app slot until the server has sent it and closes it.

    Freed when the app returned, the slot let the worker take the next connection while this
    response was still being written, and the next request's reading and parsing then held
    the interpreter the writing thread waited for: every response came out later than with a
    sync worker, which takes the next connection only once it has answered."""

    def __init__(self, result, slots: FairSlots):
        self._result = result
        self._slots: FairSlots | None = slots

    def __iter__(self):
        return iter(self._result)

    def close(self):
        try:
            if hasattr(self._result, "close"):
                self._result.close()
        finally:
            slots, self._slots = self._slots, None
            if slots is not None:
                slots.__exit__(None, None, None)


class RequestDeadline:
    """A client socket whose reads share one deadline for each request's headers and body.

    Everything else (writes, the poller's fileno, closing) goes to the socket as it is."""

    def __init__(self, sock: socket.socket):
        self._sock = sock
        self._deadline: float | None = None

    def __getattr__(self, name):
        return getattr(self._sock, name)

    def start_request(self) -> None:
        self._deadline = time.monotonic() + CLIENT_TIMEOUT

    def allow_body(self, length: int) -> None:
        if self._deadline is not None:
            self._deadline += length / BODY_BYTES_PER_SECOND

    def request_arrived(self) -> None:
        self._deadline = None  # the response is written under the per-write limit alone

    def recv(self, size: int, *flags):
        if self._deadline is None:
            return self._sock.recv(size, *flags)
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive by its deadline")
        limit = self._sock.gettimeout()
        self._sock.settimeout(left if limit is None else min(limit, left))
        try:
            return self._sock.recv(size, *flags)
        finally:
            self._sock.settimeout(limit)


class TimedConn(TConn):
    def __init__(self, cfg, sock, client, server, on_close=None):
        super().__init__(cfg, RequestDeadline(sock), client, server)
        self.refused = False  # answered without reading its body: not kept alive
        self._on_close = on_close

    def init(self):
        super().init()
        # The worker sets the socket blocking (no time limit) before each request; this runs
        # right after, for new and kept-alive connections alike, once its first bytes are in.
        self.sock.settimeout(CLIENT_TIMEOUT)
        self.sock.start_request()
        self.refused = False

    def close(self, graceful=False):
        on_close, self._on_close = self._on_close, None
        if on_close is not None:
            on_close(self)  # once, however many times the worker closes it
        if not graceful:
            super().close()
            return
        # Send our FIN, read what is already in the receive buffer (unread request bytes would
        # make the close a reset that can cut off the response), and close without waiting.
        try:
            self.sock.shutdown(socket.SHUT_WR)
            self.sock.setblocking(False)
            for _ in range(16):  # 64 KB at most
                if not self.sock.recv(4096):
                    break
        except OSError:
            pass  # nothing more to read now, or the client is gone
        finally:
            util.close(self.sock)


# A connection just taken holds the worker's door until its request has arrived (headers and
# body read) or this long has passed: without it, a worker would take a burst of connections
# before any of them reached its app queue, and the queue limit above would not hold. A phone
# slower than this is not waited for.
DOORWAY_SECONDS = float(os.environ.get("VENUE_DOORWAY_SECONDS", "0.05"))


class VenueWorker(ThreadWorker):
    wsgi: WSGIApplication  # the app gunicorn loads, wrapped below; gunicorn has no types

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._door_lock = threading.Lock()
        self._doorway = None  # the connection last taken, until its request arrives
        self._doorway_until = 0.0
        self._handling = threading.local()  # each request thread's connection
        self._app: AppSlots | None = None
        self._per_address: Counter[str] = Counter()  # open connections, main thread only

    def load_wsgi(self):
        super().load_wsgi()
        self._app = AppSlots(
            self.wsgi, APP_SLOTS, APP_QUEUE, self._app_full_changed, _WorkerEvents(self)
        )
        self.wsgi = self._app

    def handle(self, conn):
        self._handling.conn = conn
        try:
            return super().handle(conn)
        finally:
            self._handling.conn = None
            self._leave_doorway(conn)  # closed, deferred to the poller, or done

    def handling(self):
        """The connection this request thread is serving (None outside a request)."""
        return getattr(self._handling, "conn", None)

    def _request_arrived(self):
        conn = self.handling()
        if conn is not None:
            conn.sock.request_arrived()
        self._leave_doorway(conn)

    def _keepalive_after(self, conn, keepalive):
        # Kept alive, gunicorn would read the refused body to its end to find the next request.
        return False if conn.refused else super()._keepalive_after(conn, keepalive)

    def _leave_doorway(self, conn):
        with self._door_lock:
            if conn is None or self._doorway is not conn:
                return
            self._doorway = None
        self._app_full_changed()

    def _app_full_changed(self):
        # Called in a request's thread; the poller belongs to the main thread.
        self.method_queue.defer(self._gate_accepting)

    def _gate_accepting(self):
        self.set_accept_enabled(self.alive and self.nr_conns < self.worker_connections)

    def set_accept_enabled(self, enabled):
        # gunicorn's loop asks again on every turn while accepting is off, so a worker starts
        # taking connections again as soon as its app has room and its door is free.
        with self._door_lock:
            door_free = self._doorway is None or time.monotonic() >= self._doorway_until
        room = self._app is None or self._app.slots.has_room()
        super().set_accept_enabled(enabled and room and door_free)

    def wait_for_and_dispatch_events(self, timeout):
        if self._doorway is not None:  # look again when the door's time is up
            timeout = min(timeout, DOORWAY_SECONDS)
        super().wait_for_and_dispatch_events(timeout)

    def accept(self, listener):
        try:
            client_sock, client_addr = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        address = _address_of(client_addr)
        if address not in THIS_LAPTOP:
            if self._per_address[address] >= MAX_CONNECTIONS_PER_ADDRESS:
                util.close(client_sock)  # before a thread is spent on it
                return
            self._per_address[address] += 1
        self.nr_conns += 1
        client_sock.setblocking(True)
        conn = TimedConn(
            self.cfg, client_sock, client_addr, listener.getsockname(), self._connection_closed
        )
        with self._door_lock:
            self._doorway = conn
            self._doorway_until = time.monotonic() + DOORWAY_SECONDS
        self.enqueue_req(conn)
        self._gate_accepting()

    def _connection_closed(self, conn):
        # Closed on the main thread (finish_request, the keep-alive and pending culls).
        address = _address_of(conn.client)
        if address in self._per_address:
            self._per_address[address] -= 1
            if self._per_address[address] <= 0:
                del self._per_address[address]


def _address_of(client_addr) -> str:
    return client_addr[0] if isinstance(client_addr, tuple) else str(client_addr)


class _WorkerEvents(RequestEvents):
    """A request's body, arrival and refusal, told to the connection it came on."""

    def __init__(self, worker: VenueWorker):
        self._worker = worker

    def body_expected(self, length: int) -> None:
        conn = self._worker.handling()
        if conn is not None:
            conn.sock.allow_body(length)

    def arrived(self) -> None:
        self._worker._request_arrived()

    def refused(self) -> None:
        conn = self._worker.handling()
        if conn is not None:
            conn.refused = True
