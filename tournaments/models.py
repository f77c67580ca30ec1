import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from .tie_breaks import TIE_BREAK_KEYS, tie_break_choices, tie_break_problems

TILE_SETS = [(12, "Double-12 (91 tiles)"), (9, "Double-9 (55 tiles)")]
DOUBLE_BLANK_VALUES = [(0, "0 points"), (50, "50 points")]
TIE_BREAK_CHOICES = tie_break_choices()


def hand_sizes_problems(value: object) -> list[str]:
    """Plain-words reasons ``value`` is not a usable hand-size table (empty when it is).

    A usable table is a non-empty list of ``[fewest players, most players, tiles]`` rows of whole
    numbers: fewest from 1 up to most, tiles at least 1, and no player count in two rows
    (:meth:`RuleFields.hand_size` would silently take the first row that matches).
    """
    shape = (
        "Hand sizes must be a list of [fewest players, most players, tiles] rows, "
        "such as [[2, 4, 15], [5, 6, 12]]."
    )
    if not isinstance(value, (list, tuple)) or not value:
        return [shape]
    problems: list[str] = []
    ranges: list[tuple[int, int]] = []
    for row in value:
        if not (
            isinstance(row, (list, tuple))
            and len(row) == 3
            and all(isinstance(n, int) and not isinstance(n, bool) for n in row)
        ):
            problems.append(f"{row!r} is not a row of three whole numbers. {shape}")
            continue
        low, high, tiles = row
        if not 1 <= low <= high:
            problems.append(
                f"{list(row)}: the fewest players must be at least 1 and no more than the most."
            )
        elif tiles < 1:
            problems.append(f"{list(row)}: each player draws at least 1 tile.")
        elif any(low <= other_high and other_low <= high for other_low, other_high in ranges):
            problems.append(f"{list(row)}: some of these player counts already have a hand size.")
        else:
            ranges.append((low, high))
    return problems


class RuleFields(models.Model):
    """The numbers an organiser can change for an event; presets only fill them in."""

    top_double = models.PositiveSmallIntegerField("tile set", choices=TILE_SETS, default=12)
    days = models.PositiveSmallIntegerField(default=1)
    games_per_day = models.PositiveSmallIntegerField(default=6)
    first_engine = models.PositiveSmallIntegerField(
        default=12, help_text="Engine of game 1; each later game's scheduled engine is one lower."
    )
    max_table_size = models.PositiveSmallIntegerField(default=7)
    double_blank_value = models.PositiveSmallIntegerField(choices=DOUBLE_BLANK_VALUES, default=50)
    hand_sizes = models.JSONField(
        default=list,
        help_text="Tiles each player draws, by players at the table: "
        "[[2, 4, 15], [5, 6, 12]] means 2 to 4 players draw 15, 5 to 6 draw 12.",
    )
    tie_breaks = models.JSONField(
        default=list,
        blank=True,
        help_text="In order, from " + " and ".join(f'"{key}"' for key in TIE_BREAK_KEYS) + ".",
    )
    reshuffle_each_day = models.BooleanField(
        default=True, help_text="Reseat everyone from day 2 onward so players meet new opponents."
    )
    spread_clubs = models.BooleanField(
        "spread the clubs on day 1",
        default=True,
        help_text="Day 1 spreads each club across the tables as evenly as the numbers allow.",
    )

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        # Code that skips full_clean must not store rules the standings cannot apply.
        self.check_list_rules()
        super().save(*args, **kwargs)

    def clean(self) -> None:
        super().clean()
        self.check_list_rules()

    @property
    def lowest_engine(self) -> int:
        return self.first_engine - self.games_per_day + 1

    def scheduled_engines(self) -> list[int]:
        return [self.first_engine - i for i in range(self.games_per_day)]

    def hand_size(self, player_count: int) -> int | None:
        for low, high, tiles in self.hand_sizes:
            if low <= player_count <= high:
                return tiles
        return None

    def check_list_rules(self) -> None:
        """Raise ValidationError, by field, when hand sizes or tie-breaks are unusable.

        These are JSON columns, so neither the column type nor a database constraint checks them.
        """
        found = {
            "hand_sizes": hand_sizes_problems(self.hand_sizes),
            "tie_breaks": tie_break_problems(self.tie_breaks),
        }
        problems = {name: messages for name, messages in found.items() if messages}
        if problems:
            raise ValidationError(problems)

    def rule_values(self) -> dict:
        return {f.name: getattr(self, f.name) for f in RuleFields._meta.get_fields()}

    @classmethod
    def rule_constraints(cls, prefix: str) -> list:
        return [
            models.CheckConstraint(
                condition=Q(top_double__in=[9, 12]), name=f"{prefix}_top_double_known"
            ),
            models.CheckConstraint(
                condition=Q(double_blank_value__in=[0, 50]), name=f"{prefix}_double_blank_0_or_50"
            ),
            models.CheckConstraint(condition=Q(days__gte=1), name=f"{prefix}_days_at_least_1"),
            models.CheckConstraint(
                condition=Q(games_per_day__gte=1), name=f"{prefix}_games_at_least_1"
            ),
            models.CheckConstraint(
                condition=Q(first_engine__lte=F("top_double")), name=f"{prefix}_engine_in_set"
            ),
            models.CheckConstraint(
                condition=Q(games_per_day__lte=F("first_engine") + 1),
                name=f"{prefix}_engines_stay_at_or_above_blank",
            ),
            models.CheckConstraint(
                condition=Q(max_table_size__gte=2, max_table_size__lte=10),
                name=f"{prefix}_table_size_2_to_10",
            ),
        ]


