from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from core.formats import date_and_time
from domain.desk_calls import REASON_KEYS
from tournaments.models import Day, Entry, Table


class Game(models.Model):
    """One game of a day's schedule, with the engine the rules call for."""

    day = models.ForeignKey(Day, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    scheduled_engine = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["day_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["day", "number"], name="unique_game_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_from_1"),
        ]

    def __str__(self):
        return f"Game {self.number} (double {self.scheduled_engine})"


class Source(models.TextChoices):
    TABLE_LINK = "table_link", "Table link"
    DESK = "desk", "Desk"
    WORKBOOK = "workbook", "Workbook"
    CORRECTION = "correction", "Organiser correction"


class SheetState(models.TextChoices):
    ENTERED = "entered", "Entered"
    CONFIRMED = "confirmed", "Confirmed"
    SUPERSEDED = "superseded", "Superseded"
    REJECTED = "rejected", "Rejected"


LIVE_STATES = [SheetState.ENTERED, SheetState.CONFIRMED]


class GameSheet(models.Model):
    """One version of one table's record of one game.

    Versions are append-only: a save creates version n+1 and marks n superseded, so a save
    based on a stale version collides on (table, game, version) instead of overwriting.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="sheets")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sheets")
    version = models.PositiveIntegerField(default=1)
    state = models.CharField(max_length=10, choices=SheetState.choices, default=SheetState.ENTERED)
    engine_used = models.PositiveSmallIntegerField()
    went_out = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    blocked = models.BooleanField(default=False)
    source = models.CharField(max_length=10, choices=Source.choices)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The browser a table-link save came from (a hash of a random mark in its session), so a
    # desk user cannot confirm what they typed on a table link while logged out.
    entered_device = models.CharField(max_length=64, blank=True, default="")
    entered_at = models.DateTimeField()
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table_id", "game_id", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "game", "version"], name="one_sheet_per_version"
            ),
            models.UniqueConstraint(
                fields=["table", "game"],
                condition=Q(state__in=LIVE_STATES),
                name="one_live_sheet_per_table_game",
            ),
            models.UniqueConstraint(
                fields=["table", "engine_used"],
                condition=Q(state__in=LIVE_STATES),
                name="engine_once_per_table_day",
            ),
            models.CheckConstraint(
                condition=Q(blocked=True, went_out__isnull=True)
                | Q(blocked=False, went_out__isnull=False),
                name="blocked_or_one_out",
            ),
            models.CheckConstraint(
                condition=Q(state=SheetState.CONFIRMED, confirmed_at__isnull=False)
                | ~Q(state=SheetState.CONFIRMED),
                name="confirmed_has_time",
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="version_from_1"),
        ]
        indexes = [models.Index(fields=["state", "game"], name="sheet_state_game")]

    def __str__(self):
        return f"{self.table}, game {self.game.number} v{self.version} ({self.state})"

    def attach_scores(self, scores: list["Score"]) -> None:
        """Keep scores a selector read along with this sheet (see score_rows)."""
        self._attached_scores = scores

    def score_rows(self) -> list["Score"]:
        """This sheet's scores: the ones attached by a selector, else self.scores.all().

        The table pages read a table's scores in one plain query and attach them: on the busiest
        page prefetch_related's machinery cost more than the query itself.
        """
        attached = getattr(self, "_attached_scores", None)
        return list(self.scores.all()) if attached is None else attached


class Score(models.Model):
    sheet = models.ForeignKey(GameSheet, on_delete=models.CASCADE, related_name="scores")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="scores")
    points = models.PositiveIntegerField()
    tiles = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["sheet_id", "entry_id"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "entry"], name="one_score_per_player_game"),
        ]

    def __str__(self):
        return f"{self.entry}: {self.points}"


class UnplayedGame(models.Model):
    """A table's game the organiser or the desk marked "not played" (time ran out, say), with
    why, who and when. It has no scores: the event's rule (``unplayed_counts``) says what it
    counts in the standings, and the day can be final without it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="unplayed_games")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="unplayed")
    reason = models.TextField()
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    marked_by_label = models.CharField(max_length=150)
    marked_at = models.DateTimeField()

    class Meta:
        ordering = ["table_id", "game_id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "game"], name="game_unplayed_once"),
            models.CheckConstraint(condition=~Q(reason=""), name="unplayed_has_reason"),
        ]

    def __str__(self):
        return f"{self.table}, game {self.game.number} not played"


