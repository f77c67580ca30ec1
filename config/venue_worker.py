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
import os
import socket

from gunicorn import util  # type: ignore[import-untyped]
from gunicorn.workers.gthread import TConn, ThreadWorker  # type: ignore[import-untyped]

# Long enough for a phone on a poor signal to send a save or fetch a page; short enough that
# a stalled connection gives its thread back soon.
CLIENT_TIMEOUT = float(os.environ.get("VENUE_CLIENT_TIMEOUT", "15"))


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
