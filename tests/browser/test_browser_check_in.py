"""Check-in for a club night where the whole list is present (issue 25): one button checks in
everyone not here yet, on the desk's laptop or a phone, and each player's club is this event's."""

import pytest
from playwright.sync_api import expect
from test_browser_accessibility import AA_TAGS, NARROW, violations
from test_browser_scoring import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def browser_context_args(browser_context_args):
    """As the accessibility tests: the policy set aside for axe-core's own script alone."""
    return {**browser_context_args, "bypass_csp": True}


def club_night(organiser):
    from tournaments.services.events import create_tournament
    from tournaments.services.registration import register_player, withdraw_entry

    last_week = create_tournament(
        slug="last-week", name="Last Week", preset_key="club-session", organiser=organiser
    )
    moved = register_player(last_week, name="Ann Lee", club="Elks", user=organiser).player
    night = create_tournament(
        slug="club-night", name="Club Night", preset_key="club-session", organiser=organiser
    )
    register_player(night, player=moved, club="Moose Lodge", user=organiser)
    for name in ("Bob Ray", "Cy Doe", "Di Fox"):
        register_player(night, name=name, club="Elks", user=organiser)
    withdraw_entry(night.entries.get(number=4))
    return night


@pytest.mark.parametrize("size", [DESKTOP, PHONE, NARROW], ids=["desktop", "phone", "narrow"])
def test_check_everyone_in_with_one_button(live_server, login_page, organiser, axe_script, size):
    from tournaments.models import Entry

    night = club_night(organiser)
    page = login_page(organiser)
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}/organiser/t/{night.slug}/check-in/")
    ann = page.locator("#entry-1")
    expect(ann).to_contain_text("Moose Lodge")  # this event's club, not last week's
    expect(page.get_by_text("0 here · 3 not here yet · 1 withdrawn")).to_be_visible()
    button = page.get_by_role("button", name="Check in everyone not here yet (3)")
    assert not violations(page, axe_script, AA_TAGS)
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44  # a big target for the desk

    button.click()
    expect(page.get_by_role("status")).to_contain_text("3 players checked in.")
    expect(page.get_by_text("3 here · 0 not here yet · 1 withdrawn")).to_be_visible()
    expect(page.get_by_role("button", name="Check in everyone not here yet")).to_have_count(0)
    assert set(night.entries.values_list("status", flat=True)) == {
        Entry.CHECKED_IN,
        Entry.WITHDRAWN,
    }
    assert not violations(page, axe_script, AA_TAGS)
