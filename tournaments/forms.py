"""Forms for registration, check-in and seating. They check input; services do the writing."""

from typing import Any

from django import forms
from django.utils import timezone

from core.formats import entered_so_far, when_left
from core.forms import CappedUploadForm, field_of
from domain.finals import COUNTS_CHOICES, QUALIFY_CHOICES
from domain.flights import Birth, format_flights, parse_flights, read_birth
from domain.people import SamePerson
from domain.rules import (
    END_TABLES_CHOICES,
    ENDS_STAY,
    LATE_CHOICES,
    LATE_NOTHING,
    MAX_DOUBLE_BLANK,
    MAX_SESSIONS_PER_DAY,
    SEATING_RESHUFFLE,
    SESSION_SEATING_CHOICES,
    SUBSTITUTE_CHOICES,
    UNPLAYED_CHOICES,
    format_engine_order,
    format_hand_chart,
    parse_engine_order,
    parse_hand_chart,
)
from tournaments.models import TIE_BREAK_CHOICES, TILE_SETS, Entry, RulePreset, Tournament
from tournaments.player_import import CLUB_MAX, CONTACT_MAX, MEMBER_NUMBER_MAX, NAME_MAX

BY_NUMBER = "number"
BY_SURNAME = "surname"


class PlayerSearchForm(forms.Form):
    q = forms.CharField(label="Search by name", required=False, max_length=NAME_MAX)
    # People look for themselves by surname; the desk often by the number on the card.
    order = forms.ChoiceField(
        choices=[(BY_NUMBER, "player ID"), (BY_SURNAME, "surname")], required=False
    )


class FlightsByAgeForm(forms.Form):
    on = forms.DateField(
        label="Age on",
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Senior games count the age reached in the year: 31 December.",
    )


class PlayerDetailsForm(forms.Form):
    name = forms.CharField(label="Name", max_length=NAME_MAX)
    club = forms.CharField(label="Club or chapter", max_length=CLUB_MAX, required=False)
    member_number = forms.CharField(
        label="Member number",
        max_length=MEMBER_NUMBER_MAX,
        required=False,
        help_text="The club's number for this person, if it has one: an imported list finds "
        "them by it.",
    )
    contact = forms.CharField(
        label="Phone or email",
        max_length=CONTACT_MAX,
        required=False,
        help_text="Only this event's organisers see this.",
    )
    pinned_table = forms.IntegerField(
        label="Pinned table",
        required=False,
        min_value=1,
        max_value=200,
        help_text="Only for a player who cannot move; leave empty otherwise.",
    )
    birth = forms.CharField(
        label="Born",
        max_length=12,
        required=False,
        help_text="The year (1948) or the date (1948-03-21), if you set flights by age.",
    )
    # A menu of the event's flights; the registration service, not the menu, refuses any other.
    flight = forms.CharField(label="Flight", required=False, widget=forms.Select)

    def __init__(self, *args, flights=(), **kwargs):
        super().__init__(*args, **kwargs)
        if not flights:
            del self.fields["flight"]  # the event has none: nothing to choose
            return
        self.fields["flight"].widget = forms.Select(
            choices=[("", "none"), *((name, name) for name in flights)]
        )

    def clean_birth(self) -> Birth:
        birth, problem = read_birth(self.cleaned_data["birth"], timezone.localdate())
        if problem:
            raise forms.ValidationError(problem[0].upper() + problem[1:])
        return birth

    # A name of spaces alone is stripped to nothing and refused as required; runs of spaces
    # inside a name are closed up by the services, the one place that cleans names.


class ExistingPlayerForm(forms.Form):
    player = forms.IntegerField(widget=forms.HiddenInput)


class EntryChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Entry) -> str:
        return f"{obj.player.name} (#{obj.number})"


class KeepApartForm(forms.Form):
    other = EntryChoiceField(
        label="Keep apart from",
        queryset=Entry.objects.none(),
        empty_label="Choose a player",
        help_text="They will never share a table (a married couple, say).",
    )

    def __init__(self, *args, entry, **kwargs):
        super().__init__(*args, **kwargs)
        field_of(self, "other", EntryChoiceField).queryset = (
            Entry.objects.filter(tournament_id=entry.tournament_id)
            .exclude(pk=entry.pk)
            .exclude(status=Entry.WITHDRAWN)
            .select_related("player")
            .order_by("player__name")
        )


