"""How large a request's body may be, by where it goes, refused before a byte of it is read.

A table save is under 2 KB and an organiser's largest form (a day's check-in, a hand chart)
well under 1 MB; only the upload pages (and the import's review, which sends the file back)
take a file. Anything larger is not a form of ours, and reading it first (into memory, or to
a temporary file for a multipart upload) lets one client fill a worker's memory or the disk.
The venue worker (config/venue_worker.py) asks the same question before it reads a body, and
the middleware below answers it for every other server, so each mode refuses the same requests.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse

# A table save, the code form, a login: a few fields each.
SMALL_FORM_BYTES = 16 * 1024
# A logged-in organiser's forms: a check-in of 2,000 players is about 60 KB.
ORGANISER_FORM_BYTES = 1024 * 1024
# An upload page takes a file up to twice the largest accepted, so that one a little too big is
# answered by the form, saying its size and the limit; only a larger one is refused unread. On
# top: the multipart wrapping (boundaries, the other fields).
UPLOAD_ROOM = 2
UPLOAD_WRAPPING_BYTES = 64 * 1024
# The import's review sends the file back (as its cells) with the organiser's answers.
UPLOAD_PATH_ENDINGS = ("/players/import/", "/players/import/review/", "/scores/upload/")
ORGANISER_PREFIXES = ("/organiser/", "/admin/")
# Organiser addresses anyone may post to: the admin's login form.
OPEN_ORGANISER_PATHS = ("/admin/login/",)

TOO_LARGE_TEXT = (
    "This is larger than anything the app takes ({limit}), so it was not read and nothing "
    "was stored. A spreadsheet must be under {upload}: go back and choose a smaller file."
)


def for_organisers_only(path: str) -> bool:
    return path.startswith(ORGANISER_PREFIXES) and path not in OPEN_ORGANISER_PATHS


def body_limit(path: str, upload_max_bytes: int) -> int:
    """The most bytes a request's body to ``path`` may carry."""
    if for_organisers_only(path):
        if path.endswith(UPLOAD_PATH_ENDINGS):
            return UPLOAD_ROOM * upload_max_bytes + UPLOAD_WRAPPING_BYTES
        return ORGANISER_FORM_BYTES
    return SMALL_FORM_BYTES


def declared_length(environ) -> int | None:
    """The body's length as the request declares it (None: no valid Content-Length)."""
    length = environ.get("CONTENT_LENGTH") or ""
    return int(length) if length.isdigit() else None


def too_large(environ) -> bool:
    length = declared_length(environ)
    limit = body_limit(environ.get("PATH_INFO", ""), settings.UPLOAD_MAX_BYTES)
    return length is not None and length > limit


def too_large_text(environ) -> str:
    limit = body_limit(environ.get("PATH_INFO", ""), settings.UPLOAD_MAX_BYTES)
    return TOO_LARGE_TEXT.format(limit=_size(limit), upload=_size(settings.UPLOAD_MAX_BYTES))


def _size(count: int) -> str:
    if count >= 1024 * 1024:
        return f"{count / (1024 * 1024):g} MB"
    return f"{count // 1024} KB"


def is_multipart(environ) -> bool:
    return (environ.get("CONTENT_TYPE") or "").lower().startswith("multipart/")


class RequestBodyLimitMiddleware:
    """Answers 413 to a body larger than its address takes, from the declared length alone."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if too_large(request.META):
            return HttpResponse(
                too_large_text(request.META), status=413, content_type="text/plain; charset=utf-8"
            )
        return self.get_response(request)


class UploadsNeedALoginMiddleware:
    """A multipart body to an organiser page from someone not logged in is refused before it
    is parsed: Django's CSRF check reads the form, and parsing a multipart form writes a large
    file to disk first. (A table's phone sends its small saves as multipart too; the limit
    above keeps those in memory.)"""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            is_multipart(request.META)
            and for_organisers_only(request.path_info)
            and not request.user.is_authenticated
        ):
            # Here, not at the top: the venue worker imports this module before Django is set up.
            from django.contrib.auth.views import redirect_to_login

            # Where the page's own login check would send them, but before the form is read.
            return redirect_to_login(request.get_full_path())
        return self.get_response(request)
