"""config.wsgi's app with a stopwatch, for the load benches (``gunicorn bench.timed_wsgi``).

gunicorn's access log gives a request's time inside a worker; with the venue worker that time
also holds the wait for the worker's app slot (config/venue_worker.py), so it cannot tell a slow
save from a long queue. Each request's time inside Django is left in its environ, which the
access log can print (``%({app_ms}e)s``), and the venue worker still wraps this app in its slots.
"""

from __future__ import annotations

import time

from config.wsgi import application as django_application


def application(environ, start_response):
    started = time.perf_counter()
    try:
        return django_application(environ, start_response)
    finally:
        environ["app_ms"] = f"{(time.perf_counter() - started) * 1000:.2f}"
