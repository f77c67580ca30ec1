""" "Call the desk" in headless Chromium: a scorekeeper's 390 px phone calls about a dispute, the
desk's day board on a laptop shows the call by itself, the desk answers it, a second press on the
phone is answered plainly instead of calling twice, and a press without Wi-Fi says the call did
not go; axe-clean on both screens."""

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

from scoring.models import DeskCall

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_table_calls_the_desk_and_the_desk_answers(
    live_server, browser, login_page, make_user, axe_script, settings
):
    settings.STANDINGS_REFRESH_SECONDS = 1
    organiser = make_user("calls-boss", superuser=True)
    world = seated_day(slug="calls", organiser=organiser)
    desk = login_page(organiser)
    desk.set_viewport_size(DESK)
    desk.goto(f"{live_server.url}/organiser/t/calls/day/1/board/")
    expect(desk.locator(".desk-calls")).to_have_count(0)
    desk.evaluate("window.notReloaded = true")

    phone_context = browser.new_context(viewport=PHONE, bypass_csp=True)
    phone = phone_context.new_page()
    try:
        phone.goto(live_server.url + link(world.tables[1]))
        problems = [f"table page: {v}" for v in violations(phone, axe_script, PHONE_TAGS)]
        phone.get_by_role("button", name="A dispute").click()
        expect(phone.locator(".messages")).to_contain_text(
            "The desk is called (a dispute). Someone will come to table 2."
        )
        expect(phone.locator("#call-desk")).to_contain_text("You called the desk at")
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        problems += [f"table page, called: {v}" for v in violations(phone, axe_script, PHONE_TAGS)]

        calls = desk.locator(".desk-calls")
        expect(calls).to_contain_text("Table 2: a dispute", timeout=15_000)
        expect(desk.locator("#tile-2")).to_contain_text("Calling the desk: a dispute")
        assert desk.evaluate("window.notReloaded === true")
        problems += [f"board: {v}" for v in violations(desk, axe_script, AA_TAGS)]

        # Pressed again before anyone came: no second call, and the phone says why.
        phone.get_by_role("button", name="A dispute").click()
        expect(phone.locator(".messages")).to_contain_text("The desk already has your call")

        desk.get_by_role("button", name="Answered: table 2, a dispute").click()
        expect(desk.locator(".messages")).to_contain_text("Table 2's call (a dispute) is answered.")
        expect(desk.locator(".desk-calls")).to_have_count(0)
        phone.reload()
        expect(phone.locator("#call-desk")).to_contain_text("Need help? Press a button")
        # Without Wi-Fi the page says the call did not go; nothing reaches the desk.
        phone_context.set_offline(True)
        phone.get_by_role("button", name="A missing tile").click()
        expect(phone.locator("[data-call-offline]")).to_be_visible()
        phone_context.set_offline(False)
        assert not DeskCall.objects.filter(reason="tile").exists()
    finally:
        phone_context.close()
    assert not problems, "\n".join(problems)
