"""Forms for registration, check-in and seating. They check input; services do the writing."""

from django import forms

from core.forms import CappedUploadForm

from .models import Entry
from .player_import import CLUB_MAX, CONTACT_MAX, NAME_MAX


class PlayerSearchForm(forms.Form):
    q = forms.CharField(label="Search by name", required=False, max_length=NAME_MAX)


class PlayerDetailsForm(forms.Form):
    name = forms.CharField(label="Name", max_length=NAME_MAX)
    club = forms.CharField(label="Club or chapter", max_length=CLUB_MAX, required=False)
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
    # A name of spaces alone is stripped to nothing and refused as required; runs of spaces
    # inside a name are closed up by the services, the one place that cleans names.


class ExistingPlayerForm(forms.Form):
    player = forms.IntegerField(widget=forms.HiddenInput)


class KeepApartForm(forms.Form):
    other = forms.ModelChoiceField(
        label="Keep apart from",
        queryset=Entry.objects.none(),
        empty_label="Choose a player",
        help_text="They will never share a table (a married couple, say).",
    )

    def __init__(self, *args, entry, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["other"].queryset = (
            Entry.objects.filter(tournament_id=entry.tournament_id)
            .exclude(pk=entry.pk)
            .exclude(status=Entry.WITHDRAWN)
            .select_related("player")
            .order_by("player__name")
        )
        self.fields["other"].label_from_instance = lambda e: f"{e.player.name} (#{e.number})"


class ImportForm(CappedUploadForm):
    file = forms.FileField(
        label="Player list (.xlsx or .csv)",
        help_text="First row: Name, and if you have them Club, Keep apart, Table.",
    )


class SeatDayForm(forms.Form):
    seed = forms.IntegerField(
        label="Seed (optional)",
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text="Leave empty for a fresh random seating. The same seed and the same players "
        "give the same tables again.",
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
        self.fields["entry"].choices = [("", "Choose a player")] + _seated_choices(tables)
        self.fields["table"].choices = [("", "Choose a table")] + [
            (t.number, f"Table {t.number} ({t.size} players)") for t in tables
        ]


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label="Swap this player", coerce=int)
    second = forms.TypedChoiceField(label="with this player", coerce=int)
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, tables, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "Choose a player")] + _seated_choices(tables)
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices

    def clean(self):
        data = super().clean()
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
    """After which game a player who leaves during a day stops playing (0: before the first)."""

    after_game = forms.TypedChoiceField(
        label="They left after game", coerce=int, required=False, empty_value=None
    )

    def __init__(self, *args, leaving=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.leaving = leaving
        if leaving is None:
            del self.fields["after_game"]
            return
        choices = [(0, "before their first game")]
        choices += [(n, f"game {n}") for n in range(1, leaving["games"] + 1)]
        field = self.fields["after_game"]
        field.choices = choices
        field.initial = leaving["last_entered"]
        field.help_text = (
            f"Table {leaving['table']} has entered up to game {leaving['last_entered']}. Choose a "
            "later game if the paper card has their score for it. Later games will not expect a "
            "score from them."
        )
