"""Zoom and large text (WCAG 1.4.10 reflow): no page scrolls sideways at 320 css px wide, or at
1280 px with the browser zoomed to 200% (640 css px, each drawn twice as large), and on the
table page a player's name is never broken inside a word."""

from __future__ import annotations

import pytest
from scoring_factories import seated_day, staff
from test_browser_accessibility import demo_event, in_a_season  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 320, "height": 640}
ZOOMED = {"width": 640, "height": 450}  # 1280 x 900 at 200%

OVERFLOW = (
    "(() => { const e = document.scrollingElement; return [e.scrollWidth, e.clientWidth]; })()"
)
# Every word of a name fits its box: a name's box is at least as wide as its longest word.
BROKEN_NAMES = """() => [...document.querySelectorAll('.player-name')].filter(el => {
    const words = el.textContent.trim().split(/\\s+/);
    const probe = document.createElement('span');
    probe.style.whiteSpace = 'nowrap';
    el.appendChild(probe);
    let widest = 0;
    for (const w of words) { probe.textContent = w; widest = Math.max(widest, probe.offsetWidth); }
    el.removeChild(probe);
    return el.clientWidth > 0 && el.clientWidth + 1 < widest;
}).map(el => el.textContent.trim())"""


def public_and_phone_pages(tournament) -> list[tuple[str, str]]:
    slug = tournament.slug
    a_player = in_a_season(tournament, public=True)
    open_day = seated_day(slug="open-cup")
    return [
        ("public home", "/"),
        ("public tournament", f"/t/{slug}/"),
        ("public standings", f"/t/{slug}/standings/"),
        ("find your table", f"/t/{slug}/find-your-table/"),
        ("find your table, found", f"/t/{slug}/find-your-table/?q=jensen"),
        ("player page", f"/t/{slug}/player/2/"),
        ("table page", f"/table/{open_day.tables[0].link_token}/"),
        ("enter your table code", "/table/"),
        ("login", "/accounts/login/"),
        ("season standings", "/season/club-season/"),
        ("a player's season", f"/season/club-season/player/{a_player}/"),
    ]


def sideways(page, base, pages, size, scale) -> list[str]:
    context = page.context.browser.new_context(viewport=size, device_scale_factor=scale)
    context.add_cookies(page.context.cookies())  # a login the test made holds here too
    found = []
    try:
        tab = context.new_page()
        for name, path in pages:
            tab.goto(base + path)
            scroll, client = tab.evaluate(OVERFLOW)
            if scroll > client:
                found.append(f"{name} ({path}): {scroll} px wide in {client}")
            if name == "table page":
                found += [f"{name}: name broken mid-word: {n}" for n in tab.evaluate(BROKEN_NAMES)]
    finally:
        context.close()
    return found


def test_no_public_or_phone_page_scrolls_sideways_at_320_px_or_200_percent(
    live_server,
    page,
    demo_event,  # noqa: F811 (the fixture imported above)
):
    tournament, _ = demo_event
    pages = public_and_phone_pages(tournament)
    found = sideways(page, live_server.url, pages, NARROW, 1)
    found += [f"at 200%: {line}" for line in sideways(page, live_server.url, pages, ZOOMED, 2)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("zoom", [150, 200])
def test_the_table_page_reflows_on_a_zoomed_phone(live_server, page, zoom):
    """A 390 px phone zoomed to 150% or 200% (260 or 195 css px): each name sits whole above
    its score box and toggle, nothing scrolls sideways, and the header gives up its room."""
    w = seated_day(tables=(("Annabelle Fitzgerald", "Bob Roe", "Cy Doe", "Di Fox"),))
    page.set_viewport_size({"width": 390 * 100 // zoom, "height": 844 * 100 // zoom})
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    scroll, client = page.evaluate(OVERFLOW)
    assert scroll <= client
    assert page.evaluate(BROKEN_NAMES) == []
    name = page.locator("label.player-name").first.bounding_box()
    score = page.get_by_label("Annabelle Fitzgerald", exact=True).bounding_box()
    assert name["width"] >= 100 and name["x"] + name["width"] <= client
    assert score["x"] + score["width"] <= client
    assert page.locator(".site-header").bounding_box()["height"] <= 32
    # The same page with the phone's text made twice as large (its font-size setting).
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    scroll, client = page.evaluate(OVERFLOW)
    assert scroll <= client and page.evaluate(BROKEN_NAMES) == []


def test_the_staff_page_does_not_scroll_sideways_at_320_px_or_200_percent(
    live_server, page, organiser, login_page
):
    """The organiser adds desk logins from a phone as often as from the laptop."""
    from tournaments.models import StaffRole

    w = seated_day(organiser=organiser)
    staff(w.tournament, "desk-volunteer-with-a-long-name")
    staff(w.tournament, "second-organiser", StaffRole.ORGANISER)
    login_page(organiser)
    pages = [("staff", f"/organiser/t/{w.tournament.slug}/staff/")]
    found = sideways(page, live_server.url, pages, NARROW, 1)
    found += [f"at 200%: {line}" for line in sideways(page, live_server.url, pages, ZOOMED, 2)]
    assert not found, "\n".join(found)
