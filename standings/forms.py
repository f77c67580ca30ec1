"""The organiser's choice of a hidden finish (``domain.hidden_finish``) on the standings page."""

from __future__ import annotations

from django import forms

from tournaments.models import Tournament

END_OF_DAY = ""


class HiddenFinishForm(forms.Form):
    """Where public standings stop: a day, and a game of it or the whole day."""

    def __init__(self, rules, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["day"] = forms.TypedChoiceField(
            coerce=int,
            label="Show public standings up to day",
            choices=[(n, f"Day {n}") for n in range(1, rules.days + 1)],
        )
        self.fields["game"] = forms.TypedChoiceField(
            coerce=int,
            empty_value=None,
            required=False,
            label="and up to",
            choices=[(END_OF_DAY, "the end of that day")]
            + [(n, f"game {n}") for n in range(1, rules.games_per_day + 1)],
        )

    def first_error(self) -> str:
        for field, errors in self.errors.items():
            label = self.fields[field].label if field in self.fields else field
            return f"{label}: {errors[0]}"
        return ""


def hidden_finish_form(tournament: Tournament) -> HiddenFinishForm:
    """The form with the event's choice, or with its last two games proposed when it has none
    (the end of the event is no choice: it hides nothing)."""
    rules, finish = tournament.rules, tournament.hidden_finish
    if finish is not None:
        initial = {"day": finish.day, "game": finish.game or END_OF_DAY}
    elif rules.games_per_day > 2:
        initial = {"day": rules.days, "game": rules.games_per_day - 2}
    else:
        initial = {"day": max(1, rules.days - 1), "game": END_OF_DAY}
    return HiddenFinishForm(rules, initial=initial, auto_id="hidden-%s")
