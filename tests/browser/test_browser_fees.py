"""Fees in headless Chromium: the organiser sets them on the treasurer's page (a split that is not
100% is refused and says so), a desk volunteer on a 390 px phone takes a player's fee in one tap
at check-in, which checks them in, and the treasurer's page adds it up; axe-clean at 1280 px
and 390 px."""

import pytest
from playwright.sync_api import expect
from scoring_factories import register
from test_browser_accessibility import (  # noqa: F401 (fixtures)
    AA_TAGS,
    DESK,
    PHONE,
    browser_context_args,
    violations,
)

from tournaments.models import Entry, Payment

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_fees_set_taken_at_check_in_and_added_up(
    live_server, login_page, make_user, make_tournament, axe_script
):
    organiser = make_user("fees-boss", superuser=True)
    make_tournament("rally", preset="club-session")
    from tournaments.models import Tournament

    register(Tournament.objects.get(slug="rally"), "Ann Lee", "Bob Roe")
    page = login_page(organiser)
    page.set_viewport_size(DESK)
    page.goto(f"{live_server.url}/organiser/t/rally/treasurer/")
    expect(page.locator("#fee-each")).to_contain_text("no entry fee")
    page.get_by_label("Entry fee").fill("12.50")
    page.get_by_label("Share of the fees for prizes (%)").fill("80")
    page.get_by_label("Split of the prize pot by place").fill("60 30")
    page.get_by_role("button", name="Save the fees").click()
    expect(page.locator(".messages")).to_contain_text(
        "Nothing changed. Split of the prize pot: The shares add up to 90%, not 100%."
    )
    expect(page.locator("#fee-each")).to_contain_text("no entry fee")
    page.get_by_label("Entry fee").fill("12.50")
    page.get_by_label("Share of the fees for prizes (%)").fill("80")
    page.get_by_label("Split of the prize pot by place").fill("70 30")
    page.get_by_role("button", name="Save the fees").click()
    expect(page.locator(".messages")).to_contain_text("Fees saved.")
    expect(page.locator("#fee-each")).to_contain_text("$12.50")
    problems = [f"treasurer 1280: {v}" for v in violations(page, axe_script, AA_TAGS)]

    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/organiser/t/rally/check-in/")
    ann = page.locator("li.checkin-row", has_text="Ann Lee")
    expect(ann).to_contain_text("Owes $12.50")
    problems += [f"check-in 390: {v}" for v in violations(page, axe_script, AA_TAGS)]
    page.get_by_role("button", name="Ann Lee pays $12.50 by cash").click()
    expect(page.locator(".messages")).to_contain_text(
        "Ann Lee paid $12.50 by cash and is checked in."
    )
    expect(ann).to_contain_text("Paid")
    expect(ann).to_contain_text("Here")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert Entry.objects.get(player__name="Ann Lee").status == Entry.CHECKED_IN
    # A wrong tap is undone from the same row; the check-in stays.
    page.get_by_role("button", name="Undo Ann Lee's last payment").click()
    expect(page.locator(".messages")).to_contain_text("Undone: Ann Lee's $12.50 cash.")
    expect(ann).to_contain_text("Owes $12.50")
    page.get_by_role("button", name="Ann Lee pays $12.50 by card").click()
    expect(ann).to_contain_text("Paid")
    assert Payment.objects.get().method == "card"

    page.goto(f"{live_server.url}/organiser/t/rally/treasurer/")
    expect(page.locator("#fee-collected")).to_have_text("$12.50")
    expect(page.locator("#fee-owing")).to_contain_text("Bob Roe: $12.50")
    expect(page.locator("#pot-parts")).to_contain_text("$7.00")
    problems += [f"treasurer 390: {v}" for v in violations(page, axe_script, AA_TAGS)]
    assert not problems, "\n".join(problems)
