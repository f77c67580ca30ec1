"""The prize table: prizes given from the final standings only, one each, ties decided by the
organiser, the announcement and certificates printed (and said to be out of date after a later
change), the same on the page and the command line; bad input changes nothing."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from pypdf import PdfReader
from readback import font_embedding
from scoring_factories import (
    a_tie_for_first,
    client_for,
    fresh,
    snapshot,
    staff,
    text_of,
    two_days_that_turn_round,
)

from core.errors import ServiceError
from domain.prizes import HIGHEST_TOTAL, LOWEST_GAME, MOST_OUTS, PLACE
from scoring.models import GameSheet, SheetState
from standings.prizes import prize_table
from tournaments.access import COMMAND_LINE
from tournaments.models import Prize, PrizeDecision, StaffRole, Tournament
from tournaments.services.prizes import add_prize, decide_tie, set_one_each

pytestmark = pytest.mark.django_db

EVERY_KIND = [
    (PLACE, 1),
    (PLACE, 2),
    (PLACE, 3),
    (LOWEST_GAME, None),
    (MOST_OUTS, None),
    (HIGHEST_TOTAL, None),
]


def with_prizes(t, kinds=EVERY_KIND):
    for kind, place in kinds:
        add_prize(t, kind, place, "", by=COMMAND_LINE)
    return fresh(t)


def winners(table):
    return {a.prize.title: a.winner.name if a.winner else None for a in table.called}


@pytest.fixture
def final():
    """Gus 55, Flo 71, Ed 87, Di 103, Cy 119, Bob 135, Ann 151; Ann went out 6 times and has
    the lowest game (2), Di and Ed went out 3 times each."""
    return with_prizes(two_days_that_turn_round())


def test_prizes_from_the_final_standings_one_each(final):
    table = prize_table(final)
    assert table.ready and not table.problems
    assert winners(table) == {
        "Highest total (booby prize)": "Bob Roe",
        "Most games gone out": "Di Fox",
        "Lowest single game": "Ann Lee",
        "3rd place": "Ed Poe",
        "2nd place": "Flo Ng",
        "1st place": "Gus Ray",
    }
    set_one_each(final, False, by=COMMAND_LINE)
    many = winners(prize_table(fresh(final)))
    assert many["Highest total (booby prize)"] == "Ann Lee"
    assert many["Most games gone out"] == "Ann Lee"


def test_a_game_not_confirmed_blocks_the_prizes_and_says_where(final):
    sheet = GameSheet.objects.filter(table__day__tournament=final, game__number=3).first()
    GameSheet.objects.filter(pk=sheet.pk).update(state=SheetState.ENTERED, confirmed_at=None)
    table = prize_table(final)
    assert not table.ready and table.blocked
    day, number = sheet.table.day.number, sheet.table.number
    assert f"Day {day}, table {number}: game 3 to confirm" in table.problems
    assert table.problems[0].startswith("Not every game is confirmed: 1 game to confirm")
    with pytest.raises(CommandError, match="cannot be given yet"):
        call_command("prizes", final.slug)
    boss = client_for(staff(final, "boss", StaffRole.ORGANISER))
    response = boss.get(f"/organiser/t/{final.slug}/prizes/announcement.pdf")
    assert response.status_code == 409 and "game 3 to confirm" in response.content.decode()
    page = text_of(boss.get(f"/organiser/t/{final.slug}/prizes/"))
    assert "The sheets cannot be printed yet" in page and "when every game is confirmed" in page
    assert "Gus Ray" not in page.split("In the order they are called")[1]


def tie_for_first():
    return with_prizes(a_tie_for_first(), [(PLACE, 1), (PLACE, 2), (PLACE, 3)])


def test_a_tie_waits_for_the_organiser_and_the_next_place_follows():
    t = tie_for_first()
    table = prize_table(t)
    assert not table.ready
    assert "1st place: a tie to decide between Ann Lee, Ed Poe." in table.problems
    first = next(a for a in table.awards if a.prize.place == 1)
    boss = client_for(staff(t, "boss", StaffRole.ORGANISER))
    page = text_of(boss.get("/organiser/t/tie/prizes/"))
    assert "Tied: Ann Lee, Ed Poe" in page
    # A player outside the tie is no answer.
    before = snapshot(PrizeDecision)
    said = text_of(
        boss.post(
            f"/organiser/t/tie/prizes/{first.prize.key}/decide/", {"winner": "2"}, follow=True
        )
    )
    assert "Nothing changed. Choose one of the players tied for this prize." in said
    assert snapshot(PrizeDecision) == before
    said = text_of(
        boss.post(
            f"/organiser/t/tie/prizes/{first.prize.key}/decide/", {"winner": "4"}, follow=True
        )
    )
    assert "1st place: Ed Poe, decided by you." in said
    assert winners(prize_table(t)) == {
        "3rd place": "Bob Roe",
        "2nd place": "Ann Lee",
        "1st place": "Ed Poe",
    }
    assert "decided by the organiser" in text_of(boss.get("/organiser/t/tie/prizes/"))


def test_the_sheets_print_and_say_when_they_are_out_of_date(final, tmp_path):
    boss = client_for(staff(final, "boss", StaffRole.ORGANISER))
    response = boss.get(f"/organiser/t/{final.slug}/prizes/announcement.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    fonts = font_embedding(reader)
    assert fonts and all(fonts.values())
    text = " ".join(" ".join(p.extract_text() for p in reader.pages).split())
    called = [
        text.index(name) for name in ("Bob Roe", "Di Fox", "Ann Lee", "Ed Poe", "Flo Ng", "Gus Ray")
    ]
    assert called == sorted(called), "the booby prize first, 1st place last"
    assert "Prizes: the announcement" in text and "total 55" in text
    assert fresh(final).prizes_printed_at is not None
    certificates = PdfReader(
        io.BytesIO(boss.get(f"/organiser/t/{final.slug}/prizes/certificates.pdf").content)
    )
    assert len(certificates.pages) == 6
    assert "awarded to" in certificates.pages[-1].extract_text()
    assert "Gus Ray" in certificates.pages[-1].extract_text()
    assert all(font_embedding(certificates).values())
    assert "is out of date" not in text_of(boss.get(f"/organiser/t/{final.slug}/prizes/"))
    # A correction after printing.
    sheet = GameSheet.objects.filter(table__day__tournament=final).last()
    GameSheet.objects.filter(pk=sheet.pk).update(
        entered_at=fresh(final).prizes_printed_at.replace(year=2099)
    )
    assert "is out of date: a score changed" in text_of(
        boss.get(f"/organiser/t/{final.slug}/prizes/")
    )


def test_the_command_prints_the_winners_and_the_sheets(final, tmp_path):
    out = io.StringIO()
    pdf, certs = tmp_path / "a.pdf", tmp_path / "c.pdf"
    call_command("prizes", final.slug, "--pdf", str(pdf), "--certificates", str(certs), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[1] == "  Highest total (booby prize): Bob Roe (#2), total 135"
    assert lines[2] == "  Most games gone out: Di Fox (#4), went out 3 times"
    assert lines[3] == "  Lowest single game: Ann Lee (#1), a game of 2"
    assert lines[6] == "  1st place: Gus Ray (#7), total 55"
    assert pdf.exists() and certs.exists()


@pytest.mark.parametrize(
    ("posted", "said"),
    [
        ({"kind": "cup"}, "Choose a place or one of the special prizes."),
        ({"kind": "place", "place": ""}, "Give a place from 1 to 50."),
        ({"kind": "place", "place": "0"}, "Give a place from 1 to 50."),
        ({"kind": "place", "place": "x"}, "Give a place from 1 to 50."),
        ({"kind": "place", "place": "1"}, "There is a prize for 1st place already."),
    ],
)
def test_a_prize_that_cannot_be_is_refused_and_changes_nothing(final, posted, said):
    boss = client_for(staff(final, "boss", StaffRole.ORGANISER))
    before = snapshot(Prize)
    page = text_of(boss.post(f"/organiser/t/{final.slug}/prizes/add/", posted, follow=True))
    assert f"Nothing changed. {said}" in page
    assert snapshot(Prize) == before


def test_the_organiser_adds_and_removes_and_the_desk_only_looks(final):
    boss = client_for(staff(final, "boss", StaffRole.ORGANISER))
    page = text_of(
        boss.post(
            f"/organiser/t/{final.slug}/prizes/add/",
            {"kind": "place", "place": "4", "name": "Fourth, a mug"},
            follow=True,
        )
    )
    assert "Prize added: Fourth, a mug." in page and "Fourth, a mug Di Fox (#4)" in page
    prize = Prize.objects.get(place=4)
    page = text_of(boss.post(f"/organiser/t/{final.slug}/prizes/{prize.pk}/remove/", follow=True))
    assert "Prize removed: Fourth, a mug." in page
    desk = client_for(staff(final, "desk1"))
    assert desk.get(f"/organiser/t/{final.slug}/prizes/").status_code == 200
    before = snapshot(Prize, Tournament)
    assert (
        desk.post(f"/organiser/t/{final.slug}/prizes/add/", {"kind": "most_outs"}).status_code
        == 403
    )
    assert (
        desk.post(f"/organiser/t/{final.slug}/prizes/one-each/", {"one_each": "0"}).status_code
        == 403
    )
    assert snapshot(Prize, Tournament) == before
    with pytest.raises(ServiceError, match="Only an organiser"):
        decide_tie(final, prize.pk, 1, by=desk_user(final))


def desk_user(t):
    return StaffRole.objects.get(tournament=t, role=StaffRole.DESK).user