class ImportForm(CappedUploadForm):
    file = forms.FileField(
        label="Player list (.xlsx or .csv)",
        help_text="First row: Name (or First name and Last name), and if you have them Club, "
        "Member number, Phone, Email, Keep apart, Table.",
    )


SAME = "same"
NEW = "new"
EVERYONE_SAME = "all"
EVERYONE_NEW = "none"


class SamePersonForm(forms.Form):
    """The import's review: "same person?" for each question's row, or one answer for all
    (the ``everyone`` button). ``answers`` is the result once valid."""

    pending = forms.CharField(widget=forms.HiddenInput)
    everyone = forms.ChoiceField(
        choices=[("", "row by row"), (EVERYONE_SAME, "all"), (EVERYONE_NEW, "none")],
        required=False,
    )

    def __init__(self, *args, rows: list[int], **kwargs):
        super().__init__(*args, **kwargs)
        self.rows = rows
        for row in rows:
            self.fields[f"row_{row}"] = forms.ChoiceField(
                label=f"Row {row}",
                choices=[(SAME, "Same person"), (NEW, "Someone new")],
                widget=forms.RadioSelect,
                required=False,
            )

    def clean(self):
        cleaned = super().clean() or {}
        everyone = cleaned.get("everyone")
        if everyone:
            self.answers = SamePerson(everyone=everyone == EVERYONE_SAME)
            return cleaned
        missing = [row for row in self.rows if not cleaned.get(f"row_{row}")]
        for row in missing:
            self.add_error(f"row_{row}", "Say whether this is the same person.")
        if missing:
            rows = ", ".join(str(row) for row in missing)
            raise forms.ValidationError(
                f"Answer every row (still to answer: {rows}), or use one answer for all."
            )
        self.answers = SamePerson(rows={row: cleaned[f"row_{row}"] == SAME for row in self.rows})
        return cleaned


class SeatDayForm(forms.Form):
    seed = forms.IntegerField(
        label="Shuffle number, to repeat a seating",
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text="Leave empty for a new random seating. Every seating shows its number: "
        "the same number and the same players give the same tables again.",
    )


def _seated_choices(tables) -> list[tuple[int, str]]:
    return [
        (view.entry.pk, f"{view.entry.player.name} (#{view.entry.number}, table {table.number})")
        for table in tables
        for view in table.seats
    ]


class MoveForm(forms.Form):
    entry = forms.TypedChoiceField(label="Player", coerce=int)
    table = forms.TypedChoiceField(label="To table", coerce=int)
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, tables, **kwargs):
        super().__init__(*args, **kwargs)
        field_of(self, "entry", forms.ChoiceField).choices = [
            ("", "Choose a player"),
            *_seated_choices(tables),
        ]
        field_of(self, "table", forms.ChoiceField).choices = [("", "Choose a table")] + [
            (t.number, f"Table {t.number} ({t.size} players)") for t in tables
        ]


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label="Swap this player", coerce=int)
    second = forms.TypedChoiceField(label="with this player", coerce=int)
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, tables, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "Choose a player"), *_seated_choices(tables)]
        field_of(self, "first", forms.ChoiceField).choices = choices
        field_of(self, "second", forms.ChoiceField).choices = choices

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("first") and data.get("first") == data.get("second"):
            self.add_error("second", "Choose a different player to swap with.")
        return data


class FindTableForm(forms.Form):
    q = forms.CharField(
        label="Your name, or part of it",
        required=False,
        max_length=NAME_MAX,
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off", "autofocus": True}),
    )


