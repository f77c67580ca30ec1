"""The pages a visitor sees when something goes wrong, in the app's words instead of Django's
technical ones. A scorekeeper meets them mid-save, so each says what became of the numbers."""

from django.shortcuts import render


def csrf_failure(request, reason=""):
    """A form sent without its security cookie (cookies blocked, a page open since before a
    restart, a private tab): nothing was saved. ``reason`` is Django's technical one; it stays
    in the server's log, not on the page."""
    return render(request, "errors/csrf_failure.html", status=403)
