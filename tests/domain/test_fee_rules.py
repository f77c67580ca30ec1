"""Fees and the prize pot: what is owed, what a payment may be, and a split that adds up to the
cent whatever the percentages."""

from decimal import Decimal

import pytest
from hypothesis import given, strategies as st

from domain import fees
from domain.fees import (
    fee_due,
    fee_problem,
    fee_state,
    parse_split,
    payment_problem,
    pot,
    split_pot,
    split_problem,
)

amounts = st.integers(0, 10**8).map(lambda c: Decimal(c) / 100)
splits = st.lists(st.integers(1, 100), min_size=1, max_size=20)


@given(amounts, splits)
def test_the_parts_always_add_up_to_the_pot(amount, percents):
    parts = split_pot(amount, percents)
    assert sum(parts) == amount
    assert len(parts) == len(percents)
    total = sum(percents)
    for part, percent in zip(parts, percents, strict=True):
        assert part == part.quantize(Decimal("0.01"))
        # Never more than a cent from the exact share.
        assert abs(part - amount * percent / total) < Decimal("0.01")


@given(amounts, splits)
def test_a_larger_share_never_gets_less(amount, percents):
    parts = split_pot(amount, percents)
    for i in range(len(percents)):
        for j in range(len(percents)):
            if percents[i] > percents[j]:
                assert parts[i] >= parts[j]


def test_splits_as_a_club_would_check_them():
    assert split_pot(Decimal("100"), [50, 30, 20]) == [
        Decimal("50.00"),
        Decimal("30.00"),
        Decimal("20.00"),
    ]
    # 10.00 three ways: the odd cent goes to first place.
    assert split_pot(Decimal("10"), [34, 33, 33]) == [
        Decimal("3.40"),
        Decimal("3.30"),
        Decimal("3.30"),
    ]
    assert split_pot(Decimal("0.01"), [50, 50]) == [Decimal("0.01"), Decimal("0.00")]
    assert split_pot(Decimal("99.99"), [100]) == [Decimal("99.99")]
    assert split_pot(Decimal("5"), []) == []


@pytest.mark.parametrize(
    ("percents", "said"),
    [
        ([50, 30], "add up to 80%, not 100%"),
        ([60, 50], "add up to 110%"),
        ([100, 0], "above 0%"),
        ([110, -10], "above 0%"),
        ([5] * 21, "at most 20 places"),
    ],
)
def test_a_split_that_is_not_100_percent_is_refused(percents, said):
    assert said in split_problem(percents)


def test_a_good_split_and_no_split_are_fine():
    assert split_problem([50, 30, 20]) == split_problem([]) == split_problem([100]) == ""


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("-1", "below 0"),
        ("-0.01", "below 0"),
        ("10000.01", "typing slip"),
        ("1.005", "to the cent"),
    ],
)
def test_a_fee_below_zero_or_past_belief_is_refused(value, said):
    assert said in fee_problem(Decimal(value))


def test_fees_and_what_is_owed():
    assert fee_problem(Decimal("0")) == fee_problem(Decimal("12.50")) == ""
    assert fee_due(Decimal("10"), Decimal("2.50"), 2) == Decimal("15.00")
    state = fee_state(Decimal("15"), [(Decimal("10"), fees.CASH), (Decimal("2"), fees.WAIVED)])
    assert (state.paid, state.waived, state.owed, state.settled) == (
        Decimal("10.00"),
        Decimal("2.00"),
        Decimal("3"),
        False,
    )
    assert fee_state(Decimal("15"), [(Decimal("15"), fees.CARD)]).settled
    assert fee_state(Decimal("0"), []).settled


@pytest.mark.parametrize(
    ("amount", "method", "owed", "field"),
    [
        ("10", "bitcoin", "10", "method"),
        ("10", fees.CASH, "0", "amount"),
        ("0", fees.CASH, "10", "amount"),
        ("-5", fees.CASH, "10", "amount"),
        ("10.001", fees.CASH, "20", "amount"),
        ("10.01", fees.CASH, "10", "amount"),
    ],
)
def test_a_payment_that_cannot_be_is_refused_with_its_field(amount, method, owed, field):
    assert payment_problem(Decimal(amount), method, Decimal(owed))[0] == field


def test_the_pot_and_the_split_as_typed():
    assert pot(Decimal("215"), 80) == Decimal("172.00")
    assert pot(Decimal("10.01"), 50) == Decimal("5.01")  # half a cent rounds up
    assert parse_split("50 30 20") == parse_split("50, 30, 20%") == [50, 30, 20]
    assert parse_split("") == []
    with pytest.raises(ValueError, match="whole percentages"):
        parse_split("50 thirty 20")
