"""Writes for the fees: the organiser's fee and pot settings, and the desk taking a payment (with
check-in in the same tap) or undoing the last one. The rules are domain.fees."""

from __future__ import annotations

from contextlib import suppress
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from core.errors import ServiceError
from domain import fees
from tournaments.access import account_of, role_in
from tournaments.models import Entry, Payment, StaffRole, Tournament
from tournaments.selectors.fees import entry_fee_state
from tournaments.services.registration import set_checked_in


@transaction.atomic
def set_fees(
    tournament: Tournament,
    *,
    entry_fee: Decimal,
    day_fee: Decimal,
    pot_percent: int,
    pot_split: list[int],
    by,
) -> None:
    """The event's fees and how the prize pot is made and split; refused with the field."""
    if role_in(by, tournament) != StaffRole.ORGANISER:
        raise ServiceError("Only an organiser can set the fees.")
    for field, value in (("entry_fee", entry_fee), ("day_fee", day_fee)):
        problem = fees.fee_problem(value)
        if problem:
            raise ServiceError(problem, field=field)
    if not 0 <= pot_percent <= 100:
        raise ServiceError("Give a share from 0% to 100%.", field="pot_percent")
    problem = fees.split_problem(pot_split)
    if problem:
        raise ServiceError(problem, field="pot_split")
    Tournament.objects.filter(pk=tournament.pk).update(
        entry_fee=entry_fee, day_fee=day_fee, pot_percent=pot_percent, pot_split=list(pot_split)
    )
    tournament.entry_fee, tournament.day_fee = entry_fee, day_fee
    tournament.pot_percent, tournament.pot_split = pot_percent, list(pot_split)


@transaction.atomic
def take_payment(entry: Entry, method: str, *, amount: Decimal | None = None, by) -> Payment:
    """A payment for ``entry``'s fee (what it owes when no amount is given), and the player
    checked in with it when they are not yet and check-in is still open. Refused with the
    field, nothing stored."""
    # The rules are read with the row, not locked (a reverse one-to-one: an outer join).
    locked = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("tournament__rules")
        .get(pk=entry.pk)
    )
    state = entry_fee_state(locked)
    owed = state.owed
    amount = owed if amount is None else amount
    problem = fees.payment_problem(amount, method, owed)
    if problem:
        raise ServiceError(problem[1], field=problem[0])
    if locked.status == Entry.WITHDRAWN and method != fees.WAIVED:
        raise ServiceError(f"{locked.player.name} has withdrawn: reinstate them first.")
    payment = Payment.objects.create(
        entry=locked,
        amount=amount,
        method=method,
        paid_at=timezone.now(),
        taken_by=account_of(by),
        taken_by_label=by.get_username(),
    )
    if locked.status == Entry.REGISTERED:
        # Once play has started check-in is closed: the payment stands all the same.
        with suppress(ServiceError):
            set_checked_in(locked, True)
    return payment


@transaction.atomic
def undo_last_payment(entry: Entry, *, by) -> Payment:
    """Take back the entry's last payment (a tap on the wrong button); check-in stays."""
    locked = Entry.objects.select_for_update().get(pk=entry.pk)
    last = Payment.objects.filter(entry=locked).order_by("-paid_at", "-pk").first()
    if last is None:
        raise ServiceError(f"No payment to undo for {locked.player.name}.")
    last.delete()
    return last
