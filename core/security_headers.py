"""Headers every response carries: the Content-Security-Policy, and no caching of staff pages."""

from functools import wraps

from django.conf import settings
from django.utils.cache import add_never_cache_headers, patch_cache_control


class SecurityHeadersMiddleware:
    """Scripts, styles and images come from this site only, and no inline script runs, so an
    injected <script> or on* attribute does nothing. Staff pages (contact details, table links)
    are never kept by the browser or a proxy cache, where the next person at the laptop could
    open them with the back button."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        if self._private(request):
            add_never_cache_headers(response)
        if getattr(response, _PHONE_COPY, False):
            _drop_vary_cookie(response)
        return response

    @staticmethod
    def _private(request) -> bool:
        match = getattr(request, "resolver_match", None)
        if match is not None and match.namespace in settings.NO_STORE_NAMESPACES:
            return True
        return any(request.path.startswith(prefix) for prefix in settings.NO_STORE_PATHS)


_PHONE_COPY = "kept_by_the_phone"


def phone_keeps_a_copy(view):
    """The phone keeps its own copy of the page, checked with the server on every load: the
    back button, or a tab opened again, with no Wi-Fi shows that copy, not the browser's error
    page. The copy is private to the phone and only ever shown from its history, so it is kept
    whatever the cookies: "Vary: Cookie" would leave unmatched the copy whose first load set them
    (the session and CSRF middleware add it after the view, hence the mark for the middleware)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        patch_cache_control(response, private=True, no_cache=True, max_age=0)
        setattr(response, _PHONE_COPY, True)
        return response

    return wrapped


def _drop_vary_cookie(response) -> None:
    kept = [part.strip() for part in response.get("Vary", "").split(",")]
    kept = [part for part in kept if part and part.lower() != "cookie"]
    if kept:
        response["Vary"] = ", ".join(kept)
    elif response.has_header("Vary"):
        del response["Vary"]
