"""Entry fees and the prize pot: what a player owes, what the treasurer collected, and the pot
split by percentages into parts that add up to the cent.

Money is Decimal to the cent throughout; a waived fee settles what was owed without money.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

CASH, CHEQUE, CARD, WAIVED = "cash", "cheque", "card", "waived"
METHODS = ((CASH, "Cash"), (CHEQUE, "Cheque"), (CARD, "Card"), (WAIVED, "Waived"))
METHOD_KEYS = tuple(key for key, _ in METHODS)
METHOD_LABELS = dict(METHODS)
CENT = Decimal("0.01")
HIGHEST_FEE = Decimal("10000")
MOST_PLACES = 20


def cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def fee_due(entry_fee: Decimal, day_fee: Decimal, days: int) -> Decimal:
    """The event's fee and a fee for each of its days."""
    return cents(entry_fee + day_fee * days)


@dataclass(frozen=True)
class FeeState:
    due: Decimal
    paid: Decimal  # money taken
    waived: Decimal  # settled without money

    @property
    def owed(self) -> Decimal:
        return max(Decimal(0), self.due - self.paid - self.waived)

    @property
    def settled(self) -> bool:
        return self.owed == 0


def fee_state(due: Decimal, payments: Iterable[tuple[Decimal, str]]) -> FeeState:
    paid = waived = Decimal(0)
    for amount, method in payments:
        if method == WAIVED:
            waived += amount
        else:
            paid += amount
    return FeeState(due, cents(paid), cents(waived))


def payment_problem(amount: Decimal, method: str, owed: Decimal) -> tuple[str, str] | None:
    """(field, reason) when a payment cannot be taken, else None."""
    if method not in METHOD_KEYS:
        return "method", "Choose cash, cheque, card or waived."
    if owed <= 0:
        return "amount", "Nothing is owed: the fee is paid."
    if amount <= 0:
        return "amount", "Give an amount above 0."
    if cents(amount) != amount:
        return "amount", "Give the amount to the cent, like 10.50."
    if amount > owed:
        return "amount", f"That is more than is owed ({owed})."
    return None


def fee_problem(value: Decimal) -> str:
    """Why a fee cannot be set ("" when it can)."""
    if value < 0:
        return "A fee cannot be below 0."
    if value > HIGHEST_FEE:
        return f"A fee above {HIGHEST_FEE} is surely a typing slip."
    if cents(value) != value:
        return "Give the fee to the cent, like 12.50."
    return ""


def split_problem(percents: Sequence[int]) -> str:
    """Why the pot cannot be split so ("" when it can). No split at all is allowed."""
    if not percents:
        return ""
    if len(percents) > MOST_PLACES:
        return f"Split the pot over at most {MOST_PLACES} places."
    if any(p <= 0 for p in percents):
        return "Each place needs a share above 0%."
    if sum(percents) != 100:
        return f"The shares add up to {sum(percents)}%, not 100%."
    return ""


def pot(collected: Decimal, percent: int) -> Decimal:
    """The share of the fees collected that goes to prizes, to the cent."""
    return cents(collected * percent / 100)


def split_pot(amount: Decimal, percents: Sequence[int]) -> list[Decimal]:
    """Each place's part, to the cent, adding up to ``amount`` exactly: every part is rounded
    down, and the cents left go one each to the places that lost most to the rounding (the
    higher place first on a tie)."""
    if not percents:
        return []
    total = sum(percents)
    in_cents = int((amount / CENT).to_integral_value())
    exact = [in_cents * p / total for p in percents]
    parts = [int(share) for share in exact]
    left = in_cents - sum(parts)
    order = sorted(range(len(parts)), key=lambda i: (-(exact[i] - parts[i]), i))
    for i in order[:left]:
        parts[i] += 1
    return [Decimal(part) * CENT for part in parts]


def parse_split(text: str) -> list[int]:
    """ "50 30 20" or "50, 30, 20%" -> [50, 30, 20]; ValueError saying what is wrong."""
    cleaned = text.replace(",", " ").replace("%", " ").split()
    try:
        return [int(part) for part in cleaned]
    except ValueError:
        raise ValueError("Give whole percentages, like 50 30 20.") from None
