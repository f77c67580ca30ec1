"""Headers every response carries: the Content-Security-Policy, and no caching of staff pages."""

from django.conf import settings
from django.utils.cache import add_never_cache_headers


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
        return response

    @staticmethod
    def _private(request) -> bool:
        match = getattr(request, "resolver_match", None)
        if match is not None and match.namespace in settings.NO_STORE_NAMESPACES:
            return True
        return any(request.path.startswith(prefix) for prefix in settings.NO_STORE_PATHS)
