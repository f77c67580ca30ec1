"""The day itself in headless Chromium: a table on a 390 x 844 phone told why a game was marked
wrong and warned when another phone saved over it; the desk on a desktop confirming cards in one
press each and keying a card blind; the organiser asked before closing a day or renewing a link,
choosing after which game a player left and undoing it, and shown refused buttons disabled."""

import re

import pytest
from playwright.sync_api import expect
from scoring_factories import T1, T2, seated_day, typed

from scoring import services
from scoring.models import GameSheet, SheetState, Source
from tournaments.models import Entry, Seat, StaffRole
from tournaments.services.events import set_public_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def phone_enters(w, table, game, scores, out):
    services.submit_game(
        w.tables[table], w.games[game], typed(w, game, scores, out=out), 0, source=Source.TABLE_LINK
    )


def staffed_day(make_user):
    w = seated_day()
    w.desk = make_user("desk1")
    w.tournament.staff.create(user=w.desk, role=StaffRole.DESK)
    w.boss = make_user("boss")
    w.tournament.staff.create(user=w.boss, role=StaffRole.ORGANISER)
    return w


def test_a_table_is_told_why_a_game_was_marked_wrong_and_when_another_phone_saved(
    live_server, browser, page, make_user, login_page
):
    w = staffed_day(make_user)
    url = f"{live_server.url}/table/{w.tables[0].link_token}/"
    first = browser.new_context(viewport=PHONE).new_page()
    second = browser.new_context(viewport=PHONE).new_page()

    # Both phones open game 1; the first saves.
    first.goto(url)
    second.goto(url)
    for name, score in T1.items():
        first.get_by_label(name, exact=True).fill(str(score))
        second.get_by_label(name, exact=True).fill(str(score))
    first.get_by_label("Ann Lee went out").check()
    first.get_by_role("button", name="Save game 1").click()
    expect(first.get_by_text("Game 1 is saved.")).to_be_visible()

    # The second phone typed Bob as 21 and saves over numbers it has not seen.
    second.get_by_label("Bob Roe", exact=True).fill("21")
    second.get_by_label("Ann Lee went out").check()
    second.get_by_role("button", name="Save game 1").click()
    box = second.locator(".conflict")
    expect(box).to_contain_text("here is what it says now")
    expect(box.locator("tr.differs", has_text="Bob Roe")).to_contain_text("12")
    expect(box.locator("tr.differs", has_text="Bob Roe")).to_contain_text("21")
    expect(box.locator("tr.differs")).to_have_count(1)
    no_sideways_scroll(second)
    assert GameSheet.objects.get().version == 1
    second.get_by_role("button", name="Save my numbers instead").click()
    expect(second.get_by_text("Game 1 is saved.")).to_be_visible()
    assert GameSheet.objects.get(state=SheetState.ENTERED).version == 2

    # The first phone is told on its next load who changed it.
    first.goto(url)
    expect(
        first.get_by_text(
            "Game 1 was changed after you saved it: by another phone on the table 1 link"
        )
    ).to_be_visible()

    # The desk, at its desktop, marks it wrong and ticks Bob's number as the one in question.
    login_page(w.desk)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/organiser/t/{w.tournament.slug}/day/1/table/1/game/1/review/")
    page.get_by_label("Bob Roe").check()
    page.get_by_label("What is wrong (optional)").fill("Bob has 12 on the card")
    page.get_by_role("button", name="Wrong: the table must enter it again").click()
    expect(page.get_by_text("Table 1, game 1 is marked wrong.")).to_be_visible()
    first.goto(url)
    note = first.locator(".wrong-note")
    expect(note).to_contain_text("The desk marked game 1 wrong")
    expect(note).to_contain_text("Bob has 12 on the card")
    expect(note.locator("li.disputed")).to_have_text(re.compile(r"Bob Roe: 21\s+check this"))
    expect(first.locator(".player-entry.disputed")).to_have_count(1)
    expect(first.get_by_label("Cy Doe", exact=True)).to_have_value("40")  # kept: fix one number
    no_sideways_scroll(first)
    first.get_by_label("Bob Roe", exact=True).fill("12")
    first.get_by_role("button", name="Save game 1").click()
    expect(first.get_by_text("Game 1 is saved.")).to_be_visible()
    live = GameSheet.objects.get(state=SheetState.ENTERED)
    assert live.scores.get(entry=w.entries["Bob Roe"]).points == 12


