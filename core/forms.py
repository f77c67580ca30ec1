"""Form pieces both apps share."""

from typing import TypeVar

from django import forms
from django.conf import settings

from core.spreadsheet_files import UnreadableFile, refuse_if_too_big

FieldKind = TypeVar("FieldKind", bound=forms.Field)


def field_of(form: forms.BaseForm, name: str, kind: type[FieldKind]) -> FieldKind:
    """``form``'s field ``name`` as the kind it was declared: ``form.fields`` holds plain
    ``Field``s to the type checker, and a form that fills in choices or a queryset when it is
    made needs the field's own type."""
    field = form.fields[name]
    if not isinstance(field, kind):
        raise TypeError(f"{name} is a {type(field).__name__}, not a {kind.__name__}")
    return field


class CappedUploadForm(forms.Form):
    """A form whose `file` is refused by its size alone, before a byte of it is read."""

    def clean_file(self):
        upload = self.cleaned_data["file"]
        try:
            refuse_if_too_big(upload.size, settings.UPLOAD_MAX_BYTES)
        except UnreadableFile as refusal:
            raise forms.ValidationError(str(refusal)) from refusal
        return upload
