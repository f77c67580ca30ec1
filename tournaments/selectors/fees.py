"""Reads for the fees: each entry's state for check-in, and the treasurer's report. Two queries
for a whole event (its entries, its payments)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from domain import fees
from tournaments.models import Entry, Payment, Tournament


def event_fee(tournament: Tournament) -> Decimal:
    """What one entry owes: the event's fee and the fee for each of its days."""
    return fees.fee_due(tournament.entry_fee, tournament.day_fee, tournament.rules.days)


def charges_fees(tournament: Tournament) -> bool:
    return event_fee(tournament) > 0


def entry_fee_state(entry: Entry) -> fees.FeeState:
    payments = Payment.objects.filter(entry=entry).values_list("amount", "method")
    return fees.fee_state(event_fee(entry.tournament), payments)


def _payments(tournament: Tournament) -> list[tuple[int, Decimal, str]]:
    """(entry id, amount, method) of every payment of the event. One query."""
    payments = Payment.objects.filter(entry__tournament=tournament)
    return list(payments.values_list("entry_id", "amount", "method"))


def _by_entry(payments) -> dict[int, list[tuple[Decimal, str]]]:
    by_entry: dict[int, list[tuple[Decimal, str]]] = defaultdict(list)
    for entry_id, amount, method in payments:
        by_entry[entry_id].append((amount, method))
    return by_entry


def fee_states(tournament: Tournament) -> dict[int, fees.FeeState]:
    """Entry id -> its fee state, for every entry of the event. Two queries."""
    by_entry = _by_entry(_payments(tournament))
    due = event_fee(tournament)
    ids = Entry.objects.filter(tournament=tournament).values_list("pk", flat=True)
    return {pk: fees.fee_state(due, by_entry.get(pk, [])) for pk in ids}


@dataclass
class Owing:
    number: int
    name: str
    status: str
    owed: Decimal


@dataclass
class FeeReport:
    tournament: Tournament
    due_each: Decimal
    by_method: dict[str, tuple[int, Decimal]]  # method -> (payments, amount)
    owing: list[Owing]
    collected: Decimal
    pot: Decimal
    places: list[tuple[int, int, Decimal]] = field(default_factory=list)  # place, %, part

    @property
    def method_rows(self) -> list[tuple[str, int, Decimal]]:
        """(method as printed, payments, amount), in the order the buttons show them."""
        return [(fees.METHOD_LABELS[key], *self.by_method[key]) for key in fees.METHOD_KEYS]

    @property
    def owed(self) -> Decimal:
        return sum((o.owed for o in self.owing), Decimal(0))


def fee_report(tournament: Tournament) -> FeeReport:
    """Totals by method, who owes (withdrawn players too: they may still pay), and the pot
    split by place. Two queries."""
    payments = _payments(tournament)
    by_method = {key: (0, Decimal(0)) for key in fees.METHOD_KEYS}
    for _, amount, method in payments:
        count, total = by_method[method]
        by_method[method] = (count + 1, total + amount)
    by_entry = _by_entry(payments)
    due = event_fee(tournament)
    owing = []
    entries = Entry.objects.filter(tournament=tournament).select_related("player")
    for entry in entries.order_by("number"):
        state = fees.fee_state(due, by_entry.get(entry.pk, []))
        if state.owed:
            owing.append(Owing(entry.number, entry.player.name, entry.status, state.owed))
    collected = sum(
        (total for key, (_, total) in by_method.items() if key != fees.WAIVED), Decimal(0)
    )
    pot = fees.pot(collected, tournament.pot_percent)
    split = list(tournament.pot_split or [])
    parts = fees.split_pot(pot, split)
    places = [
        (place, percent, part)
        for place, (percent, part) in enumerate(zip(split, parts, strict=True), 1)
    ]
    return FeeReport(tournament, due, by_method, owing, collected, pot, places)
