import secrets
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from domain import fees, rules as rule_checks
from domain.finals import COUNTS_CHOICES, NO_FINAL, OWN_TOTAL, QUALIFY_CHOICES
from domain.flights import FLIGHT_MAX, Birth
from domain.hidden_finish import HiddenFinish
from domain.rules import SETS, hand_sizes_problems, rule_problems, set_label
from domain.tie_breaks import TIE_BREAK_KEYS, tie_break_choices
from tournaments import hooks
from tournaments.merge_records import PlayerMerge
from tournaments.prize_records import Prize, PrizeDecision
from tournaments.season_records import Season, SeasonEvent

TILE_SETS = [(top, set_label(top)) for top in SETS]
TIE_BREAK_CHOICES = tie_break_choices()
# Importable from here, where the tests and the admin have always found them.
__all__ = [
    "PlayerMerge",
    "Prize",
    "PrizeDecision",
    "Season",
    "SeasonEvent",
    "hand_sizes_problems",
]


class RuleFields(models.Model):
    """The numbers an organiser can change for an event; presets only fill them in."""

    top_double = models.PositiveSmallIntegerField("tile set", choices=TILE_SETS, default=12)
    days = models.PositiveSmallIntegerField(default=1)
    games_per_day = models.PositiveSmallIntegerField(default=6)
    first_engine = models.PositiveSmallIntegerField(
        default=12, help_text="Engine of game 1; each later game's scheduled engine is one lower."
    )
    max_table_size = models.PositiveSmallIntegerField(default=7)
    engine_order = models.JSONField(
        default=list,
        blank=True,
        help_text="The engine of each game in order, such as [9, 8, 7]; empty means counting "
        "down from the first engine.",
    )
    double_blank_value = models.PositiveSmallIntegerField(
        default=50,
        help_text="Points the double blank counts in a hand "
        f"(0 to {rule_checks.MAX_DOUBLE_BLANK}).",
    )
    hand_sizes = models.JSONField(
        default=list,
        help_text="Tiles each player draws, by players at the table: "
        "[[2, 4, 15], [5, 6, 12]] means 2 to 4 players draw 15, 5 to 6 draw 12.",
    )
    engine_set_aside = models.BooleanField(
        "engine set aside before the deal",
        default=False,
        help_text="Each game's engine is taken out of the set before the tiles are dealt; "
        "otherwise every tile is dealt and the player holding the engine starts with it.",
    )
    tie_breaks = models.JSONField(
        default=list,
        blank=True,
        help_text="In order, from " + " and ".join(f'"{key}"' for key in TIE_BREAK_KEYS) + ".",
    )
    unplayed_counts = models.CharField(
        "a game not played counts",
        max_length=10,
        choices=list(rule_checks.UNPLAYED_CHOICES.items()),
        default=rule_checks.UNPLAYED_NOTHING,
        help_text="For each player at a table whose game was marked not played.",
    )
    late_joins = models.BooleanField(
        default=False,
        help_text="A player who arrives after play has started is seated at the smallest table "
        "for the games still to come.",
    )
    late_missed_games = models.CharField(
        "a late player's missed games count",
        max_length=10,
        choices=list(rule_checks.LATE_CHOICES.items()),
        default=rule_checks.LATE_NOTHING,
        help_text="For each game of that day a late player missed, once it is confirmed at "
        "their table.",
    )
    substitutes = models.BooleanField(
        default=False,
        help_text="Someone may take a withdrawn player's seat from a given game on.",
    )
    substitute_ranking = models.CharField(
        "a substitute's games count",
        max_length=10,
        choices=list(rule_checks.SUBSTITUTE_CHOICES.items()),
        default=rule_checks.SUB_NOT_RANKED,
    )
    reshuffle_each_day = models.BooleanField(
        default=True, help_text="Reseat everyone from day 2 onward so players meet new opponents."
    )
    # How each session after the first is seated (domain.rules.SESSION_SEATING_CHOICES), and
    # the movement's numbers (domain.movement).
    session_seating = models.CharField(
        "seat each session after the first by",
        max_length=10,
        choices=list(rule_checks.SESSION_SEATING_CHOICES.items()),
        default=rule_checks.SEATING_RESHUFFLE,
    )
    move_up = models.PositiveSmallIntegerField(
        "lowest at each table who move up a table",
        default=0,
        help_text="Under a movement: the players with the lowest totals at each table move up "
        "one table, toward table 1.",
    )
    move_down = models.PositiveSmallIntegerField(
        "highest at each table who move down a table",
        default=0,
        help_text="Under a movement: the players with the highest totals at each table move "
        "down one table.",
    )
    end_tables = models.CharField(
        "table 1 and the last table",
        max_length=10,
        choices=list(rule_checks.END_TABLES_CHOICES.items()),
        default=rule_checks.ENDS_STAY,
    )
    sessions_per_day = models.PositiveSmallIntegerField(
        default=1,
        help_text='Sessions played on one date; each session is a "day" of the rules, with '
        "its own tables and its games.",
    )
    spread_clubs = models.BooleanField(
        "spread the clubs on day 1",
        default=True,
        help_text="Day 1 spreads each club across the tables as evenly as the numbers allow.",
    )
    spread_clubs_every_day = models.BooleanField(
        "spread the clubs on later days too",
        default=False,
        help_text="Later days spread each club too, after keeping apart pairs who sat together "
        "before.",
    )
    # Names in order ("50-59", "80+"); empty: the event has no flights (domain.flights).
    flights = models.JSONField(default=list, blank=True)
    seat_within_flights = models.BooleanField(
        "seat each flight at tables of its own",
        default=False,
        help_text="Tables seat players of one flight; off, the tables mix the flights.",
    )
    # A final (domain.finals): the last day, played by the qualifiers of the days before it.
    final_qualify = models.CharField(
        "a final: who goes through",
        max_length=10,
        choices=list(QUALIFY_CHOICES.items()),
        default=NO_FINAL,
    )
    final_session = models.PositiveSmallIntegerField(
        default=0, help_text="The session whose tables each send their lowest total."
    )
    final_qualifiers = models.PositiveSmallIntegerField(
        default=0, help_text="How many go through: overall, or from each flight."
    )
    final_tables = models.PositiveSmallIntegerField(default=1)
    final_counts = models.CharField(
        "the final counts",
        max_length=10,
        choices=list(COUNTS_CHOICES.items()),
        default=OWN_TOTAL,
    )

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        # An explicit engine order starts where it says; first_engine follows it.
        if self.engine_order and isinstance(self.engine_order[0], int):
            self.first_engine = self.engine_order[0]
        # A form's empty JSON field gives None; no flights is an empty list everywhere else.
        self.flights = self.flights or []
        # Code that skips full_clean must not store rules that cannot be played.
        self.check_rules()
        super().save(*args, **kwargs)

    def clean(self) -> None:
        super().clean()
        self.check_rules()

    @property
    def lowest_engine(self) -> int:
        return min(self.scheduled_engines())

    def scheduled_engines(self) -> list[int]:
        return rule_checks.scheduled_engines(
            self.first_engine, self.games_per_day, self.engine_order
        )

    def engine_order_label(self) -> str:
        engines = self.scheduled_engines()
        if engines == rule_checks.counting_down(engines[0], len(engines)) and len(engines) > 1:
            return f"double {engines[0]} down to double {engines[-1]}"
        return "doubles " + ", ".join(str(e) for e in engines)

    def hand_size(self, player_count: int) -> int | None:
        return rule_checks.hand_size(self.hand_sizes, player_count)

    def check_rules(self) -> None:
        """Raise ValidationError, by field, when the rules cannot be played as a whole (see
        :func:`rule_checks.rule_problems`): JSON columns and rules that depend on each other
        are beyond what the column types and database constraints can check."""
        problems = rule_problems(self.rule_values())
        if problems:
            raise ValidationError(problems)

    def rule_values(self) -> dict:
        return {f.name: getattr(self, f.name) for f in RuleFields._meta.get_fields()}

    @classmethod
    def rule_constraints(cls, prefix: str) -> list:
        return [
            models.CheckConstraint(condition=Q(top_double__in=SETS), name=f"{prefix}_set_is_known"),
            models.CheckConstraint(condition=Q(days__gte=1), name=f"{prefix}_days_at_least_1"),
            models.CheckConstraint(
                condition=Q(games_per_day__gte=1), name=f"{prefix}_games_at_least_1"
            ),
            models.CheckConstraint(
                condition=Q(first_engine__lte=F("top_double")), name=f"{prefix}_engine_in_set"
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
    sources = models.JSONField(
        default=dict,
        blank=True,
        help_text='Where each value comes from, by field: "seed" (the organiser\'s rule sheet) '
        'or "assumed" (our choice where the sheet is silent).',
    )

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
    # A hidden finish (domain.hidden_finish): public standings stop after this game of this
    # day (no game: the whole day) until the organiser reveals them.
    hidden_after_day = models.PositiveSmallIntegerField(null=True, blank=True)
    hidden_after_game = models.PositiveSmallIntegerField(null=True, blank=True)
    # Fees (domain.fees): each entry owes entry_fee and day_fee for each day of the event;
    # pot_percent of what is collected goes to prizes, split over places by pot_split.
    entry_fee = models.DecimalField(max_digits=7, decimal_places=2, default=Decimal(0))
    day_fee = models.DecimalField(max_digits=7, decimal_places=2, default=Decimal(0))
    pot_percent = models.PositiveSmallIntegerField(default=0)
    pot_split = models.JSONField(default=list, blank=True)
    # Prizes (domain.prizes): one each unless the organiser allows more; when the
    # announcement sheet was last printed, so a later score change says it is out of date.
    prizes_one_each = models.BooleanField(default=True)
    prizes_printed_at = models.DateTimeField(null=True, blank=True)
    # A practice copy (scoring.practice) of this event, for volunteers to try the evening
    # before: never public, in no season, its scores cleared on "reset practice".
    practice_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="practice_copy"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "name"]
        permissions = [("create_tournament", "Can create tournaments")]
        constraints = [
            models.CheckConstraint(
                name="hidden_game_needs_a_day",
                condition=Q(hidden_after_game__isnull=True) | Q(hidden_after_day__isnull=False),
            ),
            models.CheckConstraint(
                name="fees_not_below_zero", condition=Q(entry_fee__gte=0, day_fee__gte=0)
            ),
            models.CheckConstraint(
                name="pot_percent_at_most_100", condition=Q(pot_percent__lte=100)
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def is_practice(self) -> bool:
        return self.practice_of_id is not None

    @property
    def hidden_finish(self) -> HiddenFinish | None:
        if self.hidden_after_day is None:
            return None
        return HiddenFinish(self.hidden_after_day, self.hidden_after_game)


class RuleSet(RuleFields):
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="rules")

    class Meta:
        constraints = RuleFields.rule_constraints("ruleset")

    def __str__(self):
        return f"Rules for {self.tournament}"


class StandingsSettingChange(models.Model):
    """Append-only history of the standings settings (``domain.rules.STANDINGS_SETTINGS``),
    which may change after play has started: who changed which, when, from what, to what."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="standings_setting_changes"
    )
    setting = models.CharField(max_length=40)
    before = models.JSONField()
    after = models.JSONField()
    # None for the command line, which has no account; the label says who either way.
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_by_label = models.CharField(max_length=150)
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-changed_at", "-pk"]

    def __str__(self):
        return f"{self.setting} changed by {self.changed_by_label}"


class StaffRole(models.Model):
    """Who may run a tournament: organisers change everything, desk staff enter and confirm."""

    ORGANISER = "organiser"
    DESK = "desk"
    ROLES = [(ORGANISER, "Organiser"), (DESK, "Desk")]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    # A new login is a desk volunteer unless the organiser says otherwise.
    role = models.CharField(max_length=10, choices=ROLES, default=DESK)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_role_per_user"),
        ]

    def __str__(self):
        return f"{self.user} is {self.role} of {self.tournament}"


class Player(models.Model):
    """A person in the directory, outliving any one event, with their current club (each entry
    keeps the club of its event). An organiser sees only players of events they organise
    (selectors.directory_for); contact details are the entry's, given to one event."""

    name = models.CharField(max_length=120)
    club = models.CharField("club or chapter", max_length=120, blank=True)
    # The club's own number for the person: an import trusts it before the name (domain.people).
    member_number = models.CharField(max_length=40, blank=True, db_index=True)
    # When the person was born, as far as the directory knows (the year, or the whole date): a
    # flight by age is set from it (domain.flights.flight_by_birth).
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)
    birth_date = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Merged into another person (services.merging): kept, with no entries, for an undo.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged_from"
    )

    # Not stored: selectors.directory_matches sets it (the player's number in the event searched
    # from, or None).
    entry_number: int | None

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(birth_date__isnull=True) | Q(birth_year__isnull=False),
                name="birth_date_has_its_year",
            )
        ]

    def __str__(self):
        return self.name

    @property
    def birth(self) -> Birth:
        return Birth(self.birth_year, self.birth_date)


