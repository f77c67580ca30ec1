"""A mark for the browser behind a table-link save.

A desk user could type a game on a table link while logged out and then, logged in at the desk,
confirm it: no account was behind the save. The first table-link save from a browser gives it a
random mark in a signed cookie, and the sheet stores a hash of that mark; the desk pages read the
same cookie, so the service refuses a confirmation from the browser that typed the game. A
cookie rather than the session: logging in or out does not drop it, and a phone's page costs no
session query. Only the hash is stored, so the database cannot be used to forge a mark.
"""

import hashlib
import secrets

from django.conf import settings

COOKIE = "table_link_device"
_SALT = "scoring.devices"
_MAX_AGE = 365 * 24 * 3600


def _hashed(mark: str) -> str:
    return hashlib.sha256(mark.encode()).hexdigest() if mark else ""


def device_mark(request, *, create: bool = False) -> str:
    """This browser's mark as stored on a sheet; "" when it has none and ``create`` is False.

    A mark created here is sent to the browser by :func:`remember_device`.
    """
    mark = getattr(request, "_new_device_mark", "") or request.get_signed_cookie(
        COOKIE, default="", salt=_SALT
    )
    if not mark and create:
        mark = secrets.token_urlsafe(24)
        request._new_device_mark = mark
    return _hashed(mark)


def remember_device(request, response):
    """Send the browser the mark :func:`device_mark` created for it, if it did."""
    mark = getattr(request, "_new_device_mark", "")
    if mark:
        set_phone_cookie(response, COOKIE, mark, salt=_SALT, max_age=_MAX_AGE)
    return response


def set_phone_cookie(response, name: str, value: str, *, salt: str, max_age: int) -> None:
    """A signed cookie the table's page keeps on the phone: out of the page's scripts' reach,
    and sent only over HTTPS wherever the session's cookie is (production)."""
    response.set_signed_cookie(
        name,
        value,
        salt=salt,
        max_age=max_age,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
