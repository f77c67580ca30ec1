"""A practice event in headless Chromium: the organiser makes the copy from the event's page, a
volunteer's 390 px phone opens one of its table links and sees it marked as practice, and the
reset clears what they typed; axe-clean at 1280 px and 390 px."""

import pytest
from playwright.sync_api import expect
from scoring_factories import link, seated_day
from test_browser_accessibility import (  # noqa: F401 (fixtures)
    AA_TAGS,
    DESK,
    PHONE,
    PHONE_TAGS,
    browser_context_args,
    violations,
)

from scoring.models import GameSheet
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_practice_copy_made_tried_on_a_phone_and_reset(
    live_server, browser, login_page, make_user, axe_script
):
    organiser = make_user("practice-boss", superuser=True)
    seated_day(slug="cup", organiser=organiser)
    page = login_page(organiser)
    page.set_viewport_size(DESK)
    page.goto(f"{live_server.url}/organiser/t/cup/")
    page.get_by_role("button", name="Make a practice copy").click()
    expect(page.locator(".messages")).to_contain_text("Practice copy made: Practice: Cup.")
    expect(page.locator("#practice-banner")).to_contain_text("Practice event.")
    problems = [f"practice overview: {v}" for v in violations(page, axe_script, AA_TAGS)]

    table = Table.objects.get(day__tournament__slug="cup-practice", number=1)
    phone_context = browser.new_context(viewport=PHONE, bypass_csp=True)
    phone = phone_context.new_page()
    try:
        phone.goto(live_server.url + link(table))
        expect(phone.locator("#practice-banner")).to_contain_text("nothing here counts")
        problems += [f"practice table: {v}" for v in violations(phone, axe_script, PHONE_TAGS)]
        phone.get_by_role("button", name="A rule question").click()
        expect(phone.locator(".messages")).to_contain_text("The desk is called")
    finally:
        phone_context.close()

    page.get_by_role("button", name="Reset practice").click()
    expect(page.locator(".messages")).to_contain_text("Practice: Cup is reset")
    assert not GameSheet.objects.filter(table__day__tournament__slug="cup").exists()
    assert not table.desk_calls.exists()
    assert not problems, "\n".join(problems)