class UnplayedChange(models.Model):
    """Append-only: each "not played" mark and each taking back of one, with who, when and why.
    The mark itself (UnplayedGame) goes when it is taken back; this stays, for the history."""

    MARKED, UNDONE = "marked", "undone"
    ACTIONS = [(MARKED, "Marked not played"), (UNDONE, "Mark taken back")]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    action = models.CharField(max_length=6, choices=ACTIONS)
    reason = models.TextField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_label = models.CharField(max_length=150)
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="unplayed_change_has_reason"),
        ]

    def __str__(self):
        return f"{self.table}, game {self.game.number}: {self.get_action_display().lower()}"


class AuditEvent(models.Model):
    """Append-only record of every change to a score: who, when, from what, to what, why, how."""

    ENTERED = "entered"
    CONFIRMED = "confirmed"
    REJECTED = "rejected"
    CORRECTED = "corrected"
    ACTIONS = [
        (ENTERED, "Entered"),
        (CONFIRMED, "Confirmed"),
        (REJECTED, "Marked wrong"),
        (CORRECTED, "Corrected"),
    ]

    sheet = models.ForeignKey(GameSheet, on_delete=models.PROTECT, related_name="audit_events")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="audit_events")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="audit_events")
    action = models.CharField(max_length=10, choices=ACTIONS)
    source = models.CharField(max_length=10, choices=Source.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_label = models.CharField(max_length=150)
    at = models.DateTimeField()
    reason = models.TextField(blank=True)
    # How a confirmation came about: the desk pressed Confirm on what the table entered, or the
    # card keyed at the desk (or in the workbook) matched it. Blank for every other action.
    PRESSED = "pressed"
    MATCHED = "matched"
    HOW = [(PRESSED, "Confirm pressed"), (MATCHED, "the card keyed at the desk matched")]
    how = models.CharField(max_length=10, choices=HOW, blank=True, default="")
    # [{"entry": id, "name": str, "from": int|None, "to": int|None}, ...] plus engine/outcome rows
    changes = models.JSONField(default=list)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self):
        return f"{self.get_action_display()} by {self.actor_label} at {date_and_time(self.at)}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValidationError("Audit records cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValidationError("Audit records cannot be deleted.")


class TableSubmission(models.Model):
    """A save sent from a table's phone, remembered by the id its page gave it.

    A phone whose Wi-Fi drops after the server stored a game but before the answer came back
    sends the same save again; the id shows it was stored already, so it is not stored twice.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    # What the save carried (scoring.submissions.fingerprint): the same id with other content
    # is refused, not taken for the save stored already. Empty on ids kept before it was.
    fingerprint = models.CharField(max_length=64, blank=True, default="")
    received_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "key"], name="one_submission_per_key"),
        ]

    def __str__(self):
        return f"{self.table}, game {self.game.number}: submission {self.key}"


class DeskCall(models.Model):
    """A table asked the desk to come over (domain.desk_calls): open until the desk answers."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="desk_calls")
    reason = models.CharField(max_length=10)
    called_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    # None for the command line; the label says who either way.
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_by_label = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["called_at", "pk"]
        indexes = [models.Index(fields=["table", "answered_at"], name="desk_call_open")]
        constraints = [
            models.CheckConstraint(
                condition=Q(reason__in=REASON_KEYS), name="desk_call_reason_known"
            )
        ]

    def __str__(self):
        return f"Table {self.table_id}: {self.reason} at {date_and_time(self.called_at)}"
