"""End to end in Chromium: create an event on the web, change its rules (an impossible one
first), seat it, and read the new schedule and hand sizes on the phone page and the sheets."""

import io

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

pytestmark = pytest.mark.browser

NAMES = ["Ann Lee", "Bob Roe", "Cy Doe", "Di Fox", "Ed Poe", "Flo Ng", "Gus Ray", "Hal Ito"]


def test_create_an_event_change_its_rules_seat_it_and_print(
    transactional_db, organiser, login_page, live_server, quick_seating
):
    from scoring_factories import register, snapshot

    from scoring.models import Game
    from tournaments.models import Day, RuleSet, Table, Tournament

    page = login_page(organiser)
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Name", exact=True).fill("Lakeside Rally")
    page.get_by_label("Venue").fill("Lakeside RV Park")
    page.get_by_label("Rules to start from").select_option("good-sam")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_role("heading", name="Rules", exact=True)).to_be_visible()
    expect(page.locator('tr[data-rule="games_per_day"]')).to_contain_text(
        "our assumption: the rule sheet does not say"
    )
    expect(page.locator('tr[data-rule="first_engine"]')).to_contain_text(
        "from the organisers' rule sheet"
    )

    # An impossible hand chart: refused beside its field, nothing stored.
    before = snapshot(Tournament, RuleSet, Day, Game)
    page.get_by_label("Games a day").fill("8")
    page.get_by_label("Hand sizes").fill("2-4: 12")
    page.get_by_role("button", name="Save the rules").click()
    expect(page.locator(".field.has-error")).to_contain_text("Tables of 5 have no hand size")
    assert snapshot(Tournament, RuleSet, Day, Game) == before
    # The page opens on a summary at the top, with the keyboard's focus on it, and its link
    # leads to the field.
    summary = page.get_by_role("alert").filter(has_text="The rules were not saved")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("The rules were not saved: 2 problems")
    page.keyboard.press("Tab")
    expect(summary.get_by_role("link", name="Hand sizes: Tables of 5")).to_be_focused()
    page.keyboard.press("Enter")
    assert page.url.endswith("#id_hand_sizes")
    expect(page.get_by_label("Hand sizes")).to_be_in_viewport()

    page.get_by_label("Hand sizes").fill("2-4: 13, 5-6: 11")
    page.get_by_role("button", name="Save the rules").click()
    expect(page.get_by_role("status").first).to_contain_text("Rules saved")
    expect(page.locator('tr[data-rule="games_per_day"]')).to_contain_text("set for this event")

    # Players entered, then the day seated from the seating page.
    tournament = Tournament.objects.get(slug="lakeside-rally")
    register(tournament, *NAMES)
    page.get_by_role("link", name="Seating").click()
    page.get_by_role("link", name="Day 1").first.click()
    page.get_by_role("button", name="Seat day 1").click()
    expect(page.get_by_role("status").first).to_contain_text("Day 1 is seated at 2 tables")

    # The schedule follows the rules: 8 games from double 9 down to double 2.
    day = Day.objects.get(tournament=tournament, number=1)
    engines = list(Game.objects.filter(day=day).values_list("scheduled_engine", flat=True))
    assert engines == [9, 8, 7, 6, 5, 4, 3, 2]

    # The phone page: the hand size and the games to play.
    table = Table.objects.filter(day=day).order_by("number").first()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/table/{table.link_token}/")
    expect(page.get_by_text("each player draws 13 tiles")).to_be_visible()
    expect(page.get_by_role("heading", name="Game 1")).to_contain_text("engine double 9")
    expect(page.locator("table.card-view tbody tr")).to_have_count(8)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # The printed sheets.
    response = page.request.get(
        f"{live_server.url}/organiser/t/lakeside-rally/day/1/score-sheets.pdf"
    )
    text = " ".join(PdfReader(io.BytesIO(response.body())).pages[0].extract_text().split())
    assert "4 players: each draws 13 tiles." in text
    assert "2-2" in text and "1-1" not in text and "10-10" not in text


