"""The table phone's totals (issue 24, "what a Bridgemate user expects"): a short list of each
player's total that fits a 390 px and a 320 px phone and 200% zoom without sideways scrolling,
and the card's written totals compared once every game is entered, storing nothing."""

import pytest
from playwright.sync_api import expect
from scoring_factories import seated_day, snapshot, stored_sheet
from test_browser_accessibility import (  # noqa: F401 (fixtures)
    PHONE_TAGS,
    browser_context_args,
    violations,
)
from test_browser_venue import NOT_SENT, fill_game_one

from scoring.models import SheetState

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NARROW = {"width": 320, "height": 640}
ZOOMED = {"width": 640, "height": 450}  # 1280 x 900 at 200%
LONG_NAME = "Bartholomew Fitzwilliam-Worthington"
TABLES = ((LONG_NAME, "Bob Roe", "Cy Doe", "Di Fox", "Ed Poe", "Flo Ng", "Gus Ray"),)
SIDEWAYS = "document.documentElement.scrollWidth > window.innerWidth"


def store_games(w, numbers, *, state=SheetState.CONFIRMED):
    """Each player scores 10 x their seat in every game, the first player going out."""
    names = TABLES[0]
    for n in numbers:
        points = {w.entries[name]: 10 * i for i, name in enumerate(names)}
        stored_sheet(w.tables[0], w.games[n], points, out=w.entries[names[0]], state=state)


def sizes(page, url, axe):
    """Draw ``url`` at each phone size and at 200% zoom: what scrolls sideways or breaks axe."""
    found = []
    for name, size, scale in (("390x844", PHONE, 1), ("320x640", NARROW, 1), ("200%", ZOOMED, 2)):
        context = page.context.browser.new_context(
            viewport=size, device_scale_factor=scale, bypass_csp=True
        )
        try:
            tab = context.new_page()
            tab.goto(url)
            expect(tab.locator(".totals-list li").first).to_be_visible()
            if tab.evaluate(SIDEWAYS):
                found.append(f"{name}: scrolls sideways")
            found += [f"{name}: {line}" for line in violations(tab, axe, PHONE_TAGS)]
        finally:
            context.close()
    return found


def test_the_running_totals_fit_a_phone_without_sideways_scrolling(live_server, page, axe_script):
    w = seated_day(tables=TABLES)
    store_games(w, [1, 2, 3])
    store_games(w, [4], state=SheetState.ENTERED)
    url = f"{live_server.url}/table/{w.tables[0].link_token}/"
    assert not sizes(page, url, axe_script)

    page.set_viewport_size(NARROW)
    page.goto(url)
    totals = page.locator(".running-totals")
    expect(totals).to_contain_text("Totals after game 4.")
    expect(totals).to_contain_text("Game 4: saved, for the desk to confirm.")
    rows = page.locator(".totals-list li")
    expect(rows).to_have_count(7)
    expect(rows.nth(1)).to_have_text("Bob Roe 40")
    expect(rows.nth(6)).to_have_text("Gus Ray 240")
    # The wide grid of every game waits behind its disclosure; opened, it scrolls in its own
    # box, never the page.
    grid = page.locator("table.card-view")
    expect(grid).to_be_hidden()
    page.get_by_text("Show every game").click()
    expect(grid).to_be_visible()
    assert not page.evaluate(SIDEWAYS)
    # The game waiting for the desk is one tap from the totals.
    page.locator(".running-totals").get_by_role("link", name="Fix game 4").click()
    expect(page.get_by_role("heading", name="Game 4")).to_be_visible()


def test_a_game_waiting_for_the_wifi_is_said_to_be_outside_the_totals(live_server, page, context):
    w = seated_day()
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    expect(page.locator("[data-totals-waiting]")).to_be_hidden()
    fill_game_one(page)
    context.set_offline(True)
    page.get_by_role("button", name="Save game 1").click()
    expect(page.locator(".save-bar [role=status]")).to_contain_text(NOT_SENT)
    note = page.locator("[data-totals-waiting]")
    expect(note).to_have_text("Not in these totals yet: game 1 (not sent yet).")
    expect(page.locator(".running-totals")).to_contain_text("No game is saved yet")
    context.set_offline(False)
    expect(page.get_by_text("Game 1 is saved.")).to_be_visible(timeout=30_000)
    expect(note).to_be_hidden()
    expect(page.locator(".running-totals")).to_contain_text("Totals after game 1.")


def test_the_card_totals_are_compared_on_the_phone_and_nothing_is_stored(
    live_server, page, axe_script
):
    w = seated_day(tables=TABLES)
    store_games(w, range(1, 7))
    before = snapshot()
    url = f"{live_server.url}/table/{w.tables[0].link_token}/"
    page.set_viewport_size(NARROW)
    page.goto(url)
    expect(page.get_by_text("All games at this table are entered.")).to_be_visible()
    page.get_by_label("Bob Roe's total on the card").fill("60")
    page.get_by_label("Cy Doe's total on the card").fill("130")
    page.get_by_role("button", name="Compare with the games").click()
    alert = page.locator(".card-totals [role=alert]")
    expect(alert).to_contain_text("Cy Doe's total says 130, but Cy Doe's games add up to 120.")
    expect(alert).to_contain_text("Nothing was changed.")
    expect(page.locator(".card-totals .totals-list")).to_contain_text("Bob Roe 60: matches")
    expect(page.get_by_label("Cy Doe's total on the card")).to_have_attribute(
        "aria-invalid", "true"
    )
    assert not page.evaluate(SIDEWAYS)
    assert not violations(page, axe_script, PHONE_TAGS)
    assert snapshot() == before

    # Letters or a minus sign are refused next to the box, in plain words.
    page.get_by_label("Cy Doe's total on the card").fill("-120")
    page.get_by_label("Di Fox's total on the card").fill("abc")
    page.get_by_role("button", name="Compare with the games").click()
    expect(alert).to_contain_text("Cy Doe's total cannot be negative.")
    expect(page.locator(".card-totals .field-error")).to_have_count(2)
    assert snapshot() == before

    for name, total in (("Cy Doe", 120), ("Di Fox", 180)):
        page.get_by_label(f"{name}'s total on the card").fill(str(total))
    page.get_by_role("button", name="Compare with the games").click()
    expect(page.get_by_text("Every total you typed matches the games.")).to_be_visible()
    assert snapshot() == before


def test_the_save_bar_shows_no_hidden_button_before_anything_waits(live_server, page):
    # "Enter game 2 now" is only for a game waiting for the Wi-Fi; its block style showed it
    # on every page.
    w = seated_day()
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    expect(page.get_by_role("button", name="Save game 1")).to_be_visible()
    expect(page.get_by_role("button", name="Enter game 2 now")).to_be_hidden()
