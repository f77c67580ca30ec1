"""One form of date ("14 March 2026") and one of date with time ("14 March 2026, 14:27") on
every page, printout and workbook that shows one: never "March 14, 2026", "Dec. 1, 2026,
2:23 p.m." or a weekday and a time with no date ("Tue 14:27")."""

import datetime
import io
import re

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from core.formats import date_and_time, long_date
from scoring.models import AuditEvent
from standings.pdf import render_standings_pdf
from standings.read import standings
from standings.seasons.read import season_standings
from standings.seasons.report import render_season_pdf, season_workbook
from standings.xlsx import standings_workbook
from tournaments.models import StandingsSettingChange
from tournaments.services.seasons import add_events, create_season

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
# 18:27 UTC is 14:27 in New York (the project's time zone) on 14 March 2026.
AT = datetime.datetime(2026, 3, 14, 18, 27, tzinfo=UTC)
DATE = "14 March 2026"
DATE_TIME = "14 March 2026, 14:27"
# Any other form: month first, an abbreviated month, a.m./p.m., a weekday before a bare time.
MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
OTHER_FORMS = re.compile(
    rf"\b({MONTHS}) \d{{1,2}}, \d{{4}}"
    r"|\b(Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\. \d"
    r"|\d (a\.m\.|p\.m\.)|\bnoon\b|\bmidnight\b"
    r"|\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2}:\d\d"
)


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages)


def one_form(text: str) -> str:
    assert not OTHER_FORMS.search(text), OTHER_FORMS.search(text).group(0)
    return text


def test_the_one_form_is_set_in_one_place():
    assert long_date(AT.date()) == DATE
    assert date_and_time(AT) == DATE_TIME


@pytest.fixture
def dated(demo_tournament):
    demo_tournament.start_date = AT.date()
    demo_tournament.save()
    day = demo_tournament.days.get(number=1)
    day.date = AT.date()
    day.seated_at = AT
    day.save()
    table = day.tables.get(number=1)
    AuditEvent.objects.filter(sheet__table=table).update(at=AT)
    return demo_tournament


def test_pages_show_one_form(organiser_client, dated):
    slug = dated.slug
    pages = {
        "event list": "/organiser/",
        "public event list": "/",
        "overview": f"/organiser/t/{slug}/",
        "public event": f"/t/{slug}/",
        "seating": f"/organiser/t/{slug}/seating/1/",
        "history": f"/organiser/t/{slug}/day/1/table/1/history/",
    }
    for name, url in pages.items():
        response = organiser_client.get(url)
        assert response.status_code == 200, name
        page = one_form(response.content.decode())
        expected = DATE_TIME if name in ("seating", "history") else DATE
        assert expected in page, name
    history = organiser_client.get(pages["history"]).content.decode()
    assert f"<td>{DATE_TIME}</td>" in history  # never "Sat 14:27"


def test_clearing_a_seated_day_says_when_its_charts_were_printed(organiser_client, organiser):
    from scoring_factories import seated_day

    w = seated_day(organiser=organiser)
    w.day.charts_printed_at = AT  # not today: its date is shown
    w.day.save()
    asked = organiser_client.post(f"/organiser/t/{w.tournament.slug}/seating/1/clear/")
    assert f"printed at {DATE_TIME}" in one_form(asked.content.decode())


def test_rules_history_shows_one_form(organiser_client, dated):
    change = StandingsSettingChange.objects.create(
        tournament=dated, setting="tie_breaks", before=[], after=[], changed_by_label="boss"
    )
    StandingsSettingChange.objects.filter(pk=change.pk).update(changed_at=AT)
    page = organiser_client.get(f"/organiser/t/{dated.slug}/rules/").content.decode()
    assert DATE_TIME in one_form(page)


def test_printouts_and_workbooks_show_one_form(dated):
    result = standings(dated)
    printed = one_form(pdf_text(render_standings_pdf(result, printed_at=AT)))
    assert DATE in printed and f"printed {DATE_TIME}" in printed

    rules = load_workbook(io.BytesIO(standings_workbook(result)))["Rules"]
    values = {row[0]: row[1] for row in rules.iter_rows(values_only=True)}
    assert values["Start date"] == DATE

    season = create_season(slug="club", name="Club")
    add_events(season, [dated.slug])
    season_result = season_standings(season)
    printed = one_form(pdf_text(render_season_pdf(season_result, printed_at=AT)))
    assert DATE_TIME in printed
    book = load_workbook(io.BytesIO(season_workbook(season_result)))
    cells = [str(c) for sheet in book for row in sheet.iter_rows(values_only=True) for c in row]
    assert DATE in cells
    one_form(" ".join(cells))