def test_the_desk_marks_a_game_not_played_and_every_page_shows_it(
    transactional_db, login_page, live_server, make_user
):
    from scoring_factories import seated_day, snapshot

    from scoring.models import GameSheet, UnplayedChange, UnplayedGame
    from tournaments.models import StaffRole

    w = seated_day()
    desk = make_user("desk1")
    StaffRole.objects.create(tournament=w.tournament, user=desk, role=StaffRole.DESK)
    page = login_page(desk)
    page.goto(f"{live_server.url}/organiser/t/cup/day/1/table/1/card/")

    # Without a reason nothing is marked.
    before = snapshot(GameSheet, UnplayedGame)
    page.get_by_label("Game", exact=True).select_option("6")
    page.get_by_role("button", name="Mark not played").click()
    assert snapshot(GameSheet, UnplayedGame) == before

    page.get_by_label("Game", exact=True).select_option("6")
    page.get_by_label("Why it was not played").fill("time ran out")
    page.get_by_role("button", name="Mark not played").click()
    expect(page.get_by_role("status").first).to_contain_text(
        "Game 6 at table 1 is marked not played."
    )
    expect(page.get_by_text("Game 6: not played time ran out")).to_be_visible()

    page.goto(f"{live_server.url}/organiser/t/cup/day/1/scores/")
    expect(page.locator(".day-grid .cell-not_played")).to_have_count(1)

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    expect(page.locator("table.card-view tbody tr").nth(5)).to_contain_text("not played")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # They played it after all: the desk takes the mark back, on a phone, saying why.
    page.goto(f"{live_server.url}/organiser/t/cup/day/1/table/1/card/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    undo = page.get_by_role("button", name="Game 6 was played after all: take the mark back")
    undo.click()  # no reason: the browser asks for one, and nothing is sent
    assert UnplayedGame.objects.count() == 1
    page.get_by_label("Why take the mark of game 6 back").fill("they played it after all")
    undo.click()
    expect(page.get_by_role("status").first).to_contain_text(
        "Game 6 at table 1 can be entered again."
    )
    assert not UnplayedGame.objects.exists()
    assert list(UnplayedChange.objects.values_list("action", "reason")) == [
        ("marked", "time ran out"),
        ("undone", "they played it after all"),
    ]


def test_a_club_session_seats_a_late_player_and_a_substitute_from_the_seating_page(
    transactional_db, organiser, login_page, live_server
):
    from scoring_factories import seated_day, stored_sheet

    w = seated_day(preset="club-session")
    for table in w.tables:
        for number in (1, 2):
            seats = list(table.seats.order_by("position"))
            points = {s.entry: 0 if i == 0 else 9 for i, s in enumerate(seats)}
            stored_sheet(table, w.games[number], points, out=seats[0].entry)
    page = login_page(organiser)

    # The walk-in is entered on the players page mid-day: "Add a player" is open.
    page.goto(f"{live_server.url}/organiser/t/cup/players/")
    page.get_by_role("link", name="Add a player").click()
    page.get_by_role("textbox", name="Name", exact=True).fill("Lou Late")
    page.get_by_role("button", name="Add new player").click()
    expect(page.get_by_role("status").first).to_contain_text("Lou Late is entered as player #8.")

    # The seating page shows where they would go, and how their games count, before seating.
    page.goto(f"{live_server.url}/organiser/t/cup/seating/1/")
    expect(page.locator("#tables-fixed")).to_contain_text("let a late player")
    plan = page.locator(".late-plan")
    expect(plan).to_contain_text("table 2 (a table with a free seat, fewest players first)")
    expect(plan).to_contain_text("from game 3: 4 players there, each draws 12 tiles")
    expect(plan).to_contain_text("over 10 games, not 12")
    page.get_by_label("Late player").select_option(label="Lou Late (#8)")
    page.get_by_role("button", name="Seat at table 2 from game 3").click()
    expect(page.get_by_role("status").first).to_contain_text("Lou Late joins table 2 from game 3.")
