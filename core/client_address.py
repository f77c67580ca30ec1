"""Which address a request came from, for the login throttles.

Behind a reverse proxy every request arrives from the proxy's address, so keying lockouts on
REMOTE_ADDR lets one client lock everyone out. Each proxy appends the address it received the
request from to X-Forwarded-For, so with N trusted proxies in front the client's address is the
N-th entry from the right; anything further left was written by the client and is not trusted.
The number of proxies comes from the TRUSTED_PROXY_COUNT setting (DJANGO_TRUSTED_PROXIES): with
0, the default, the header is ignored, since a client could write it freely.
"""

import ipaddress

from django.conf import settings


def _valid(address: str) -> str | None:
    try:
        return str(ipaddress.ip_address(address.strip()))
    except ValueError:
        return None


def client_address(request) -> str | None:
    direct = _valid(request.META.get("REMOTE_ADDR", "") or "")
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies < 1:
        return direct
    # Bounded: a header of thousands of entries costs no more than the few we need.
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")[-1000:].split(",")
    if len(forwarded) < proxies:
        # Fewer entries than proxies: the request did not come through all of them.
        return direct
    return _valid(forwarded[-proxies]) or direct
