"""The phone page that knows the table, in headless Chromium at phone size (390 x 844): what it
infers, the "please check" step, and the engine picker after a fallback game."""

import re

import pytest
from playwright.sync_api import expect
from scoring_factories import T1, seated_day, typed

from scoring import services
from scoring.models import GameSheet, Source

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SEVEN = ("Ann Lee", "Bob Roe", "Cy Doe", "Di Fox", "Ed Poe", "Flo Ng", "Gus Ray")


def points(sheet):
    return {s.entry.player.name: s.points for s in sheet.scores.select_related("entry__player")}


def test_seven_players_infer_going_out_and_confirm_a_likely_typo(live_server, page):
    w = seated_day(tables=(SEVEN,))
    page.set_viewport_size(PHONE)
    url = f"{live_server.url}/table/{w.tables[0].link_token}/"
    page.goto(url)
    save = page.get_by_role("button", name="Save game 1")
    # Save is in view from the top of the page, and the whole form fits in two screens.
    expect(save).to_be_in_viewport()
    form = page.locator("form.entry-form").bounding_box()
    assert form["y"] + form["height"] <= 2 * PHONE["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for name in SEVEN:
        expect(page.get_by_label(name, exact=True)).to_have_attribute("inputmode", "numeric")
    expect(page.locator("details.tiles[open]")).to_have_count(0)  # tiles stay behind it

    # A 0 with the double blank worth 50 can only be going out: the toggle says so.
    page.get_by_label("Ann Lee", exact=True).fill("0")
    expect(page.get_by_label("Ann Lee went out")).to_be_checked()
    scores = {"Bob Roe": "12", "Cy Doe": "300", "Di Fox": "7", "Ed Poe": "20"}
    scores.update({"Flo Ng": "9", "Gus Ray": "31"})
    for name, value in scores.items():
        page.get_by_label(name, exact=True).fill(value)
    page.get_by_label("Cy Doe", exact=True).scroll_into_view_if_needed()
    expect(save).to_be_in_viewport()  # still in view with the last players scrolled to
    save.click()

    # Likely typo: asked, next to the field, nothing saved, what was typed kept.
    expect(page.get_by_text("Please check before saving.")).to_be_visible()
    cy = page.locator(".player-entry", has_text="Cy Doe")
    expect(cy.locator(".field-warning")).to_contain_text("Please check Cy Doe's score of 300")
    expect(page.get_by_label("Cy Doe", exact=True)).to_have_value("300")
    expect(page.get_by_label("Ann Lee went out")).to_be_checked()
    assert not GameSheet.objects.exists()
    assert "?game=1" in page.url  # the refused save was redirected to a page of its own

    # Going back after the failed save is a plain page, not "confirm form resubmission".
    response = page.go_back()
    assert response is not None and response.status == 200 and page.url == url
    expect(page.get_by_role("heading", name=re.compile("Game 1"))).to_be_visible()
    page.go_forward()
    # The big button is the safe one: it goes back to the number and changes nothing.
    fix = page.get_by_role("link", name="No, let me fix it")
    yes = page.get_by_role("button", name="Yes, it is right: save game 1")
    expect(fix).to_be_in_viewport()
    assert fix.bounding_box()["height"] > yes.bounding_box()["height"]
    assert page.evaluate("document.querySelector('.save-bar .big').textContent").strip() == (
        "No, let me fix it"
    )
    fix.click()
    expect(page.get_by_label("Cy Doe", exact=True)).to_be_in_viewport()
    expect(page.get_by_label("Cy Doe", exact=True)).to_have_value("300")
    assert not GameSheet.objects.exists()
    confirm = page.get_by_role("button", name="Yes, it is right: save game 1")
    expect(confirm).to_be_in_viewport()
    confirm.click()
    expect(page.get_by_text("Game 1 is saved.")).to_be_visible()
    sheet = GameSheet.objects.get()
    assert sheet.went_out == w.entries["Ann Lee"]
    assert points(sheet) == {"Ann Lee": 0, **{n: int(v) for n, v in scores.items()}}


def test_went_out_fills_the_zero_and_an_ambiguous_zero_is_asked(live_server, page):
    w = seated_day(slug="sam", preset="good-sam")  # the double blank counts 0
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    page.get_by_label("Bob Roe", exact=True).fill("0")
    question = page.locator(".player-entry", has_text="Bob Roe").locator(".zero-question")
    expect(question).to_contain_text("Did Bob Roe go out?")
    expect(page.get_by_label("Bob Roe went out")).not_to_be_checked()
    # Ann went out: tapping the toggle fills her 0; Bob held just the double blank.
    page.get_by_label("Ann Lee went out").check()
    expect(page.get_by_label("Ann Lee", exact=True)).to_have_value("0")
    expect(question).to_be_hidden()
    page.get_by_label("Cy Doe", exact=True).fill("40")
    page.get_by_label("Di Fox", exact=True).fill("7")
    page.get_by_role("button", name="Save game 1").click()
    expect(page.get_by_text("Game 1 is saved.")).to_be_visible()
    sheet = GameSheet.objects.get()
    assert sheet.went_out == w.entries["Ann Lee"]
    assert points(sheet) == {"Ann Lee": 0, "Bob Roe": 0, "Cy Doe": 40, "Di Fox": 7}


def test_the_engine_picker_after_a_fallback_game(live_server, page):
    w = seated_day()
    for game, engine in ((1, 12), (2, 11), (3, 9)):  # nobody held the 10 in game 3
        services.submit_game(
            w.tables[0],
            w.games[game],
            typed(w, game, T1, out="Ann Lee", engine=engine),
            0,
            source=Source.TABLE_LINK,
        )
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    expect(page.get_by_role("heading", name=re.compile("Game 4"))).to_have_text(
        re.compile(r"engine double 10")
    )
    engine = page.get_by_label("Engine used")
    expect(engine).to_have_value("10")
    options = engine.locator("option").all_inner_texts()
    assert options == ["Double 10 (expected)", "Double 8", "Double 7"]
    for name, value in {"Ann Lee": "0", "Bob Roe": "5", "Cy Doe": "6", "Di Fox": "8"}.items():
        page.get_by_label(name, exact=True).fill(value)
    page.get_by_role("button", name="Save game 4").click()
    expect(page.get_by_text("Game 4 is saved.")).to_be_visible()
    assert GameSheet.objects.get(game=w.games[4]).engine_used == 10
    # Game 5 then names the next double not used at this table: 8.
    expect(page.get_by_label("Engine used")).to_have_value("8")
    expect(page.get_by_role("heading", name=re.compile("Game 5"))).to_have_text(
        re.compile(r"engine double 8")
    )
