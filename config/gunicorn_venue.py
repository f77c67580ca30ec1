"""gunicorn settings for the venue laptop (`make venue`): phones on the local Wi-Fi.

Threaded workers with a per-client time limit (config/venue_worker.py): a phone that stalls
mid-request holds one thread for at most VENUE_CLIENT_TIMEOUT seconds, and there are many
threads, so the other tables keep saving. SQLite takes one write at a time whatever the thread
count; threads are for waiting on slow phones, not for speed. Each worker runs the app for one
request at a time and takes new connections only while it has room, so a request waits for
whichever worker frees first (bench/entry_load.py compares it with 3 sync workers).
"""

import os
import subprocess
import sys
from pathlib import Path

bind = f"{os.environ.get('VENUE_HOST', '0.0.0.0')}:{os.environ.get('DJANGO_PORT', '8000')}"  # noqa: S104 (the venue serves phones on the LAN)
worker_class = "config.venue_worker.VenueWorker"
# Three, as with the sync workers this replaced: a save holds SQLite's write lock, and with two
# workers the other one often waited for it with its app slot taken, leaving a core idle while
# the phones queued (bench/entry_load.py: a score post's p95 about twice that of three).
workers = int(os.environ.get("VENUE_WORKERS", "3"))
threads = int(os.environ.get("VENUE_THREADS", "32"))
worker_connections = 1000
timeout = 60  # a worker that stops answering its master is restarted
graceful_timeout = 10
keepalive = 5
accesslog = os.environ.get("VENUE_ACCESS_LOG") or None
errorlog = "-"
# gunicorn's control socket sits at one path per user ($XDG_RUNTIME_DIR or ~/.gunicorn): a
# second server on the laptop (a bench, a practice copy) would take over the first one's, and
# whoever reaches it can stop the server. Nothing here uses it.
control_socket_disable = True


# The backups taken on their own (scoring/backup_watch.py): a process beside the server,
# started once it listens and stopped after its workers, so the last backup holds the last save.
_backup_watch: subprocess.Popen | None = None
_MANAGE = Path(__file__).resolve().parent.parent / "manage.py"


def _start_backup_watch() -> None:
    global _backup_watch
    # A session of its own: Ctrl+C in the terminal reaches the server, which stops its workers
    # and only then this process (on_exit), never both at once.
    _backup_watch = subprocess.Popen(  # noqa: S603 (this interpreter and manage.py, no input)
        [sys.executable, str(_MANAGE), "backup_watch"], start_new_session=True
    )


def on_exit(server):
    if _backup_watch is None or _backup_watch.poll() is not None:
        return
    _backup_watch.terminate()
    try:
        _backup_watch.wait(timeout=120)
    except subprocess.TimeoutExpired:
        server.log.warning("The last backup did not finish within two minutes; stopped it.")
        _backup_watch.kill()


def when_ready(server):
    """Say where phones should go, once the server is listening, and start the backups."""
    _start_backup_watch()
    sys.path.insert(0, os.getcwd())
    from core.venue import detect_lan_address

    port = os.environ.get("DJANGO_PORT", "8000")
    base = os.environ.get("DJANGO_BASE_URL", "")
    lan = detect_lan_address()
    lines = ["", "=" * 64]
    if base:
        lines.append(f"Phones open:  {base.rstrip('/')}/")
    elif lan:
        lines.append(f"Phones open:  http://{lan}:{port}/")
    else:
        lines.append("No network found: join the venue's Wi-Fi (or start this laptop's hotspot)")
        lines.append("and run make venue again. Until then only this laptop can open the app.")
    lines.append(f"On this laptop: http://127.0.0.1:{port}/organiser/  (Ctrl+C stops the server)")
    lines.append("=" * 64)
    print("\n".join(lines), flush=True)
