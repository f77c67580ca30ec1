"""Form pieces both apps share."""

from django import forms
from django.conf import settings

from core.spreadsheet_files import UnreadableFile, refuse_if_too_big


class CappedUploadForm(forms.Form):
    """A form whose `file` is refused by its size alone, before a byte of it is read."""

    def clean_file(self):
        upload = self.cleaned_data["file"]
        try:
            refuse_if_too_big(upload.size, settings.UPLOAD_MAX_BYTES)
        except UnreadableFile as refusal:
            raise forms.ValidationError(str(refusal)) from refusal
        return upload
