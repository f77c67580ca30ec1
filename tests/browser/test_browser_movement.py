"""End to end in Chromium (issue 27, progressive tables): the organiser sets a movement on the
rules page, seats day 1, the scores come in, seats day 2 by the movement and reads who moved
where and why, then the standings; axe-core finds nothing on the pages."""

import pytest
from playwright.sync_api import expect
from test_browser_accessibility import AA_TAGS, violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_context_args(browser_context_args):
    """As the accessibility tests: the policy set aside for axe-core's own script alone."""
    return {**browser_context_args, "bypass_csp": True}


def _play_day(day):
    """Every table plays every game of ``day``: player number n scores n a game, and the
    lowest at the table goes out (0)."""
    from scoring_factories import stored_sheet

    from scoring.models import Game
    from tournaments.models import Table

    for table in Table.objects.filter(day=day):
        seats = list(table.seats.select_related("entry").order_by("position"))
        for game in Game.objects.filter(day=day):
            points = {s.entry: s.entry.number for s in seats}
            low = min(seats, key=lambda s: s.entry.number)
            points[low.entry] = 0
            stored_sheet(table, game, points, out=low.entry)


def test_the_organiser_seats_day_two_by_a_movement(organiser, login_page, live_server, axe_script):
    from scoring_factories import add_entries

    from tournaments.models import Day
    from tournaments.services.events import create_tournament

    tournament = create_tournament(
        slug="prog", name="Progressive", preset_key="tournament", organiser=organiser
    )
    add_entries(tournament, [f"Player {n:02d}" for n in range(1, 13)])
    page = login_page(organiser)
    page.goto(f"{live_server.url}/organiser/t/prog/rules/")
    page.get_by_label("Most players at a table").fill("4")
    page.get_by_label("Hand sizes").fill("2-4: 15")
    page.get_by_label("Seat each session after the first by").select_option(
        label="Movement: players move table to table by their results"
    )
    page.get_by_label("Lowest at each table who move up a table").fill("1")
    page.get_by_label("Highest at each table who move down a table").fill("1")
    page.get_by_role("button", name="Save the rules").click()
    expect(page.get_by_role("status").first).to_contain_text("Rules saved")
    expect(page.locator('tr[data-rule="session_seating"]')).to_contain_text("Movement")
    expect(page.locator('tr[data-rule="move_up"]')).to_contain_text("1")
    assert not violations(page, axe_script, AA_TAGS)

    page.goto(f"{live_server.url}/organiser/t/prog/seating/1/")
    page.get_by_role("button", name="Seat day 1").click()
    expect(page.get_by_role("status").first).to_contain_text("Day 1 is seated at 3 tables")
    _play_day(Day.objects.get(tournament=tournament, number=1))

    page.goto(f"{live_server.url}/organiser/t/prog/seating/2/")
    expect(page.get_by_text("Seated by the movement from Day 1's results")).to_be_visible()
    page.get_by_role("button", name="Seat day 2").click()
    expect(page.get_by_role("status").first).to_contain_text(
        "Day 2 is seated at 3 tables by the movement: 2 moved up, 2 moved down, 8 stayed"
    )
    moves = page.locator("#moves-table tbody tr")
    expect(moves).to_have_count(12)
    expect(page.locator("#moves-table")).to_contain_text(
        "Lowest at table 2 (0): moves up to table 1"
    )
    expect(page.locator("#moves-table")).to_contain_text("stays at table 1, the top table")
    assert not violations(page, axe_script, AA_TAGS)

    page.goto(f"{live_server.url}/organiser/t/prog/standings/?after_day=1")
    expect(page.locator("#standings tr").filter(has_text="Player 01")).to_be_visible()
    assert not violations(page, axe_script, AA_TAGS)
