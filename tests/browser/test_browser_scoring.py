"""The scorekeeper's phone and the desk, in headless Chromium at phone size (390 x 844)."""

import re

import pytest
from playwright.sync_api import expect
from scoring_factories import seated_day

from scoring.models import GameSheet, SheetState
from tournaments.models import StaffRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_scorekeeper_enters_a_game_on_a_phone_and_fixes_a_refusal(live_server, page):
    w = seated_day()
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Table 1")
    expect(page.get_by_role("heading", name=re.compile("Game 1"))).to_be_visible()
    expect(page.get_by_label("Engine used")).to_have_value("12")
    no_sideways_scroll(page)

    # Two players both think they went out.
    page.get_by_label("Ann Lee", exact=True).fill("0")
    page.get_by_label("Bob Roe", exact=True).fill("0")
    page.get_by_label("Cy Doe", exact=True).fill("40")
    page.get_by_label("Di Fox", exact=True).fill("7")
    page.get_by_label("Ann Lee went out").check()
    page.get_by_label("Bob Roe went out").check()
    page.get_by_role("button", name="Save game 1").click()
    two_out = "Two players went out in game 1: only one can."
    expect(page.get_by_role("alert").first).to_contain_text("Nothing was saved")
    expect(page.get_by_role("alert").first).to_contain_text(two_out)
    # ...and next to the went-out choices, where it is fixed.
    expect(page.locator(".outcome .field-error")).to_have_text(two_out)
    assert not GameSheet.objects.exists()
    no_sideways_scroll(page)

    # What was typed is still there; fix Bob and save.
    expect(page.get_by_label("Cy Doe", exact=True)).to_have_value("40")
    page.get_by_label("Bob Roe went out").uncheck()
    page.get_by_label("Bob Roe", exact=True).fill("12")
    page.get_by_role("button", name="Save game 1").click()
    expect(page.get_by_text("Game 1 is saved.")).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile("Game 2"))).to_be_visible()
    expect(page.get_by_label("Engine used")).to_have_value("11")
    expect(page.get_by_text("saved, for the desk to confirm").first).to_be_visible()
    sheet = GameSheet.objects.get()
    assert sheet.state == SheetState.ENTERED and sheet.went_out == w.entries["Ann Lee"]
    assert {
        s.entry.player.name: s.points for s in sheet.scores.select_related("entry__player")
    } == {"Ann Lee": 0, "Bob Roe": 12, "Cy Doe": 40, "Di Fox": 7}

    # Fix the provisional game from the list.
    page.get_by_role("link", name="Fix game 1").click()
    expect(page.get_by_text("You are fixing game 1")).to_be_visible()
    # Di's score is typed as the tiles left instead: 6-2 is 8 points.
    page.get_by_label("Di Fox", exact=True).fill("")
    page.locator(".player-entry", has_text="Di Fox").get_by_text(
        "Type the tiles left instead"
    ).click()
    page.get_by_label("Di Fox: tiles left (optional)").fill("6-2")
    page.get_by_role("button", name="Save game 1").click()
    expect(page.get_by_text("Game 1 is saved.")).to_be_visible()
    fixed = GameSheet.objects.get(state=SheetState.ENTERED)
    assert fixed.version == 2
    assert fixed.scores.get(entry=w.entries["Di Fox"]).points == 8


def test_desk_confirms_a_phone_entry_from_the_day_grid(live_server, page, make_user, login_page):
    w = seated_day()
    desk = make_user("desk1")
    w.tournament.staff.create(user=desk, role=StaffRole.DESK)
    # The scorekeeper's phone is another browser: the one that typed a game may not confirm it.
    phone_browser = page.context.browser.new_context(viewport=PHONE)
    phone = phone_browser.new_page()
    phone.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    for name, score in {"Ann Lee": "0", "Bob Roe": "12", "Cy Doe": "40", "Di Fox": "7"}.items():
        phone.get_by_label(name, exact=True).fill(score)
    phone.get_by_label("Ann Lee went out").check()
    phone.get_by_role("button", name="Save game 1").click()
    expect(phone.get_by_text("Game 1 is saved.")).to_be_visible()
    phone_browser.close()

    page.set_viewport_size(PHONE)
    login_page(desk)
    page.goto(f"{live_server.url}/organiser/t/{w.tournament.slug}/day/1/scores/")
    expect(page.get_by_text(re.compile(r"· 1 to confirm ·"))).to_be_visible()
    no_sideways_scroll(page)
    page.get_by_role("link", name="entered").click()
    expect(page.get_by_text("Provisional: entered from the table link")).to_be_visible()
    page.get_by_role("button", name="Confirm: it matches the card").click()
    expect(page.get_by_text("Table 1, game 1 is confirmed.")).to_be_visible()
    assert GameSheet.objects.get().confirmed_by == desk

    # The card page at phone width: the grid scrolls inside its box, not the page.
    page.get_by_role("link", name="Table 1", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Table 1 card, day 1")
    no_sideways_scroll(page)
