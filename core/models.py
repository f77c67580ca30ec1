"""The one table of the app's own plumbing: attempts counted by the throttles (core/throttle.py)."""

from django.db import models


class ThrottleCount(models.Model):
    """Attempts of one kind from one client in the window that ends at ``ends_at``.

    Kept in the database, not a cache: every server process counts in the same row, a row lock
    makes each count one (a cache's read-and-add loses counts under parallel requests), a full
    cache never drops a live lock, and the window's end is stored, not renewed by each count."""

    key = models.CharField(max_length=200, unique=True)
    count = models.PositiveIntegerField(default=0)
    ends_at = models.FloatField(db_index=True, help_text="Seconds since the epoch.")

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
