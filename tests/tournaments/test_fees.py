"""Entry fees: the organiser sets them, the desk takes them at check-in in one tap (which checks
the player in), the treasurer's page, workbook and command agree, and bad input changes
nothing."""

import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import load_workbook
from pypdf import PdfReader
from scoring_factories import client_for, fresh, register, snapshot, staff, text_of

from core.errors import ServiceError
from domain import fees
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, Payment, StaffRole, Tournament
from tournaments.selectors.fees import fee_report, fee_states
from tournaments.services.events import create_tournament
from tournaments.services.fees import set_fees, take_payment, undo_last_payment
from tournaments.services.registration import withdraw_entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """A two-day event at 10.00 and 2.50 a day (15.00 each), 80% to a pot split 50 30 20."""
    t = create_tournament(slug="rally", name="Rally", preset_key="club-session")
    from tournaments.services.rules import change_rules

    change_rules(t, {"days": 2}, by=COMMAND_LINE)
    t = fresh(t)
    set_fees(
        t,
        entry_fee=Decimal("10"),
        day_fee=Decimal("2.50"),
        pot_percent=80,
        pot_split=[50, 30, 20],
        by=COMMAND_LINE,
    )
    register(t, "Ann Lee", "Bob Roe", "Cy Doe", "Di Fox")
    return fresh(t)


def entry(t, name):
    return Entry.objects.get(tournament=t, player__name=name)


def test_a_payment_checks_the_player_in_and_settles_the_fee(event):
    ann = entry(event, "Ann Lee")
    payment = take_payment(ann, fees.CASH, by=COMMAND_LINE)
    assert payment.amount == Decimal("15.00") and payment.taken_by_label == "command line"
    ann.refresh_from_db()
    assert ann.status == Entry.CHECKED_IN
    assert fee_states(event)[ann.pk].settled
    with pytest.raises(ServiceError, match="Nothing is owed"):
        take_payment(ann, fees.CARD, by=COMMAND_LINE)


def test_part_payments_waivers_and_undo(event):
    bob = entry(event, "Bob Roe")
    take_payment(bob, fees.CHEQUE, amount=Decimal("5"), by=COMMAND_LINE)
    assert fee_states(event)[bob.pk].owed == Decimal("10.00")
    with pytest.raises(ServiceError, match=r"more than is owed \(10.00\)"):
        take_payment(bob, fees.CASH, amount=Decimal("10.01"), by=COMMAND_LINE)
    take_payment(bob, fees.WAIVED, by=COMMAND_LINE)
    assert fee_states(event)[bob.pk].settled
    undone = undo_last_payment(bob, by=COMMAND_LINE)
    assert undone.method == fees.WAIVED
    assert fee_states(event)[bob.pk].owed == Decimal("10.00")
    undo_last_payment(bob, by=COMMAND_LINE)
    with pytest.raises(ServiceError, match="No payment to undo"):
        undo_last_payment(bob, by=COMMAND_LINE)


def test_a_withdrawn_player_is_only_waived(event):
    di = entry(event, "Di Fox")
    withdraw_entry(di)
    before = snapshot(Payment, Entry)
    with pytest.raises(ServiceError, match="has withdrawn"):
        take_payment(di, fees.CASH, by=COMMAND_LINE)
    assert snapshot(Payment, Entry) == before
    take_payment(di, fees.WAIVED, by=COMMAND_LINE)
    di.refresh_from_db()
    assert di.status == Entry.WITHDRAWN


def test_the_report_totals_by_method_and_splits_the_pot(event):
    take_payment(entry(event, "Ann Lee"), fees.CASH, by=COMMAND_LINE)
    take_payment(entry(event, "Bob Roe"), fees.CARD, by=COMMAND_LINE)
    take_payment(entry(event, "Cy Doe"), fees.CHEQUE, amount=Decimal("7.33"), by=COMMAND_LINE)
    take_payment(entry(event, "Di Fox"), fees.WAIVED, by=COMMAND_LINE)
    report = fee_report(event)
    assert report.by_method == {
        fees.CASH: (1, Decimal("15.00")),
        fees.CHEQUE: (1, Decimal("7.33")),
        fees.CARD: (1, Decimal("15.00")),
        fees.WAIVED: (1, Decimal("15.00")),
    }
    assert report.collected == Decimal("37.33")
    assert [(o.name, o.owed) for o in report.owing] == [("Cy Doe", Decimal("7.67"))]
    assert report.pot == Decimal("29.86")  # 80% of 37.33 = 29.864
    assert [part for _, _, part in report.places] == [
        Decimal("14.93"),
        Decimal("8.96"),
        Decimal("5.97"),
    ]
    assert sum(part for _, _, part in report.places) == report.pot


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"entry_fee": Decimal("-1")}, "entry_fee"),
        ({"day_fee": Decimal("-0.50")}, "day_fee"),
        ({"entry_fee": Decimal("1.005")}, "entry_fee"),
        ({"pot_percent": 101}, "pot_percent"),
        ({"pot_split": [50, 30]}, "pot_split"),
        ({"pot_split": [100, 0]}, "pot_split"),
    ],
)
def test_bad_fees_are_refused_with_the_field_and_change_nothing(event, changes, field):
    values = {
        "entry_fee": Decimal("10"),
        "day_fee": Decimal("2.50"),
        "pot_percent": 80,
        "pot_split": [50, 30, 20],
    } | changes
    before = snapshot(Tournament)
    with pytest.raises(ServiceError) as refused:
        set_fees(event, **values, by=COMMAND_LINE)
    assert refused.value.field == field
    assert snapshot(Tournament) == before