def test_the_desk_confirms_cards_in_one_press_and_keys_a_card_blind(
    live_server, page, make_user, login_page
):
    w = staffed_day(make_user)
    phone_enters(w, 0, 1, T1, "Ann Lee")
    phone_enters(w, 0, 2, {"Ann Lee": 9, "Bob Roe": 0, "Cy Doe": 4, "Di Fox": 16}, "Bob Roe")
    phone_enters(w, 1, 1, T2, "Flo Ng")
    login_page(w.desk)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/organiser/t/{w.tournament.slug}/day/1/scores/")
    expect(page.get_by_text(re.compile(r"· 3 to confirm ·"))).to_be_visible()
    page.get_by_role("link", name="Check 2 games").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check table 1's card, day 1")
    expect(page.get_by_label("Game 1 matches the card")).to_be_checked()
    page.get_by_role("button", name="Confirm and next table").click()
    expect(page.get_by_text("Table 1: games 1, 2 confirmed.")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check table 2's card, day 1")
    # Table 2's paper card differs: untick it and key it blind instead.
    page.get_by_label("Game 1 matches the card").uncheck()
    page.get_by_role("link", name="Key the card blind instead").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Table 2 card, day 1")
    # The engine is prefilled with the expected double, not shown from the table's entry.
    engine = page.get_by_label("Engine in game 1")
    expect(engine).to_have_value("12")
    expect(page.get_by_label("Engine in game 2")).to_have_value("11")
    # Keyboard alone: from the engine, Tab goes down the players of the game.
    engine.focus()
    for value in ("5", "0", "31"):
        page.keyboard.press("Tab")
        page.keyboard.type(value)
    page.keyboard.press("Tab")
    expect(page.get_by_label("Who went out in game 1")).to_be_focused()
    page.get_by_label("Who went out in game 1").select_option(label="Flo Ng")
    page.get_by_role("button", name="Save the card").click()
    differs = page.locator(".card-differs")
    expect(differs).to_contain_text("disagree in game 1: it is not saved yet")
    expect(differs.locator("tr", has_text="Gus Ray")).to_contain_text("33")
    expect(differs.locator("tr", has_text="Gus Ray")).to_contain_text("31")
    assert GameSheet.objects.get(table=w.tables[1]).state == SheetState.ENTERED
    page.get_by_role("button", name=re.compile("The paper card is right")).click()
    expect(page.get_by_text(re.compile("Table 2 saved: game 1 confirmed"))).to_be_visible()
    # The desk's numbers are stored; the table's entry is kept in the history, superseded.
    assert set(GameSheet.objects.values_list("state", flat=True)) == {
        SheetState.CONFIRMED,
        SheetState.SUPERSEDED,
    }
    kept = GameSheet.objects.get(table=w.tables[1], state=SheetState.SUPERSEDED)
    assert kept.scores.get(entry__player__name="Gus Ray").points == 33


def test_the_organiser_is_asked_first_and_refused_actions_look_refused(
    live_server, page, make_user, login_page
):
    w = staffed_day(make_user)
    phone_enters(w, 0, 1, T1, "Ann Lee")
    login_page(w.boss)
    page.set_viewport_size(DESKTOP)
    base = f"{live_server.url}/organiser/t/{w.tournament.slug}"

    # Close day asks, and says what it will do.
    page.goto(f"{base}/day/1/scores/")
    page.get_by_role("link", name="Close day 1…").click()
    expect(page.get_by_text("Every table link of day 1 stops working at once.")).to_be_visible()
    expect(page.get_by_text("11 games are not entered yet.")).to_be_visible()
    expect(page.get_by_text("1 game entered by the tables is not confirmed yet.")).to_be_visible()
    page.get_by_role("link", name="No, keep it open").click()
    w.day.refresh_from_db()
    assert w.day.closed_at is None

    # New link asks, and says the old one stops at once.
    old_token = w.tables[0].link_token
    page.goto(f"{base}/day/1/table-links/")
    page.get_by_role("link", name="New link for table 1…").click()
    expect(page.get_by_text("The old link of table 1 stops working at once.")).to_be_visible()
    page.get_by_role("button", name="Yes, give table 1 a new link").click()
    expect(page.get_by_text("Table 1 has a new link")).to_be_visible()
    w.tables[0].refresh_from_db()
    assert w.tables[0].link_token != old_token

    # Play has started: adding and importing are shown refused, with the reason.
    page.goto(f"{base}/players/")
    expect(page.get_by_role("button", name="Add a player")).to_be_disabled()
    expect(page.get_by_role("button", name="Import a spreadsheet")).to_be_disabled()
    expect(page.get_by_text("Day 1 already has scores: nobody joins")).to_be_visible()
    page.goto(f"{base}/check-in/")
    expect(page.get_by_role("button", name="Undo check-in of Ann Lee")).to_be_disabled()

    # Withdraw Di after game 2 (the table entered only game 1: the paper card has game 2).
    di = w.entries["Di Fox"]
    page.goto(f"{base}/players/{di.number}/withdraw/")
    choice = page.get_by_label("They left after game")
    expect(choice).to_have_value("1")
    expect(page.get_by_text("Table 1 has entered up to game 1.")).to_be_visible()
    choice.select_option("2")
    page.get_by_role("button", name="Withdraw Di Fox").click()
    expect(page.get_by_text("Di Fox is withdrawn.")).to_be_visible()
    assert Seat.objects.get(entry=di).left_after_game == 2

    # Undo, while table 1 has entered nothing after game 2.
    page.goto(f"{base}/players/{di.number}/")
    page.get_by_role("button", name="Undo the withdrawal").click()
    expect(page.get_by_text("Di Fox is entered again.")).to_be_visible()
    assert Seat.objects.get(entry=di).left_after_game is None
    assert Entry.objects.get(pk=di.pk).status == Entry.CHECKED_IN


def test_names_are_found_however_they_are_typed_and_an_untouched_workbook_confirms_nothing(
    live_server, page, make_user, login_page, tmp_path
):
    w = seated_day(tables=(("José Díaz", "Pat O'Neil", "Cy Doe"), ("Ed Poe", "Flo Ng", "Gus Ray")))
    w.desk = make_user("desk1")
    w.tournament.staff.create(user=w.desk, role=StaffRole.DESK)
    scores = {"José Díaz": 0, "Pat O'Neil": 12, "Cy Doe": 40}
    phone_enters(w, 0, 1, scores, "José Díaz")

    # A player on a phone finds their table typing without the accent or the apostrophe.
    set_public_pages(w.tournament, True)  # a new event's public pages start off
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{w.tournament.slug}/find-your-table/")
    page.get_by_label("Your name, or part of it").fill("o’neil")
    page.get_by_role("button", name="Find my table").click()
    expect(page.locator(".find-name")).to_have_text(["Pat O'Neil"])
    expect(page.locator(".find-table-number")).to_have_text("Table 1")
    no_sideways_scroll(page)

    # The desk's check-in list filters as typed, by the same rule.
    login_page(w.desk)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/organiser/t/{w.tournament.slug}/check-in/")
    page.get_by_label("Find a name").fill("jose")
    expect(page.locator("#checkin-list li:visible")).to_have_count(1)
    expect(page.locator("#checkin-list li:visible")).to_contain_text("José Díaz")
    page.get_by_label("Find a name").fill("O’NEIL")
    expect(page.locator("#checkin-list li:visible")).to_contain_text("Pat O'Neil")

    # The workbook comes with the table's entry blank; sent back untouched it confirms nothing.
    page.goto(f"{live_server.url}/organiser/t/{w.tournament.slug}/day/1/scores/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download score workbook").click()
    path = tmp_path / "day1.xlsx"
    download.value.save_as(path)
    page.get_by_role("link", name="Upload score workbook").click()
    page.get_by_label("Score workbook (.xlsx)").set_input_files(str(path))
    page.get_by_role("button", name="Upload").click()
    expect(page.get_by_text("0 games keyed in and confirmed")).to_be_visible()
    expect(page.get_by_text("0 confirmed: the card keyed matched")).to_be_visible()
    assert GameSheet.objects.get().state == SheetState.ENTERED
