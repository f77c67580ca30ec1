"""End to end in Chromium (issue 27): the organiser sets a final on the rules page, qualifying is
played, the Final page lists who goes through and why and seats the final, its table's phone
saves a game and the rest come in,
and the standings list the finalists first and say so; axe-core finds nothing on the pages."""

import pytest
from playwright.sync_api import expect
from test_browser_accessibility import AA_TAGS, violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_context_args(browser_context_args):
    """As the accessibility tests: the policy set aside for axe-core's own script alone."""
    return {**browser_context_args, "bypass_csp": True}


def play_day(tables, day, points, first_game=1):
    """Every game of ``day`` from ``first_game`` confirmed at each table, each player scoring
    ``points[name]``."""
    from scoring_factories import stored_sheet

    from scoring.models import Game

    for game in Game.objects.filter(day=day, number__gte=first_game).order_by("number"):
        for table in tables:
            seats = list(table.seats.select_related("entry__player"))
            stored_sheet(table, game, {s.entry: points[s.entry.player.name] for s in seats})


def test_the_organiser_sets_a_final_seats_it_and_sees_the_finalists_first(
    organiser, login_page, live_server, axe_script
):
    from django.utils import timezone
    from scoring_factories import seated_day

    from scoring.models import GameSheet, SheetState
    from tournaments.models import Day, Table

    w = seated_day(organiser=organiser)  # the two-day tournament: day 2 becomes the final
    page = login_page(organiser)
    page.goto(f"{live_server.url}/organiser/t/cup/rules/")
    page.get_by_label("A final (championship round)").select_option(
        label="The best players overall"
    )
    page.get_by_label("Players going through").fill("3")
    page.get_by_label("Tables at the final").fill("1")
    page.get_by_role("button", name="Save the rules").click()
    expect(page.get_by_role("status").first).to_contain_text("Rules saved")
    expect(page.locator('tr[data-rule="final_qualify"]')).to_contain_text(
        "The best players overall"
    )
    assert not violations(page, axe_script, AA_TAGS)

    points = {"Ann Lee": 1, "Bob Roe": 5, "Cy Doe": 3, "Di Fox": 8, "Ed Poe": 2}
    play_day(w.tables, w.day, points | {"Flo Ng": 4, "Gus Ray": 9})
    page.goto(f"{live_server.url}/organiser/t/cup/seating/2/")
    page.get_by_role("link", name="See who goes through and why").click()
    qualifiers = page.locator("#final-qualifiers")
    expect(qualifiers).to_contain_text("Ann Lee: 1st overall (6)")
    expect(qualifiers).to_contain_text("Ed Poe: 2nd overall (12)")
    expect(qualifiers).to_contain_text("Cy Doe: 3rd overall (18)")
    assert not violations(page, axe_script, AA_TAGS)
    page.get_by_role("button", name="Seat the final").click()
    expect(page.get_by_role("status").first).to_contain_text(
        "The final is seated: 3 players at 1 table."
    )
    assert not violations(page, axe_script, AA_TAGS)

    # The final's table phone saves game 1 (Cy goes out); the desk's confirmation and the
    # other games are stored as the desk tests' are.
    final = Day.objects.get(tournament=w.tournament, number=2)
    table = Table.objects.get(day=final)
    page.goto(f"{live_server.url}/table/{table.link_token}/")
    for name, score in {"Ann Lee": 9, "Ed Poe": 4, "Cy Doe": 0}.items():
        page.get_by_label(name, exact=True).fill(str(score))
    page.get_by_label("Cy Doe went out").check()
    page.get_by_role("button", name="Save game 1").click()
    expect(page.get_by_text("Game 1 is saved.")).to_be_visible()
    GameSheet.objects.filter(table=table).update(
        state=SheetState.CONFIRMED, confirmed_at=timezone.now()
    )
    play_day([table], final, {"Ann Lee": 9, "Ed Poe": 4, "Cy Doe": 1}, first_game=2)
    page.goto(f"{live_server.url}/organiser/t/cup/standings/")
    expect(page.get_by_role("status").first).to_contain_text(
        "The final first, ranked on the final's own total"
    )
    names = page.locator("#standings tbody tr td.col-name")
    expect(names.nth(0)).to_contain_text("Cy Doe")
    expect(names.nth(1)).to_contain_text("Ed Poe")
    expect(names.nth(2)).to_contain_text("Ann Lee")
    expect(names.nth(3)).to_contain_text("Flo Ng")  # best of the rest, by qualifying rank
    assert not violations(page, axe_script, AA_TAGS)
