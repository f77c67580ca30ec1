"""Merging two people (issue 25) as an organiser does it, on the laptop and on a phone: from the
player's page to the two side by side, the merge, and its undo; axe-core clean at each step, no
sideways scroll, and big targets."""

import re

import pytest
from playwright.sync_api import expect
from test_browser_accessibility import AA_TAGS, violations
from test_browser_check_in import DESKTOP
from test_browser_scoring import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_context_args(browser_context_args):
    """As the accessibility tests: the policy set aside for axe-core's own script alone."""
    return {**browser_context_args, "bypass_csp": True}


def ana_twice(organiser):
    import datetime

    from tournaments.services.events import create_tournament
    from tournaments.services.registration import register_player

    spring = create_tournament(
        slug="spring-open",
        name="Spring open",
        preset_key="club-session",
        start_date=datetime.date(2026, 3, 14),
        organiser=organiser,
    )
    night = create_tournament(
        slug="club-night",
        name="Club night with a rather long name for a small phone",
        preset_key="club-session",
        start_date=datetime.date(2026, 4, 2),
        organiser=organiser,
    )
    register_player(spring, name="Ana Núñez", club="Lakeside Good Sams", user=organiser)
    register_player(night, name="Bo Li", club="Elks", user=organiser)
    register_player(night, name="Ana Nunez", club="Palm Harbor Chapter", user=organiser)
    return spring


def page_is_sound(page, axe_script, size) -> None:
    assert not violations(page, axe_script, AA_TAGS)
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_merge_two_people_and_undo(live_server, login_page, organiser, axe_script, size):
    from tournaments.models import Entry

    spring = ana_twice(organiser)
    page = login_page(organiser)
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}/organiser/t/{spring.slug}/players/1/")
    page.get_by_role("link", name="Merge with another person…").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Merge Ana Núñez with another person")
    page.get_by_label("Search your directory by name").fill("nunez")
    page.get_by_role("button", name="Search", exact=True).click()
    page_is_sound(page, axe_script, size)
    page.get_by_role("link", name=re.compile("^Compare Ana Núñez with Ana Nunez")).click()

    keep = page.get_by_role("button", name="Merge: keep Ana Núñez")
    expect(keep).to_be_visible()
    expect(page.get_by_role("button", name="Merge: keep Ana Nunez")).to_be_visible()
    expect(page.get_by_text("Palm Harbor Chapter").first).to_be_visible()
    page_is_sound(page, axe_script, size)
    box = keep.bounding_box()
    assert box is not None and box["height"] >= 44

    keep.click()
    expect(page.get_by_role("status")).to_contain_text(
        "Merged Ana Nunez into Ana Núñez: 1 entry moved (Club night with a rather long name"
    )
    assert set(Entry.objects.values_list("player__name", flat=True)) == {"Ana Núñez", "Bo Li"}
    undo = page.get_by_role("button", name="Undo the merge of Ana Nunez into Ana Núñez")
    page_is_sound(page, axe_script, size)
    box = undo.bounding_box()
    assert box is not None and box["height"] >= 44

    undo.click()
    expect(page.get_by_role("status")).to_contain_text("are two people again")
    expect(page.get_by_text(re.compile("^Undone by organiser1 on"))).to_be_visible()
    page_is_sound(page, axe_script, size)
    assert Entry.objects.filter(player__name="Ana Nunez").count() == 1
