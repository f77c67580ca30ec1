"""On a 390x844 phone the standings' first row shows on the first screen, on the public page
and on the organiser's, without scrolling; nothing scrolls sideways."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def first_row_box(page) -> dict:
    row = page.locator("#standings tbody tr").first
    expect(row).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    return row.bounding_box()


def assert_on_the_first_screen(page) -> None:
    box = first_row_box(page)
    # The whole row, not only its top edge, sits above the bottom of the first screen.
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_public_standings_first_row_is_on_the_first_phone_screen(
    live_server, page, demo_tournament
):
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{demo_tournament.slug}/standings/")
    assert_on_the_first_screen(page)
    # Finding and downloading come after the table, one tap from the top of the page.
    page.get_by_role("link", name="Search for a player, pick a day, download").click()
    expect(page.get_by_label("Find")).to_be_in_viewport()
    expect(page.get_by_role("link", name="PDF", exact=True)).to_be_in_viewport()
    page.get_by_label("Find").fill("siobhán")
    page.get_by_role("button", name="Show").click()
    # The answer opens at the table, not at the form.
    expect(page.locator("#standings tbody tr")).to_have_count(1)
    expect(page.locator("#standings tbody tr").first).to_be_in_viewport()
    expect(page.locator("#standings tbody tr").first).to_contain_text("Siobhán Jensen")


def test_the_organiser_standings_first_row_is_on_the_first_phone_screen(
    live_server, login_page, demo_tournament, organiser
):
    page = login_page(organiser)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/organiser/t/{demo_tournament.slug}/standings/")
    assert_on_the_first_screen(page)
    expect(page.get_by_role("button", name="Turn public pages off")).to_have_count(1)


def test_a_search_that_finds_nobody_says_so_on_a_phone(live_server, page, demo_tournament):
    """Found trying it at 390 px: the phone's column rule hid the one cell that said so, and
    the table showed only its headings."""
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{demo_tournament.slug}/standings/?q=zz")
    expect(page.locator("#standings tbody td")).to_have_text("No players match “zz”.")
    expect(page.locator("#standings tbody td")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
