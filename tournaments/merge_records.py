"""The audit record of merging two people (tournaments.services.merging), in a module of its own
so the models module stays one read; tournaments.models imports it, so Django finds it there."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class PlayerMerge(models.Model):
    """The audit record of one merge of two people (services.merging): who was kept, who was
    dropped, the entries moved, who did it and when. Never deleted or changed, except that an
    undo fills in when and by whom."""

    kept = models.ForeignKey(
        "tournaments.Player", on_delete=models.PROTECT, related_name="merges_kept"
    )
    dropped = models.ForeignKey(
        "tournaments.Player", on_delete=models.PROTECT, related_name="merges_dropped"
    )
    # Entry ids, not foreign keys: an undo moves back exactly these, and the record outlives an
    # event deleted since.
    entries = models.JSONField(default=list)
    # None for the command line, which has no account; the label says who either way.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_label = models.CharField(max_length=150)
    at = models.DateTimeField()
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by_label = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(name="merge_two_people", condition=~Q(kept=F("dropped"))),
        ]

    def __str__(self):
        return f"Player {self.dropped_id} merged into {self.kept_id}"