class WifiForm(forms.Form):
    """The venue's Wi-Fi, for the QR code on the tent card. Nothing typed here is stored."""

    ssid = forms.CharField(
        label="Wi-Fi name",
        max_length=32,
        error_messages={"max_length": "A Wi-Fi name has at most 32 characters."},
    )
    password = forms.CharField(
        label="Wi-Fi password",
        required=False,
        max_length=63,
        strip=False,
        help_text="Leave it empty for an open network.",
        error_messages={"max_length": "A Wi-Fi password has at most 63 characters."},
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if password and len(password) < 8:
            raise forms.ValidationError(
                "A Wi-Fi password has at least 8 characters: check it on the router or hotspot."
            )
        return password


class WithdrawForm(forms.Form):
    """From which day a player leaves (when more than one day with their seat is under way) and
    after which game of that day they stop playing (0: before the first)."""

    day = forms.TypedChoiceField(label="They leave on", coerce=int, required=False)
    after_game = forms.TypedChoiceField(
        label="They left after game", coerce=int, required=False, empty_value=None
    )

    def __init__(self, *args, leaving=None, under_way=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.leaving = leaving
        if len(under_way) > 1:
            days = field_of(self, "day", forms.ChoiceField)
            days.choices = [
                (row["day"], f"day {row['day']} (table {row['table']})") for row in under_way
            ]
            days.initial = leaving["day"]
            days.help_text = (
                "Their games on earlier days stay as they are: each of those tables must have "
                "entered every game they play."
            )
        else:
            del self.fields["day"]
        if leaving is None:
            del self.fields["after_game"]
            return
        choices = [(0, "before their first game")]
        choices += [(n, f"game {n}") for n in range(1, leaving["games"] + 1)]
        field = field_of(self, "after_game", forms.ChoiceField)
        field.choices = choices
        field.initial = leaving["last_entered"]
        field.help_text = (
            f"Day {leaving['day']}: table {leaving['table']} "
            f"{entered_so_far(leaving['last_entered'])}. Choose a later game if the paper card "
            "has their score for it. Later games will not expect a score from them."
        )


# ---------------------------------------------------------------------------
# The event: creating it, its settings, its rules
# ---------------------------------------------------------------------------


class DateInput(forms.DateInput):
    input_type = "date"


class EventDetailsForm(forms.Form):
    name = forms.CharField(label="Name", max_length=Tournament._meta.get_field("name").max_length)
    start_date = forms.DateField(label="Start date", required=False, widget=DateInput)
    venue = forms.CharField(
        label="Venue", required=False, max_length=Tournament._meta.get_field("venue").max_length
    )


class NewTournamentForm(EventDetailsForm):
    preset = forms.ChoiceField(
        label="Rules to start from",
        help_text="Every rule can be changed on the event's rules page until the first score.",
    )
    slug = forms.CharField(
        label="Web address name (optional)",
        required=False,
        max_length=Tournament._meta.get_field("slug").max_length,
        help_text="Made from the name when left empty: small letters, digits and hyphens.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field_of(self, "preset", forms.ChoiceField).choices = [
            (p.key, f"{p.name} ({p.key})") for p in RulePreset.objects.order_by("name")
        ]


class SettingsForm(EventDetailsForm):
    public_pages = forms.BooleanField(
        label="Public pages",
        required=False,
        help_text="Standings and \u201cfind your table\u201d open to anyone with the address.",
    )


def _parsed(parse, text: str):
    try:
        return parse(text)
    except ValueError as error:
        raise forms.ValidationError(str(error)) from error


class RulesForm(forms.Form):
    """Every rule of an event as the organiser types it; the rules service checks them as a
    whole and says which field is wrong."""

    top_double = forms.TypedChoiceField(label="Set", coerce=int, choices=TILE_SETS)
    days = forms.IntegerField(label="Days", min_value=1, max_value=30)
    games_per_day = forms.IntegerField(label="Games a day", min_value=1, max_value=19)
    first_engine = forms.IntegerField(
        label="First engine",
        min_value=0,
        max_value=18,
        help_text="The double of game 1; each later game's is one lower.",
    )
    engine_order = forms.CharField(
        label="Engine order (optional)",
        required=False,
        help_text='Instead of counting down, list one double per game, like "9 8 7 6 5".',
    )
    max_table_size = forms.IntegerField(label="Most players at a table", min_value=2, max_value=10)
    hand_sizes = forms.CharField(
        label="Hand sizes",
        help_text='Tiles each player draws, by players at the table: "2-4: 15, 5-6: 12".',
    )
    engine_set_aside = forms.BooleanField(
        label="Engine set aside before the deal",
        required=False,
        help_text="Unticked: every tile is dealt and the player holding the engine starts.",
    )
    double_blank_value = forms.IntegerField(
        label="Double blank counts", min_value=0, max_value=MAX_DOUBLE_BLANK
    )
    reshuffle_each_day = forms.BooleanField(label="Reseat everyone each day", required=False)
    # The session seating rules: a post without them (a page from before they existed) keeps
    # the event's values.
    session_seating = forms.ChoiceField(
        label="Seat each session after the first by",
        choices=list(SESSION_SEATING_CHOICES.items()),
        required=False,
        help_text="A movement moves players table to table by their totals at their table in "
        "the session before; a reshuffle seats everyone afresh.",
    )
    move_up = forms.IntegerField(
        label="Lowest at each table who move up a table",
        min_value=0,
        max_value=10,
        required=False,
        help_text="Under a movement: how many of the lowest totals at each table move up one "
        "table, toward table 1.",
    )
    move_down = forms.IntegerField(
        label="Highest at each table who move down a table",
        min_value=0,
        max_value=10,
        required=False,
        help_text="Under a movement: how many of the highest totals at each table move down one "
        "table.",
    )
    end_tables = forms.ChoiceField(
        label="Table 1 and the last table",
        choices=list(END_TABLES_CHOICES.items()),
        required=False,
        help_text="Under a movement: what happens to a player due to move off table 1 or the "
        "last table.",
    )
    sessions_per_day = forms.IntegerField(
        label="Sessions a day",
        min_value=1,
        max_value=MAX_SESSIONS_PER_DAY,
        required=False,
        help_text="More than 1: the days above are sessions, played that many to a date "
        '(pages then say "Day 1, session 2").',
    )
    spread_clubs = forms.BooleanField(
        label="Spread the clubs on day 1",
        required=False,
        help_text="Each club across the tables as evenly as the numbers allow.",
    )
    spread_clubs_every_day = forms.BooleanField(
        label="Spread the clubs on later days too",
        required=False,
        help_text="After keeping apart pairs who sat together before: that comes first.",
    )
    unplayed_counts = forms.ChoiceField(
        label="A game not played counts",
        choices=list(UNPLAYED_CHOICES.items()),
        help_text="For each player at a table whose game the desk marks not played.",
    )

    late_joins = forms.BooleanField(
        label="Late players may join",
        required=False,
        help_text="Seated at the smallest table for the games still to come.",
    )
    late_missed_games = forms.ChoiceField(
        label="A late player's missed games count",
        choices=list(LATE_CHOICES.items()),
        # A post without it (a form saved before the rule existed) keeps the event's value.
        required=False,
        help_text="For each game of that day they missed, once it is confirmed at their table.",
    )
    substitutes = forms.BooleanField(
        label="Substitutes allowed",
        required=False,
        help_text="Someone takes a withdrawn player's seat from a given game on.",
    )
    substitute_ranking = forms.ChoiceField(
        label="A substitute's games count", choices=list(SUBSTITUTE_CHOICES.items())
    )
    flights = forms.CharField(
        label="Flights (optional)",
        required=False,
        help_text='Groups ranked on their own, in order, with commas between: "50-59, 60-69, '
        '70-79, 80+" (an age range places an imported Age), or skill flights like "Gold, '
        'Silver". Empty: no flights.',
    )

    seat_within_flights = forms.BooleanField(
        label="Seat each flight at tables of its own",
        required=False,
        help_text="Unticked, the tables mix the flights. A flight of one player sits with the "
        "flight listed next to it.",
    )

    final_qualify = forms.ChoiceField(
        label="A final (championship round)",
        choices=list(QUALIFY_CHOICES.items()),
        required=False,
        help_text="The last day is the final, played by those who go through from the days "
        "before it.",
    )
    final_session = forms.IntegerField(
        label="Session whose tables each send their lowest",
        min_value=0,
        max_value=30,
        required=False,
        help_text="Only for the lowest at each table: the day (session) whose tables count.",
    )
    final_qualifiers = forms.IntegerField(
        label="Players going through",
        min_value=0,
        max_value=500,
        required=False,
        help_text="For the best overall, or the best of each flight (that many from each).",
    )
    final_tables = forms.IntegerField(
        label="Tables at the final", min_value=1, max_value=50, required=False
    )
    final_counts = forms.ChoiceField(
        label="The final counts", choices=list(COUNTS_CHOICES.items()), required=False
    )

    def clean_flights(self):
        return parse_flights(self.cleaned_data["flights"])

    def clean_final_qualify(self):
        return self._kept("final_qualify")

    def clean_final_session(self):
        return self._kept("final_session")

    def clean_final_qualifiers(self):
        return self._kept("final_qualifiers")

    def clean_final_tables(self):
        return self._kept("final_tables")

    def clean_final_counts(self):
        return self._kept("final_counts")

    def clean_engine_order(self):
        return _parsed(parse_engine_order, self.cleaned_data["engine_order"])

    def clean_hand_sizes(self):
        return _parsed(parse_hand_chart, self.cleaned_data["hand_sizes"])

    def _kept(self, name: str, default=None):
        # A post without the field (a page opened before the rule existed) keeps the value.
        value = self.cleaned_data[name]
        return self.initial.get(name, default) if value in (None, "") else value

    def clean_session_seating(self):
        return self._kept("session_seating", SEATING_RESHUFFLE)

    def clean_move_up(self):
        return self._kept("move_up", 0)

    def clean_move_down(self):
        return self._kept("move_down", 0)

    def clean_end_tables(self):
        return self._kept("end_tables", ENDS_STAY)

    def clean_sessions_per_day(self):
        return self._kept("sessions_per_day", 1)

    def clean_late_missed_games(self):
        return self._kept("late_missed_games", LATE_NOTHING)

    @classmethod
    def initial_from(cls, rules) -> dict:
        values = rules.rule_values()
        values["engine_order"] = format_engine_order(values["engine_order"])
        values["hand_sizes"] = format_hand_chart(values["hand_sizes"])
        values["flights"] = format_flights(values["flights"])
        return values


class StandingsSettingsForm(forms.Form):
    """The rules that only order the standings (domain.rules.STANDINGS_SETTINGS): apart from
    the other rules because they may change after play has started."""

    tie_breaks = forms.MultipleChoiceField(
        label="Tie-breaks",
        required=False,
        choices=list(TIE_BREAK_CHOICES.items()),
        widget=forms.CheckboxSelectMultiple,
        help_text="Ticked ones split players level on total, in the order listed. "
        "None ticked: tied players share a rank.",
    )


class LateJoinForm(forms.Form):
    entry = forms.TypedChoiceField(label="Late player", coerce=int)
    # The table and first game the page showed: the seat is refused if they changed meanwhile.
    table = forms.IntegerField(widget=forms.HiddenInput, required=False)
    from_game = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, waiting, **kwargs):
        super().__init__(*args, **kwargs)
        field_of(self, "entry", forms.ChoiceField).choices = [
            (e.pk, f"{e.player.name} (#{e.number})") for e in waiting
        ]


class SubstituteForm(forms.Form):
    replaced = forms.TypedChoiceField(label="Replaces", coerce=int)
    substitute = forms.TypedChoiceField(label="Substitute", coerce=int)
    from_game = forms.IntegerField(label="From game", min_value=1, max_value=99)

    def __init__(self, *args, waiting, replaceable, **kwargs):
        super().__init__(*args, **kwargs)
        field_of(self, "replaced", forms.ChoiceField).choices = [
            (
                s.entry_id,
                f"{s.entry.player.name}, table {s.table.number}, left "
                f"{when_left(s.left_after_game)}",
            )
            for s in replaceable
        ]
        field_of(self, "substitute", forms.ChoiceField).choices = [
            (e.pk, f"{e.player.name} (#{e.number})") for e in waiting
        ]


class StaffLoginForm(forms.Form):
    """A new login for the event; the service checks the username and the passwords."""

    username = forms.CharField(label="Username", max_length=150)
    role = forms.ChoiceField(
        label="Role",
        choices=[
            ("desk", "Desk: enters and checks scores"),
            ("organiser", "Organiser: everything"),
        ],
        initial="desk",
    )
    password = forms.CharField(label="Password", strip=False, widget=forms.PasswordInput)
    again = forms.CharField(label="Password again", strip=False, widget=forms.PasswordInput)


class StaffPasswordForm(forms.Form):
    password = forms.CharField(label="New password", strip=False, widget=forms.PasswordInput)
    again = forms.CharField(label="New password again", strip=False, widget=forms.PasswordInput)