class Entry(models.Model):
    REGISTERED = "registered"
    CHECKED_IN = "checked_in"
    WITHDRAWN = "withdrawn"
    STATUSES = [(REGISTERED, "Registered"), (CHECKED_IN, "Checked in"), (WITHDRAWN, "Withdrawn")]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField("Player ID")
    status = models.CharField(max_length=12, choices=STATUSES, default=REGISTERED)
    pinned_table = models.PositiveSmallIntegerField(null=True, blank=True)
    # As it was at this event: a directory change leaves a finished event's record as it was.
    club = models.CharField("club or chapter", max_length=120, blank=True)
    # One of the event's flights, or blank: the entry's, so a new season's age group leaves
    # last season's record as it was.
    flight = models.CharField(max_length=FLIGHT_MAX, blank=True)
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

    def save(self, *args, **kwargs):
        # An entry starts with the person's current club unless it was given one.
        if self._state.adding and not self.club and self.player_id is not None:
            self.club = self.player.club
        super().save(*args, **kwargs)


class Payment(models.Model):
    """Money taken for an entry's fee at check-in or later (domain.fees), or the fee waived."""

    METHODS = list(fees.METHODS)

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="payments")
    amount = models.DecimalField(max_digits=7, decimal_places=2)
    method = models.CharField(max_length=8, choices=METHODS)
    paid_at = models.DateTimeField()
    # None for the command line; the label says who either way.
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    taken_by_label = models.CharField(max_length=150)

    class Meta:
        ordering = ["paid_at", "pk"]
        constraints = [
            models.CheckConstraint(name="payment_above_zero", condition=Q(amount__gt=0)),
            models.CheckConstraint(
                name="payment_method_known", condition=Q(method__in=fees.METHOD_KEYS)
            ),
        ]

    def __str__(self):
        return f"{self.amount} {self.method} for entry {self.entry_id}"


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
    # When the current seating's wall charts (or find-your-table lists) and score sheets were
    # last printed, so that a reseat or clear says truthfully what paper it makes wrong.
    charts_printed_at = models.DateTimeField(null=True, blank=True)
    sheets_printed_at = models.DateTimeField(null=True, blank=True)
    # Seated by a movement: each player's move from the session before, as the seating page
    # shows it ({"entry", "from_table", "to_table", "words"}); empty for any other seating.
    moves = models.JSONField(default=list, blank=True)

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
    def with_scores(self) -> "models.QuerySet[Table]":
        """Tables with a score sheet entered. Play has started on a day, and in an event, as soon
        as one of its tables has one; every "has play started?" question asks this. What was
        entered is scoring's to say, so scoring narrows the queryset (tournaments.hooks)."""
        return hooks.play_record().tables_with_scores(self)


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
    joined_at_game = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Joined after play started (late, or as a substitute): plays from this game.",
    )
    replaces = models.ForeignKey(
        Entry,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The withdrawn player whose seat this substitute took.",
    )

    class Meta:
        ordering = ["table_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["day", "entry"], name="seated_once_a_day"),
            models.UniqueConstraint(fields=["table", "position"], name="one_player_per_seat"),
        ]

    def __str__(self):
        return f"{self.entry} at {self.table}"

    def absent_word(self, game_number: int) -> str:
        """What a sheet shows for this seat in a game it does not play: "" when it plays,
        "not yet" before a late player or substitute joined, "left" after a withdrawal."""
        if self.plays_game(game_number):
            return ""
        if self.joined_at_game is not None and game_number < self.joined_at_game:
            return "not yet"
        return "left"

    def plays_game(self, game_number: int) -> bool:
        joined = self.joined_at_game is None or game_number >= self.joined_at_game
        return joined and (self.left_after_game is None or game_number <= self.left_after_game)


