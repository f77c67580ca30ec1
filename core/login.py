"""The login form and the login throttle, for the organiser login and the admin site's.

A failed login is recorded by django-axes (per username and client address). Two things must
happen before that: a username longer than any account's is refused without authenticating, so
nothing is hashed or stored for it; and a client address that posts logins faster than a person
types is turned away before a password is hashed, so made-up usernames cannot burn the CPU.
"""

import functools
import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator
from django.http import HttpResponse
from django.template.loader import render_to_string

from core.throttle import Throttle, client_address

logger = logging.getLogger(__name__)

USERNAME_MAX = get_user_model()._meta.get_field("username").max_length or 150


class LoginForm(AuthenticationForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        username = self.data.get("username") if self.is_bound else None
        if username is not None and len(username) > USERNAME_MAX:
            # One character over is enough to refuse it, and a page that shows the username
            # again (the admin site's) then echoes that much, not the whole post.
            # Bound from a request the data is a QueryDict (a dict that copies as a mutable one).
            data = self.data.copy() if isinstance(self.data, dict) else dict(self.data)
            data["username"] = username[: USERNAME_MAX + 1]
            self.data = data
        # AuthenticationForm sets max_length after the field is built, so its length is never
        # checked; a too-long username then reaches authenticate() and the failed-login records.
        # A field error leaves it out of cleaned_data, and clean() then does not authenticate.
        self.fields["username"].validators.append(
            MaxLengthValidator(
                USERNAME_MAX, message=f"A username is at most {USERNAME_MAX} characters."
            )
        )


def axes_username(request, credentials) -> str | None:
    """The username django-axes records, cut to the longest an account can have: a backstop for
    any login path that does not use LoginForm."""
    source = credentials if credentials else getattr(request, "POST", {})
    username = source.get("username") if source else None
    return None if username is None else str(username)[:USERNAME_MAX]


def over_login_limit(request) -> bool:
    """Count this login attempt against its client address; True once the address has made
    more than LOGIN_ATTEMPTS_PER_MINUTE in the current minute (every server process shares the
    count: core/throttle.py)."""
    attempts = Throttle("login", limit=settings.LOGIN_ATTEMPTS_PER_MINUTE, window_seconds=60)
    address = client_address(request)
    count = attempts.hit(address)
    if count == attempts.limit + 1:
        logger.warning("Login throttle: %s posted too many logins in a minute", address)
    return count > attempts.limit


class LoginThrottleMiddleware:
    """Turn away login posts over the per-address limit before the form authenticates."""

    LOGIN_VIEWS = {("", "login"), ("admin", "login")}

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = request.resolver_match
        if (
            request.method != "POST"
            or not settings.LOGIN_THROTTLE_ENABLED
            or match is None
            or (match.namespace, match.url_name) not in self.LOGIN_VIEWS
        ):
            return None
        if over_login_limit(request):
            response = HttpResponse(_too_many_page(), status=429)
            # Not one warning per refused post (a flood would fill the log): over_login_limit
            # logs once when an address goes over.
            response._has_been_logged = True  # type: ignore[attr-defined]
            return response
        return None


@functools.cache
def _too_many_page() -> str:
    return render_to_string("registration/too_many_logins.html")