class RulePreset(RuleFields):
    key = models.SlugField(unique=True)
    name = models.CharField(max_length=100)
    source = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["key"]
        constraints = RuleFields.rule_constraints("preset")

    def __str__(self):
        return f"{self.name} ({self.key})"


class Tournament(models.Model):
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=200)
    start_date = models.DateField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    preset = models.ForeignKey(RulePreset, null=True, blank=True, on_delete=models.SET_NULL)
    public_pages = models.BooleanField(
        default=True, help_text="Show standings and 'find your table' to anyone with the address."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "name"]

    def __str__(self):
        return self.name


class RuleSet(RuleFields):
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="rules")

    class Meta:
        constraints = RuleFields.rule_constraints("ruleset")

    def __str__(self):
        return f"Rules for {self.tournament}"


class StaffRole(models.Model):
    """Who may run a tournament: organisers change everything, desk staff enter and confirm."""

    ORGANISER = "organiser"
    DESK = "desk"
    ROLES = [(ORGANISER, "Organiser"), (DESK, "Desk")]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    role = models.CharField(max_length=10, choices=ROLES)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_role_per_user"),
        ]

    def __str__(self):
        return f"{self.user} is {self.role} of {self.tournament}"


class Player(models.Model):
    """A person in the directory: outlives any one event. An organiser sees and reuses only the
    players of events they organise (selectors.directory_for); contact details are the entry's,
    given to one event."""

    name = models.CharField(max_length=120)
    club = models.CharField("club or chapter", max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    # Not stored: selectors.directory_matches sets it (the player's number in the event searched
    # from, or None).
    entry_number: int | None

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Entry(models.Model):
    REGISTERED = "registered"
    CHECKED_IN = "checked_in"
    WITHDRAWN = "withdrawn"
    STATUSES = [(REGISTERED, "Registered"), (CHECKED_IN, "Checked in"), (WITHDRAWN, "Withdrawn")]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField("player number")
    status = models.CharField(max_length=12, choices=STATUSES, default=REGISTERED)
    pinned_table = models.PositiveSmallIntegerField(null=True, blank=True)
    # Given to this event's organisers only; another event entering the same player does not see it.
    contact = models.CharField(max_length=200, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)

    # Not stored: selectors.entry_list and entry_detail set it (the entries this one must sit
    # apart from).
    keep_apart: "list[Entry]"

    class Meta:
        ordering = ["tournament_id", "number"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_player_number"),
            models.UniqueConstraint(fields=["tournament", "player"], name="player_enters_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="player_number_from_1"),
            models.CheckConstraint(
                condition=Q(pinned_table__isnull=True) | Q(pinned_table__gte=1),
                name="pinned_table_from_1",
            ),
        ]

    def __str__(self):
        return f"#{self.number} {self.player.name}"


class KeepApart(models.Model):
    """Two entries who must never share a table (a married couple, say)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="keep_aparts")
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="keep_apart_once"),
            models.CheckConstraint(
                condition=Q(first__lt=F("second")), name="keep_apart_ordered_pair"
            ),
        ]

    def __str__(self):
        return f"{self.first} / {self.second}"


class Day(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="days")
    number = models.PositiveSmallIntegerField()
    date = models.DateField(null=True, blank=True)
    seed = models.BigIntegerField(null=True, blank=True)
    seated_at = models.DateTimeField(null=True, blank=True)
    repeat_pairs = models.PositiveIntegerField(null=True, blank=True)
    repeat_lower_bound = models.PositiveIntegerField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_day_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="day_number_from_1"),
        ]

    def __str__(self):
        return f"{self.tournament} day {self.number}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    def scores_started(self) -> bool:
        """The roster locks when the day's first score is entered (the two-day tournament rules:
        no late joiners)."""
        return Table.objects.with_scores().filter(day=self).exists()


def new_table_token() -> str:
    # 32 random bytes: 256 bits, far beyond guessing, and short enough for a QR code.
    return secrets.token_urlsafe(32)


# Capitals and digits that cannot be taken for one another when read from a card or aloud:
# no 0/O/D/Q, 1/I/L, 2/Z, 5/S, 8/B, U/V. 21 symbols, 6 of them: about 86 million codes.
TABLE_CODE_ALPHABET = "ACEFGHJKMNPRTWXY34679"
TABLE_CODE_LENGTH = 6


def new_table_code() -> str:
    """A short code a scorekeeper can type instead of opening the long link."""
    return "".join(secrets.choice(TABLE_CODE_ALPHABET) for _ in range(TABLE_CODE_LENGTH))


def normalise_table_code(typed: str) -> str:
    """What was typed, as a stored code is written: capitals, no spaces or dashes."""
    return "".join(ch for ch in typed.upper() if ch not in " -\t")


class TableQuerySet(models.QuerySet):
    def with_scores(self):
        """Tables with a score sheet entered. Play has started on a day, and in an event, as soon
        as one of its tables has one; every "has play started?" question asks this."""
        return self.filter(sheets__isnull=False)


class Table(models.Model):
    day = models.ForeignKey(Day, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    link_token = models.CharField(max_length=64, unique=True, default=new_table_token)
    # Unique over every table ever made, so a code never opens a table it was not printed for.
    code = models.CharField(max_length=TABLE_CODE_LENGTH, unique=True, default=new_table_code)

    objects = TableQuerySet.as_manager()

    class Meta:
        ordering = ["day_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["day", "number"], name="unique_table_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_from_1"),
        ]

    def __str__(self):
        return f"Table {self.number} ({self.day})"


class Seat(models.Model):
    # day is repeated from the table so the database itself refuses a player seated twice a day.
    day = models.ForeignKey(Day, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    left_after_game = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Withdrew mid-day: plays no game after this one."
    )

    class Meta:
        ordering = ["table_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["day", "entry"], name="seated_once_a_day"),
            models.UniqueConstraint(fields=["table", "position"], name="one_player_per_seat"),
        ]

    def __str__(self):
        return f"{self.entry} at {self.table}"

    def plays_game(self, game_number: int) -> bool:
        return self.left_after_game is None or game_number <= self.left_after_game
