"""The prize table in headless Chromium: the organiser adds the prizes on a laptop and sees who
wins, a tie for 1st waits until they decide it on a 390 px phone, and the announcement prints;
axe-clean at 1280 px and 390 px."""

import pytest
from playwright.sync_api import expect
from scoring_factories import a_tie_for_first
from test_browser_accessibility import (  # noqa: F401 (fixtures)
    AA_TAGS,
    DESK,
    PHONE,
    browser_context_args,
    violations,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_prizes_set_a_tie_decided_and_the_announcement_printed(
    live_server, login_page, make_user, axe_script
):
    organiser = make_user("prize-boss", superuser=True)
    a_tie_for_first()
    page = login_page(organiser)
    page.set_viewport_size(DESK)
    page.goto(f"{live_server.url}/organiser/t/tie/prizes/")
    expect(page.locator("#prize-problems")).to_contain_text("No prizes are set yet.")
    for place in ("1", "2"):
        page.get_by_label("Prize", exact=True).select_option("place")
        page.get_by_label("Place (for a place prize)").fill(place)
        page.get_by_role("button", name="Add the prize").click()
    page.get_by_label("Prize", exact=True).select_option("lowest_game")
    page.get_by_role("button", name="Add the prize").click()
    expect(page.locator(".messages")).to_contain_text("Prize added: Lowest single game.")
    # The same place twice is refused with the reason.
    page.get_by_label("Prize", exact=True).select_option("place")
    page.get_by_label("Place (for a place prize)").fill("2")
    page.get_by_role("button", name="Add the prize").click()
    expect(page.locator(".messages")).to_contain_text("There is a prize for 2nd place already.")
    table = page.locator("#prize-table tbody tr")
    expect(table).to_have_count(3)
    expect(table.first).to_contain_text("Lowest single game")
    expect(page.locator("#prize-problems")).to_contain_text(
        "1st place: a tie to decide between Ann Lee, Ed Poe."
    )
    problems = [f"prizes 1280: {v}" for v in violations(page, axe_script, AA_TAGS)]

    page.set_viewport_size(PHONE)
    first = page.locator("#prize-table tbody tr", has_text="1st place")
    first.get_by_label("Winner").select_option(label="Ed Poe")
    first.get_by_role("button", name="Decide").click()
    expect(page.locator(".messages")).to_contain_text("1st place: Ed Poe, decided by you.")
    expect(page.locator("#prize-ready")).to_be_visible()
    expect(page.locator("#prize-table tbody tr", has_text="2nd place")).to_contain_text("Ann Lee")
    expect(page.locator("#prize-table tbody tr", has_text="Lowest")).to_contain_text("Bob Roe")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    problems += [f"prizes 390: {v}" for v in violations(page, axe_script, AA_TAGS)]
    with page.expect_response(lambda r: r.url.endswith("announcement.pdf")) as answer:
        page.evaluate(
            "url => fetch(url)", f"{live_server.url}/organiser/t/tie/prizes/announcement.pdf"
        )
    assert answer.value.status == 200
    assert answer.value.headers["content-type"] == "application/pdf"
    assert not problems, "\n".join(problems)
