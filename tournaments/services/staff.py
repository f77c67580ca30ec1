"""The logins that run an event: adding a desk volunteer or another organiser, resetting a
password, removing a login, without the Django admin.

Only logins that belong to this event alone may have their password reset or be removed here:
an organiser of one event must not take over a login that also runs another event, nor a site
administrator's.
"""

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import transaction

from core.errors import ServiceError
from tournaments.models import StaffRole, Tournament

ROLE_NAMES = dict(StaffRole.ROLES)


def _check_passwords(password: str, again: str, user=None) -> None:
    if password != again:
        raise ServiceError("The two passwords are not the same: type the password twice.", "again")
    try:
        password_validation.validate_password(password, user)
    except ValidationError as error:
        raise ServiceError(" ".join(error.messages), "password") from error


def _check_role(role: str) -> None:
    if role not in ROLE_NAMES:
        raise ServiceError("Choose Desk or Organiser.", field="role")


def _free_login(username: str):
    """The user row a new login of this name may use: None for a new name, or a login that was
    removed from every event (kept, inactive, because the scores it entered name it)."""
    user = get_user_model().objects.filter(username__iexact=username).first()
    if user is None:
        return None
    if user.is_active or user.is_staff or StaffRole.objects.filter(user=user).exists():
        raise ServiceError(
            f'The username "{user.username}" is already taken: choose another.', "username"
        )
    return user


@transaction.atomic
def add_staff(
    tournament: Tournament, *, username: str, password: str, again: str, role: str
) -> StaffRole:
    """A new login with ``role`` in ``tournament``: it can log in at once with ``password``."""
    username = username.strip()
    if not username:
        raise ServiceError("Give the login a username.", field="username")
    _check_role(role)
    user = _free_login(username)
    if user is None:
        user = get_user_model()(username=username)
    _check_passwords(password, again, user)
    user.set_password(password)
    user.is_active = True
    user.save()
    return StaffRole.objects.create(tournament=tournament, user=user, role=role)


def _own_login(tournament: Tournament, user_id: int, by) -> StaffRole:
    """The role of a login that runs this event and no other, locked; refused otherwise."""
    staff = (
        StaffRole.objects.select_for_update()
        .select_related("user")
        .filter(tournament=tournament, user_id=user_id)
        .first()
    )
    if staff is None:
        raise ServiceError("That login does not run this event.")
    if staff.user_id == getattr(by, "pk", None):
        raise ServiceError("You cannot change or remove your own login here.")
    others = StaffRole.objects.filter(user_id=user_id).exclude(tournament=tournament)
    if staff.user.is_superuser or staff.user.is_staff or others.exists():
        raise ServiceError(
            f"{staff.user.username} also runs other events or the whole site: "
            "only a site administrator may change that login."
        )
    return staff


@transaction.atomic
def reset_password(tournament: Tournament, user_id: int, *, password: str, again: str, by):
    """A new password for a login of this event; its old one stops working at once."""
    staff = _own_login(tournament, user_id, by)
    _check_passwords(password, again, staff.user)
    staff.user.set_password(password)
    staff.user.save(update_fields=["password"])
    return staff


@transaction.atomic
def remove_staff(tournament: Tournament, user_id: int, *, by) -> str:
    """The login can no longer sign in. Its account stays, inactive, because scores it entered
    and confirmed name it; the username may be given again later. Returns the username."""
    staff = _own_login(tournament, user_id, by)
    user = staff.user
    staff.delete()
    user.is_active = False
    user.set_unusable_password()
    user.save(update_fields=["is_active", "password"])
    return user.username
