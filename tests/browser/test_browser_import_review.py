"""The import's "same person?" review (issue 25), as an organiser answers it at the desk or on a
phone: the rows beside who is on file, one answer a row or one for all, nothing stored until
answered."""

import pytest
from playwright.sync_api import expect
from scoring_factories import csv_bytes
from test_browser_accessibility import AA_TAGS, violations
from test_browser_scoring import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def browser_context_args(browser_context_args):
    """As the accessibility tests: the policy set aside for axe-core's own script alone."""
    return {**browser_context_args, "bypass_csp": True}


def april_after_march(organiser):
    from tournaments.services.events import create_tournament
    from tournaments.services.registration import register_player

    march = create_tournament(
        slug="march", name="March rally", preset_key="tournament", organiser=organiser
    )
    register_player(march, name="Bob Ray", club="Sun Lakes", user=organiser)
    register_player(march, name="Ana Núñez", club="Sun Lakes", user=organiser)
    return create_tournament(
        slug="april", name="April rally", preset_key="tournament", organiser=organiser
    )


def upload(page, live_server, event, tmp_path):
    path = tmp_path / "april.csv"
    path.write_bytes(
        csv_bytes(
            [
                ["First Name", "Last Name", "Club"],
                ["Bob", "Ray", "Good Sams"],
                ["Ana", "Nunez", "Desert Rats"],
                ["Cy", "Young", ""],
            ]
        )
    )
    page.goto(f"{live_server.url}/organiser/t/{event.slug}/players/import/")
    page.get_by_label("Player list (.xlsx or .csv)").set_input_files(str(path))
    page.get_by_role("button", name="Import").click()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_answer_same_person_row_by_row(
    live_server, login_page, organiser, axe_script, size, tmp_path
):
    from tournaments.models import Entry, Player

    april = april_after_march(organiser)
    page = login_page(organiser)
    page.set_viewport_size(size)
    upload(page, live_server, april, tmp_path)

    expect(page.get_by_role("heading", name="Same person?")).to_be_visible()
    bob = page.get_by_role("group", name="Row 2: same name, other club")
    expect(bob).to_contain_text("Bob Ray · Good Sams")
    expect(bob).to_contain_text("Bob Ray · Sun Lakes")
    expect(bob).to_contain_text("last in March rally as #1")
    assert not Entry.objects.filter(tournament=april).exists()
    assert not violations(page, axe_script, AA_TAGS)
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    for label in page.locator("label.answer").all():
        box = label.bounding_box()
        assert box is not None and box["height"] >= 44

    # One row answered, one forgotten: the page says which, and stores nothing.
    bob.get_by_label("Same person").check()
    page.get_by_role("button", name="Import with these answers").click()
    expect(page.get_by_role("alert").first).to_contain_text("still to answer: 3")
    ana = page.get_by_role("group", name="Row 3: same name, other club")
    expect(ana).to_contain_text("Say whether this is the same person.")
    expect(
        page.get_by_role("group", name="Row 2: same name, other club").get_by_label("Same person")
    ).to_be_checked()  # the answer given is kept
    assert not violations(page, axe_script, AA_TAGS)
    assert not Entry.objects.filter(tournament=april).exists()

    ana.get_by_label("Someone new").check()
    page.get_by_role("button", name="Import with these answers").click()
    expect(page.get_by_role("status")).to_contain_text(
        "Imported 3 players (1 already in the club directory)."
    )
    assert Player.objects.filter(name="Bob Ray").count() == 1
    assert Player.objects.get(name="Bob Ray").club == "Good Sams"
    assert Player.objects.filter(name__in=["Ana Núñez", "Ana Nunez"]).count() == 2


def test_one_answer_for_all(live_server, login_page, organiser, tmp_path):
    from tournaments.models import Player

    april = april_after_march(organiser)
    page = login_page(organiser)
    page.set_viewport_size(PHONE)
    upload(page, live_server, april, tmp_path)
    page.get_by_role("button", name="All are the same person").click()
    expect(page.get_by_role("status")).to_contain_text("(2 already in the club directory)")
    assert Player.objects.count() == 3
