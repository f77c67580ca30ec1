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


def seniors_with_births(organiser):
    from domain.flights import Birth
    from tournaments.services.events import create_tournament
    from tournaments.services.registration import register_player

    games = create_tournament(
        slug="seniors", name="Seniors", preset_key="club-session", organiser=organiser
    )
    born = {"Ann Lee": 1962, "Bob Ray": 1960, "Cy Doe": 1958, "Di Fox": 1950, "Ed Poe": 1952}
    born |= {"Flo Ng": 1948, "Gus Ray": 1940}
    for name, year in born.items():
        register_player(games, name=name, birth=Birth(year), user=organiser)
    return games


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_flights_by_age_seated_within_flights_with_a_flights_prize(
    live_server, login_page, organiser, axe_script, size
):
    from django.utils import timezone

    from tournaments.models import Entry, Seat

    games = seniors_with_births(organiser)
    page = login_page(organiser)
    page.set_viewport_size(size)
    base = f"{live_server.url}/organiser/t/{games.slug}"

    page.goto(f"{base}/rules/")
    page.get_by_label("Flights (optional)").fill("60-69, 70-79, 80+")
    page.get_by_label("Seat each flight at tables of its own").check()
    page.get_by_role("button", name="Save the rules").click()
    expect(page.locator('[data-rule="seat_within_flights"]')).to_contain_text("yes")

    page.goto(f"{base}/players/")
    summary = page.get_by_text("Set flights by age")
    box = summary.bounding_box()
    assert box is not None and box["height"] >= 44
    summary.click()
    age_on = page.get_by_label("Age on")
    year = timezone.localdate().year
    expect(age_on).to_have_value(f"{year}-12-31")
    assert not violations(page, axe_script, AA_TAGS)
    page.get_by_role("button", name="Set the flights").click()
    expect(page.get_by_role("status").first).to_contain_text("7 set, 0 already right")
    # Gus Ray, born 1940, is the 80+ flight's only player: warned, and seated with 70-79.
    expect(page.locator(".flight-note")).to_contain_text("Flight 80+ has one player")
    held = dict(Entry.objects.filter(tournament=games).values_list("player__name", "flight"))
    assert held["Ann Lee"] == ("60-69" if year - 1962 < 70 else "70-79")
    assert held["Gus Ray"] == "80+"
    fits(page, size)

    page.goto(f"{base}/seating/1/")
    page.locator("main").get_by_role("button", name="Seat day 1").click()
    expect(page.locator("#flight-seating")).to_contain_text(
        "Each flight sits at tables of its own. Flight 80+ has one player, who sits with "
        "flight 70-79."
    )
    flights_at = {}
    for table, flight in Seat.objects.filter(day__tournament=games).values_list(
        "table__number", "entry__flight"
    ):
        flights_at.setdefault(table, set()).add(flight)
    assert all(len(f - {"80+"}) == 1 for f in flights_at.values())  # one flight a table
    expect(page.locator(".seating-table h3").first).to_contain_text("flight")
    assert not violations(page, axe_script, AA_TAGS)
    fits(page, size)

    page.goto(f"{base}/prizes/")
    page.get_by_label("Place (for a place prize)").fill("1")
    page.get_by_label("Among").select_option("70-79")
    page.get_by_role("button", name="Add the prize").click()
    expect(page.get_by_role("status").first).to_contain_text(
        "Prize added: 1st place \u00b7 Flight 70-79."
    )
    page.get_by_label("Place (for a place prize)").fill("9")
    page.get_by_label("Among").select_option("80+")
    page.get_by_role("button", name="Add the prize").click()
    expect(page.locator(".messages")).to_contain_text(
        "Nothing changed. Flight 80+ has 1 player: there is no 9th place in flight 80+ to give."
    )
    assert not violations(page, axe_script, AA_TAGS)
    fits(page, size)