class SeatingPlan(models.Model):
    """Every day of an event not seated yet, planned together so that over all of them as few
    pairs as possible meet again (:mod:`domain.seating.sessions`).

    A plan, not a promise: nothing is seated until the organiser seats a planned day, which
    follows the plan as far as the players of that morning allow. The tables are stored as
    entry ids (not foreign keys), so a player withdrawn or gone since is still visible as a
    change to the plan instead of vanishing from it unnoticed.
    """

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="seating_plan"
    )
    planned_at = models.DateTimeField()
    planned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Empty when planned from the command line.",
    )
    seed = models.BigIntegerField()
    method = models.CharField(max_length=200, help_text="How the planner made it, in words.")
    day_numbers = models.JSONField(default=list, help_text="The days planned together, in order.")
    players = models.JSONField(default=list, help_text="The entry ids the plan seats.")
    planned_repeats = models.PositiveIntegerField(
        help_text="Repeat pairs over the planned days, as planned."
    )
    lower_bound = models.PositiveIntegerField(
        help_text="The fewest repeat pairs any schedule of these days can have (proven)."
    )

    def __str__(self):
        return f"Seating plan of {self.tournament}"


class PlannedDay(models.Model):
    """One planned day's tables. Removed when the day is seated from it: a day is seated,
    planned, or neither."""

    plan = models.ForeignKey(SeatingPlan, on_delete=models.CASCADE, related_name="planned_days")
    day = models.OneToOneField(Day, on_delete=models.CASCADE, related_name="planned")
    tables = models.JSONField(help_text="Entry ids at each table, table 1 first.")
    repeat_pairs = models.PositiveIntegerField(
        help_text="Pairs meeting again, against the seated days and the planned days before."
    )
    lower_bound = models.PositiveIntegerField(
        help_text="The fewest repeat pairs this day can have after the days before it."
    )

    class Meta:
        ordering = ["day_id"]

    def __str__(self):
        return f"Plan of {self.day}"

    @property
    def entry_ids(self) -> set[int]:
        return {p for table in self.tables for p in table}
