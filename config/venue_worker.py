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
not wait. Written against gunicorn 27.0.1 (pinned in requirements.txt).
"""

from __future__ import annotations

import errno
import io
import os
import socket
import threading
from collections import deque
from wsgiref.types import WSGIApplication

from gunicorn import util  # type: ignore[import-untyped]
from gunicorn.workers.gthread import TConn, ThreadWorker  # type: ignore[import-untyped]

# Long enough for a phone on a poor signal to send a save or fetch a page; short enough that
# a stalled connection gives its thread back soon.
CLIENT_TIMEOUT = float(os.environ.get("VENUE_CLIENT_TIMEOUT", "15"))


# How many requests of one worker run the app (Django) at once. The threads are there to wait on
# slow phones, not to run Django side by side: threads sharing the interpreter slow each other
# down, and one holding the database's write lock then holds it for longer while the room queues
# behind it (bench/entry_load.py --server venue measures it). A request's body is read before
# it takes a slot, so a phone sending slowly never holds one.
APP_SLOTS = int(os.environ.get("VENUE_APP_SLOTS", "1"))


class FairSlots:
    """A semaphore that serves its waiters in the order they came: a freed slot is handed to
    the longest waiter, so no request is overtaken again and again by newcomers."""

    def __init__(self, slots: int):
        self._lock = threading.Lock()
        self._free = max(1, slots)
        self._waiting: deque[threading.Event] = deque()

    def __enter__(self):
        with self._lock:
            if self._free and not self._waiting:
                self._free -= 1
                return self
            turn = threading.Event()
            self._waiting.append(turn)
        turn.wait()  # the slot is ours when set: release handed it over
        return self

    def __exit__(self, *exc_info):
        with self._lock:
            if self._waiting:
                self._waiting.popleft().set()
            else:
                self._free += 1


class AppSlots:
    """A WSGI app run by at most ``slots`` threads at once, each request's body read first."""

    def __init__(self, app, slots: int):
        self.app = app
        self.slots = FairSlots(slots)

    def __call__(self, environ, start_response):
        length = environ.get("CONTENT_LENGTH") or ""
        if length.isdigit() and int(length) > 0:
            # Bounded by the client's time limit on reads; Django refuses oversized bodies.
            try:
                body = environ["wsgi.input"].read(int(length))
            except OSError:  # the phone stalled past the time limit, or went away
                start_response("408 Request Timeout", [("Content-Type", "text/plain")])
                return [b"The request did not arrive in time. Please try again."]
            environ["wsgi.input"] = io.BytesIO(body)
        with self.slots:
            return self.app(environ, start_response)


class TimedConn(TConn):
    def init(self):
        super().init()
        # The worker sets the socket blocking (no time limit) before each request; this runs
        # right after, for new and kept-alive connections alike.
        self.sock.settimeout(CLIENT_TIMEOUT)

    def close(self, graceful=False):
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


class VenueWorker(ThreadWorker):
    wsgi: WSGIApplication  # the app gunicorn loads, wrapped below; gunicorn has no types

    def load_wsgi(self):
        super().load_wsgi()
        self.wsgi = AppSlots(self.wsgi, APP_SLOTS)

    def accept(self, listener):
        try:
            client_sock, client_addr = listener.accept()
            self.nr_conns += 1
            client_sock.setblocking(True)
            conn = TimedConn(self.cfg, client_sock, client_addr, listener.getsockname())
            self.enqueue_req(conn)
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
