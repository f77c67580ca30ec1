"""Flights (issue 27) in the browser: the organiser lists the event's flights on its rules page,
puts a player in one on their page, and the standings page's flight choice shows that flight
ranked on its own, on the desk's laptop and on a phone, axe-core clean."""

import pytest
from playwright.sync_api import expect
from test_browser_accessibility import AA_TAGS, violations
from test_browser_scoring import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def browser_context_args(browser_context_args):
    """As the accessibility tests: the policy set aside for axe-core's own script alone."""
    return {**browser_context_args, "bypass_csp": True}


def senior_games(organiser):
    from tournaments.services.events import create_tournament
    from tournaments.services.registration import register_player

    games = create_tournament(
        slug="senior-games", name="Senior Games", preset_key="club-session", organiser=organiser
    )
    for name in ("Ann Lee", "Bob Ray", "Cy Doe"):
        register_player(games, name=name, club="Elks", user=organiser)
    return games


def fits(page, size) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_define_flights_set_one_and_choose_it_on_the_standings(
    live_server, login_page, organiser, axe_script, size
):
    from tournaments.models import Entry

    games = senior_games(organiser)
    page = login_page(organiser)
    page.set_viewport_size(size)
    base = f"{live_server.url}/organiser/t/{games.slug}"

    page.goto(f"{base}/rules/")
    page.get_by_label("Flights (optional)").fill("60-69, 70-79, 80+")
    page.get_by_role("button", name="Save the rules").click()
    expect(page.locator('[data-rule="flights"]')).to_contain_text("60-69, 70-79, 80+")
    assert not violations(page, axe_script, AA_TAGS)
    fits(page, size)

    page.goto(f"{base}/players/2/")
    flight = page.get_by_label("Flight", exact=True)
    expect(flight).to_have_value("")
    box = flight.bounding_box()
    assert box is not None and box["height"] >= 44
    flight.select_option("70-79")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("status").first).to_contain_text("Saved the details of player #2")
    assert Entry.objects.get(tournament=games, number=2).flight == "70-79"

    page.goto(f"{base}/standings/?q=Ray")
    # The label holds the menu, so its name also says the flight chosen: found by its field.
    choice = page.locator('select[name="flight"]')
    box = choice.bounding_box()
    assert box is not None and box["height"] >= 44
    choice.select_option("70-79")
    page.get_by_role("button", name="Show", exact=True).click()
    expect(page.locator("#standings-title")).to_have_text("Standings \u00b7 Flight 70-79")
    expect(page.locator("#standings")).to_contain_text("Bob Ray")
    expect(page.locator("#standings")).not_to_contain_text("Ann Lee")
    assert "q=Ray" in page.url and "flight=70-79" in page.url
    assert not violations(page, axe_script, AA_TAGS)
    fits(page, size)

    page.locator('select[name="flight"]').select_option("")
    page.locator('input[name="q"]').fill("")
    page.get_by_role("button", name="Show", exact=True).click()
    expect(page.locator("#standings-title")).to_have_text("Standings")
    expect(page.locator("#standings")).to_contain_text("Ann Lee")
