"""Gzip for public pages that carry no secret.

Compressing a page that holds a secret next to text an attacker can choose (a search box's
echo, say) lets the compressed size give the secret away a character at a time (BREACH). So
only views wrapped in ``compress_public_page`` are compressed, and even those go out plain when
rendering them put a CSRF token in the page (the log-out button an organiser sees on every
page). The table page, with its private link and its form, and the organiser pages are never
wrapped.
"""

from __future__ import annotations

from functools import wraps

from django.middleware.gzip import GZipMiddleware

# GZipMiddleware needs a get_response only to be a middleware; its process_response is used
# on its own here.
_GZIP = GZipMiddleware(lambda request: None)  # type: ignore[arg-type,return-value]


def carries_csrf_token(request) -> bool:
    """True when rendering the response asked for the CSRF token (``{% csrf_token %}``)."""
    return bool(request.META.get("CSRF_COOKIE_NEEDS_UPDATE"))


def compress_public_page(view):
    """Gzip the view's response for a browser that accepts it, unless it holds a CSRF token."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if not getattr(response, "is_rendered", True):
            response.render()  # a lazy TemplateResponse asks for the token only as it renders
        if carries_csrf_token(request):
            return response
        return _GZIP.process_response(request, response)

    return wrapper