def test_only_an_organiser_sets_the_fees(event):
    desk = staff(event, "desk1")
    with pytest.raises(ServiceError, match="Only an organiser"):
        set_fees(
            event,
            entry_fee=Decimal(0),
            day_fee=Decimal(0),
            pot_percent=0,
            pot_split=[],
            by=desk,
        )
    response = client_for(desk).post("/organiser/t/rally/treasurer/fees/", {"entry_fee": "0"})
    assert response.status_code == 403
    assert fresh(event).entry_fee == Decimal("10.00")


def test_check_in_page_takes_a_fee_in_one_tap(event):
    desk = client_for(staff(event, "desk1"))
    page = text_of(desk.get("/organiser/t/rally/check-in/"))
    assert page.count("Owes $15.00") == 4
    ann = entry(event, "Ann Lee")
    response = desk.post(f"/organiser/t/rally/check-in/{ann.number}/pay/", {"method": "cash"})
    assert response["Location"].endswith(f"#entry-{ann.number}")
    page = text_of(desk.get(response["Location"]))
    assert "Ann Lee paid $15.00 by cash and is checked in." in page
    assert page.count("Owes $15.00") == 3
    ann.refresh_from_db()
    assert ann.status == Entry.CHECKED_IN
    # A paid player's check-in is the one button it always was.
    desk.post(f"/organiser/t/rally/check-in/{ann.number}/", {"here": "0"})
    desk.post(f"/organiser/t/rally/check-in/{ann.number}/", {"here": "1"})
    ann.refresh_from_db()
    assert ann.status == Entry.CHECKED_IN and Payment.objects.count() == 1


@pytest.mark.parametrize("method", ["", "bitcoin", "CASH"])
def test_an_unknown_way_of_paying_takes_nothing(event, method):
    desk = client_for(staff(event, "desk1"))
    ann = entry(event, "Ann Lee")
    before = snapshot(Payment, Entry)
    page = desk.post(
        f"/organiser/t/rally/check-in/{ann.number}/pay/", {"method": method}, follow=True
    )
    assert "Nothing was taken for Ann Lee. Choose cash, cheque, card or waived." in text_of(page)
    assert snapshot(Payment, Entry) == before


def test_an_event_without_a_fee_shows_no_fee_buttons(make_tournament):
    t = make_tournament("free")
    register(t, "Ann Lee")
    boss = staff(t, "boss", StaffRole.ORGANISER)
    page = text_of(client_for(boss).get("/organiser/t/free/check-in/"))
    assert "Owes" not in page and "Waive" not in page


@pytest.mark.parametrize(
    ("posted", "said"),
    [
        ({"entry_fee": "ten"}, "Entry fee: Give an amount like 12.50."),
        ({"entry_fee": "-5"}, "Entry fee: A fee cannot be below 0."),
        ({"pot_percent": "eighty"}, "Share of the fees for prizes: Give a whole percentage"),
        ({"pot_split": "50 30"}, "Split of the prize pot: The shares add up to 80%, not 100%."),
        ({"pot_split": "half"}, "Split of the prize pot: Give whole percentages"),
    ],
)
def test_the_fee_form_says_what_is_wrong_and_changes_nothing(event, posted, said):
    boss = client_for(staff(event, "boss", StaffRole.ORGANISER))
    data = {"entry_fee": "10", "day_fee": "2.50", "pot_percent": "80", "pot_split": "50 30 20"}
    before = snapshot(Tournament)
    page = boss.post("/organiser/t/rally/treasurer/fees/", data | posted, follow=True)
    assert f"Nothing changed. {said}" in text_of(page)
    assert snapshot(Tournament) == before


def test_the_page_the_workbook_and_the_command_agree(event, tmp_path):
    take_payment(entry(event, "Ann Lee"), fees.CASH, by=COMMAND_LINE)
    take_payment(entry(event, "Bob Roe"), fees.CARD, amount=Decimal("5"), by=COMMAND_LINE)
    boss = client_for(staff(event, "boss", StaffRole.ORGANISER))
    page = text_of(boss.get("/organiser/t/rally/treasurer/"))
    assert "Each player's fee: $15.00" in page
    assert "Collected (not counting waived) $20.00" in page
    assert "Still to pay: 3 players, $40.00" in page
    assert "80% of the fees collected: $16.00" in page
    book = load_workbook(io.BytesIO(boss.get("/organiser/t/rally/treasurer.xlsx").content))
    totals = {row[0]: row[2] for row in book["Totals"].iter_rows(min_row=2, values_only=True)}
    assert totals["Cash"] == 15 and totals["Card"] == 5
    assert totals["Collected (not counting waived)"] == 20
    pot = [row[2] for row in book["Prize pot"].iter_rows(min_row=2, values_only=True)]
    assert pot == [8, 4.8, 3.2, 16]
    pdf = boss.get("/organiser/t/rally/treasurer.pdf")
    assert pdf["Content-Type"] == "application/pdf"
    printed = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    printed = " ".join(printed.split())
    assert "Treasurer's report" in printed and "Each player's fee $15.00" in printed
    assert "Cash 1 $15.00" in printed and "Card 1 $5.00" in printed
    assert "Collected (not counting waived) $20.00" in printed
    assert "Bob Roe checked in $10.00" in printed and "1 50 $8.00" in printed
    out = io.StringIO()
    path = tmp_path / "fees.xlsx"
    call_command(
        "treasurer", "rally", "--xlsx", str(path), "--pdf", str(tmp_path / "f.pdf"), stdout=out
    )
    text = out.getvalue()
    assert "Rally: each player's fee $15.00" in text
    assert "Still to pay: 3 ($40.00)" in text
    assert "Place 1: 50% $8.00" in text and path.exists() and (tmp_path / "f.pdf").exists()
    with pytest.raises(CommandError, match='no tournament with the slug "nope"'):
        call_command("treasurer", "nope")
