import os
import signal
import threading

from django.conf import settings
from django.core.management.base import BaseCommand

from scoring.backup_watch import BackupWatch
from tournaments.backups import BackupError


class Command(BaseCommand):
    help = (
        "Take backups on their own until stopped: every 15 minutes while scores change, when a "
        "day is closed, and once more when stopped (Ctrl+C, or the server it was started beside "
        "stopping). make venue runs it."
    )

    def add_arguments(self, parser):
        parser.add_argument("--folder", default=None, help="default: DJANGO_BACKUP_DIR")
        parser.add_argument(
            "--copy-to", default=None, help="a second folder (default: DJANGO_BACKUP_COPY_DIR)"
        )
        parser.add_argument(
            "--check-every", type=float, default=60.0, help="seconds between checks (60)"
        )

    def handle(self, **options):
        if not settings.AUTO_BACKUPS:
            self.stdout.write("Automatic backups are off (DJANGO_AUTO_BACKUPS=0).")
            return
        watch = BackupWatch(
            options["folder"] or settings.BACKUP_DIR,
            options["copy_to"] or settings.BACKUP_COPY_DIR or None,
        )
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, lambda *_: stop.set())
        parent = os.getppid()
        where = f"{watch.folder}" + (f" and {watch.copy_folder}" if watch.copy_folder else "")
        self.stdout.write(f"Automatic backups into {where}.")
        self.stdout.flush()
        while not stop.is_set():
            self._check(watch)
            # The server that started this one is gone (killed, not stopped): stop with it.
            if os.getppid() != parent:
                break
            stop.wait(options["check_every"])
        written = self._check(watch, stopping=True)
        self.stdout.write(
            f"Last backup: {written}" if written else "Nothing changed since the last backup."
        )

    def _check(self, watch: BackupWatch, *, stopping: bool = False):
        try:
            return watch.check(stopping=stopping)
        except BackupError as error:
            # A full disk at 10 a.m. must not end the backups of the afternoon.
            self.stderr.write(f"Backup failed: {error}")
            return None
