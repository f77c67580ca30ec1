"""The club is the entry's, as it was at that event (issue 25): the directory holds the person's
current club, and no change to it or to a later event rewrites a finished event's record."""

import datetime
import io

import pytest
from openpyxl import load_workbook
from scoring_factories import fresh, organiser_url
from test_standings_exports import pdf_lines

from standings.pdf import render_standings_pdf
from standings.read import standings
from standings.xlsx import standings_workbook
from tournaments.models import Entry, Player
from tournaments.services.importing import import_players
from tournaments.services.registration import register_player, update_entry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_seating")]

PRINTED = datetime.datetime(2026, 12, 7, 9, 0, tzinfo=datetime.UTC)


def clubs_in_standings(tournament) -> dict[str, str]:
    return {r.record.name: r.record.club for r in standings(fresh(tournament)).rows}


def the_record(tournament) -> tuple[list[list[str]], list[list]]:
    """What a finished event's outputs say: the PDF's printed lines and every workbook cell."""
    result = standings(fresh(tournament))
    book = load_workbook(io.BytesIO(standings_workbook(result)))
    cells = [
        [sheet.title, *row]
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
    ]
    return pdf_lines(render_standings_pdf(result, printed_at=PRINTED)), cells


def test_one_person_in_three_events_with_changing_clubs_keeps_each_events_club(
    make_tournament, organiser
):
    spring, summer, autumn = (
        make_tournament(slug=s, organiser=organiser) for s in ("spring", "summer", "autumn")
    )
    first = register_player(spring, name="Ann Lee", club="Lakeside Good Sams", user=organiser)
    person = first.player
    register_player(summer, player=person, club="Palm Harbor Chapter", user=organiser)
    register_player(autumn, player=person, user=organiser)  # no club given: the current one

    assert Player.objects.filter(name="Ann Lee").count() == 1
    assert list(person.entries.order_by("pk").values_list("tournament__slug", "club")) == [
        ("spring", "Lakeside Good Sams"),
        ("summer", "Palm Harbor Chapter"),
        ("autumn", "Palm Harbor Chapter"),
    ]
    person.refresh_from_db()
    assert person.club == "Palm Harbor Chapter"
    assert clubs_in_standings(spring) == {"Ann Lee": "Lakeside Good Sams"}
    assert clubs_in_standings(summer) == {"Ann Lee": "Palm Harbor Chapter"}


def test_a_club_corrected_in_the_latest_event_is_the_persons_current_club(
    make_tournament, organiser
):
    spring, summer = (make_tournament(slug=s, organiser=organiser) for s in ("spring", "summer"))
    old = register_player(spring, name="Bob Ray", club="Elks", user=organiser)
    new = register_player(summer, player=old.player, user=organiser)

    update_entry(
        new, name="Bob Ray", club="Moose Lodge", contact="", pinned_table=None, user=organiser
    )
    old.refresh_from_db()
    old.player.refresh_from_db()
    assert (old.club, old.player.club) == ("Elks", "Moose Lodge")

    # A correction to the older event is that event's alone: the directory keeps today's club.
    update_entry(
        old, name="Bob Ray", club="Elks Lodge 12", contact="", pinned_table=None, user=organiser
    )
    new.refresh_from_db()
    new.player.refresh_from_db()
    assert (new.club, new.player.club) == ("Moose Lodge", "Moose Lodge")
    assert clubs_in_standings(spring) == {"Bob Ray": "Elks Lodge 12"}


def test_a_finished_events_pdf_and_workbook_do_not_change_when_the_person_changes_club(
    demo_tournament, make_tournament, organiser
):
    before = the_record(demo_tournament)
    entry = demo_tournament.entries.select_related("player").get(number=9)
    played_for = entry.club
    assert played_for, "the demo's player 9 has a club"

    rally = make_tournament(slug="rally", organiser=organiser)
    later = register_player(rally, player=entry.player, club="A New Chapter", user=organiser)
    update_entry(
        later,
        name=entry.player.name,
        club="Another Chapter",
        contact="",
        pinned_table=None,
        user=organiser,
    )
    entry.player.refresh_from_db()
    assert entry.player.club == "Another Chapter"

    assert the_record(demo_tournament) == before
    assert clubs_in_standings(demo_tournament)[entry.player.name] == played_for


def test_the_edit_page_shows_and_saves_this_events_club(
    organiser_client, make_tournament, organiser
):
    spring, summer = (make_tournament(slug=s, organiser=organiser) for s in ("spring", "summer"))
    old = register_player(spring, name="Cy Young", club="Elks", user=organiser)
    register_player(summer, player=old.player, club="Moose Lodge", user=organiser)

    page = organiser_client.get(organiser_url(spring, "players/1/")).content.decode()
    assert 'value="Elks"' in page
    listing = organiser_client.get(organiser_url(spring, "players/")).content.decode()
    assert "Elks" in listing and "Moose Lodge" not in listing


def test_a_club_on_the_list_for_a_name_on_file_without_one_is_kept(make_tournament, organiser):
    spring, summer = (make_tournament(slug=s, organiser=organiser) for s in ("spring", "summer"))
    register_player(spring, name="Dee Fox", user=organiser)
    outcome = import_players(
        summer, b"Name,Club\nDee Fox,Sun Valley RV Club\n", "players.csv", user=organiser
    )

    (entry,) = outcome.entries
    assert Player.objects.filter(name="Dee Fox").count() == 1
    assert Entry.objects.get(pk=entry.pk).club == "Sun Valley RV Club"
    assert Player.objects.get(name="Dee Fox").club == "Sun Valley RV Club"
    assert spring.entries.get().club == ""


def test_entering_someone_in_an_older_event_leaves_their_current_club(make_tournament, organiser):
    import datetime

    from scoring_factories import csv_bytes

    from domain.people import SamePerson
    from tournaments.services.importing import import_players

    autumn = make_tournament(
        slug="autumn", organiser=organiser, start_date=datetime.date(2026, 10, 3)
    )
    ann = register_player(autumn, name="Ann Lee", club="Palm Harbor", user=organiser).player
    bob = register_player(autumn, name="Bob Ray", club="Elks", user=organiser).player
    # Last spring's results typed in afterwards, by hand and from the club's old list.
    spring = make_tournament(
        slug="spring", organiser=organiser, start_date=datetime.date(2026, 3, 14)
    )
    register_player(spring, player=ann, club="Lakeside", user=organiser)
    import_players(
        spring,
        csv_bytes([["Name", "Club"], ["Bob Ray", "Moose Lodge"]]),
        "old.csv",
        user=organiser,
        answers=SamePerson(everyone=True),
    )
    ann.refresh_from_db()
    bob.refresh_from_db()
    assert (ann.club, bob.club) == ("Palm Harbor", "Elks")
    assert clubs_in_standings(spring) == {"Ann Lee": "Lakeside", "Bob Ray": "Moose Lodge"}
    assert clubs_in_standings(autumn) == {"Ann Lee": "Palm Harbor", "Bob Ray": "Elks"}
    # A later event's club is the current one, however it was entered.
    winter = make_tournament(
        slug="winter", organiser=organiser, start_date=datetime.date(2026, 12, 5)
    )
    register_player(winter, player=ann, club="Sun Lakes", user=organiser)
    import_players(
        winter,
        csv_bytes([["Name", "Club"], ["Bob Ray", "Moose Lodge"]]),
        "w.csv",
        user=organiser,
        answers=SamePerson(everyone=True),
    )
    ann.refresh_from_db()
    bob.refresh_from_db()
    assert (ann.club, bob.club) == ("Sun Lakes", "Moose Lodge")
