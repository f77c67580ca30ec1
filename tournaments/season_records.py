"""A club's seasons: their events in order, each day of each event one session of the season.

Part of ``tournaments.models`` (imported there, which is where the rest of the project finds
them), kept apart so that module stays a size to read whole.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from domain.season_ranking import MAX_MIN_SESSIONS


class Season(models.Model):
    """A club's season: its events in order, each day of each event one session of the season.

    An event belongs to at most one season (``SeasonEvent.tournament`` is one-to-one), so "the
    season's earlier sessions" always means one list. The season's public page is shown only
    when ``public_pages`` is on *and* every event in it has its public pages on: an event kept
    private keeps its scores out of the season's public page too.
    """

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=200)
    best_of = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Rank by each player's best N sessions (lowest totals); empty ranks by the "
        "average per game.",
    )
    min_sessions = models.PositiveSmallIntegerField(
        "minimum sessions",
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_MIN_SESSIONS)],
        help_text="Players with fewer sessions than this are listed after the ranked players, "
        "without a rank (when ranking by the average per game).",
    )
    avoid_earlier_pairings = models.BooleanField(
        default=True,
        help_text="Seating a session of an event in this season avoids pairs who met at the "
        "season's earlier events.",
    )
    public_pages = models.BooleanField(
        default=False,
        help_text="Show the season standings to anyone with the address (only while every "
        "event in the season is public too).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Until its first event is added, a season is seen and changed only by whoever made it (and
    # superusers): an empty season has no events whose staff could say whose it is.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-created_at", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(best_of__isnull=True) | Q(best_of__gte=1), name="season_best_of_from_1"
            ),
            models.CheckConstraint(
                condition=Q(min_sessions__gte=1), name="season_min_sessions_from_1"
            ),
        ]

    def __str__(self):
        return self.name


class SeasonEvent(models.Model):
    """One event of a season, at its place in the season's order (1 is the first)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="season_events")
    tournament = models.OneToOneField(
        "Tournament", on_delete=models.CASCADE, related_name="season_event"
    )
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["season_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["season", "position"], name="season_position_once"),
            models.CheckConstraint(condition=Q(position__gte=1), name="season_position_from_1"),
        ]

    def __str__(self):
        return f"{self.season}: {self.position}. {self.tournament}"
