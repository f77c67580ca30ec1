"""The form a phone types its table's code into, when it has no link to the table."""

from django import forms

from tournaments.models import TABLE_CODE_ALPHABET, TABLE_CODE_LENGTH, normalise_table_code


class TableCodeForm(forms.Form):
    """The code printed on a table's card, typed on the site's home page."""

    code = forms.CharField(
        label="Enter your table code",
        max_length=20,
        error_messages={"required": "Type the code from your table's card: 6 letters and numbers."},
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "class": "table-code",
            }
        ),
        help_text="6 letters and numbers, printed on your table's score sheet and card.",
    )

    def clean_code(self) -> str:
        code = normalise_table_code(self.cleaned_data["code"])
        if len(code) != TABLE_CODE_LENGTH:
            raise forms.ValidationError(
                f"A table code has {TABLE_CODE_LENGTH} letters and numbers; this has "
                f"{len(code)}. Check the card on your table."
            )
        unused = sorted({ch for ch in code if ch not in TABLE_CODE_ALPHABET})
        if unused:
            raise forms.ValidationError(
                f"Table codes never use {_listed(unused)}. Check the card on your table."
            )
        return code


def _listed(chars: list[str]) -> str:
    shown = [f"\u201c{ch}\u201d" for ch in chars]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
