"""One person across the club's events: an import finds people on file by member number, phone
or email and name, and asks "same person?" where something differs; nothing is stored until the
organiser answers, on the page or on the command line."""

import pytest
from command_line import run_from_the_shell
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from scoring_factories import csv_bytes, snapshot, xlsx_bytes

from domain.people import SamePerson
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, KeepApart, Player
from tournaments.services.importing import (
    ImportNeedsAnswers,
    ImportRefused,
    import_players,
    questions_for,
)
from tournaments.services.registration import register_player


def roster():
    return snapshot(Player, Entry, KeepApart)


def clubs_by_event(player):
    return [(e.tournament.slug, e.club) for e in player.entries.order_by("tournament__slug")]


@pytest.fixture
def three_events(make_tournament):
    return [
        make_tournament(slug="a-march", name="March rally"),
        make_tournament(slug="b-april", name="April rally"),
        make_tournament(slug="c-may", name="May club night"),
    ]


@pytest.mark.django_db
def test_one_person_imported_into_three_events_with_changing_clubs(three_events):
    march, april, may = three_events
    import_players(
        march,
        csv_bytes(
            [
                ["Member #", "First Name", "Last Name", "Club", "Phone", "E-mail"],
                ["GS 100", "Ana", "Núñez", "Sun Lakes", "555-010-2233", "ana@example.org"],
                ["", "Bob", "Ray", "Sun Lakes", "", ""],
            ]
        ),
        "march.csv",
        user=COMMAND_LINE,
    )
    # April's list: Ana by her member number though spelt without accents, Bob by name in
    # another chapter, which is asked.
    april_list = csv_bytes(
        [
            ["Name", "Club", "Member number"],
            ["ana nunez", "Good Sams", "gs100"],
            ["Bob Ray", "X", ""],
        ]
    )
    before = roster()
    with pytest.raises(ImportNeedsAnswers) as asked:
        import_players(april, april_list, "april.csv", user=COMMAND_LINE)
    assert [(q.row.row, q.person.name, q.why.value) for q in asked.value.questions] == [
        (3, "Bob Ray", "same name, other club")
    ]
    assert roster() == before  # nothing stored until answered
    import_players(
        april, april_list, "april.csv", user=COMMAND_LINE, answers=SamePerson(rows={3: True})
    )
    # May: Ana by her email with the same name, a new club again.
    import_players(
        may,
        csv_bytes([["Name", "Club", "Email"], ["Ana Nunez", "Desert Rats", "ANA@example.org"]]),
        "may.csv",
        user=COMMAND_LINE,
    )
    assert Player.objects.count() == 2
    ana = Player.objects.get(member_number="GS 100")
    assert ana.name == "Ana Núñez" and ana.club == "Desert Rats"
    assert clubs_by_event(ana) == [
        ("a-march", "Sun Lakes"),
        ("b-april", "Good Sams"),
        ("c-may", "Desert Rats"),
    ]
    bob = Player.objects.get(name="Bob Ray")
    assert clubs_by_event(bob) == [("a-march", "Sun Lakes"), ("b-april", "X")]
    assert Entry.objects.get(tournament=march, player=ana).contact == (
        "555-010-2233, ana@example.org"
    )


@pytest.mark.django_db
def test_someone_new_is_a_second_person_and_the_first_keeps_their_club(three_events):
    march, april, _ = three_events
    register_player(march, name="Bob Ray", club="Sun Lakes")
    import_players(
        april,
        csv_bytes([["Name", "Club"], ["Bob Ray", "Good Sams"]]),
        "a.csv",
        user=COMMAND_LINE,
        answers=SamePerson(everyone=False),
    )
    assert sorted(Player.objects.values_list("name", "club")) == [
        ("Bob Ray", "Good Sams"),
        ("Bob Ray", "Sun Lakes"),
    ]


@pytest.mark.django_db
def test_answers_for_rows_that_ask_nothing_are_refused_by_row(three_events):
    march, april, _ = three_events
    register_player(march, name="Bob Ray", club="Sun Lakes")
    data = csv_bytes([["Name", "Club"], ["Bob Ray", "Good Sams"], ["Cy Young", ""]])
    before = roster()
    with pytest.raises(ImportRefused) as refused:
        import_players(
            april,
            data,
            "a.csv",
            user=COMMAND_LINE,
            answers=SamePerson(rows={2: True, 3: True, 9: False}),
        )
    assert [(p.row, p.message) for p in refused.value.problems] == [
        (3, "The answers give row 3, which asks no question (the rows asking are: 2)."),
        (9, "The answers give row 9, which is not in the file (the rows asking are: 2)."),
    ]
    assert roster() == before


@pytest.mark.django_db
def test_a_member_number_of_someone_entered_under_another_name_is_a_row_problem(three_events):
    march, _, _ = three_events
    import_players(
        march,
        csv_bytes([["Name", "Member number"], ["Ana Núñez", "GS100"]]),
        "a.csv",
        user=COMMAND_LINE,
    )
    before = roster()
    with pytest.raises(ImportRefused) as refused:
        import_players(
            march,
            csv_bytes([["Name", "Member number"], ["Ana Smith", "GS100"]]),
            "b.csv",
            user=COMMAND_LINE,
            answers=SamePerson(everyone=True),
        )
    assert [(p.row, p.message) for p in refused.value.problems] == [
        (2, "This is #1 Ana Núñez (the same member number), already entered in this event.")
    ]
    assert roster() == before


@pytest.mark.django_db
def test_a_member_number_twice_in_the_file_and_a_half_name_header_are_problems(three_events):
    march, _, _ = three_events
    with pytest.raises(ImportRefused) as refused:
        import_players(
            march,
            csv_bytes([["Name", "Member no"], ["Ann", "GS1"], ["Bea", "gs 1"]]),
            "a.csv",
            user=COMMAND_LINE,
        )
    assert [(p.row, p.message) for p in refused.value.problems] == [
        (3, "Member number gs 1 is also on row 2.")
    ]
    with pytest.raises(ImportRefused) as refused:
        import_players(
            march, csv_bytes([["First name", "Club"], ["Ann", ""]]), "a.csv", user=COMMAND_LINE
        )
    assert [p.message for p in refused.value.problems] == [
        "There is a First name column but no Last name column (or a Name column)."
    ]
    assert not Entry.objects.exists()


@pytest.mark.django_db
def test_another_organisers_people_are_never_matched_or_shown(
    three_events, make_user, make_tournament
):
    march, _, _ = three_events
    register_player(march, name="Bob Ray", club="Sun Lakes", contact="bob@example.org")
    stranger = make_user("stranger")
    theirs = make_tournament(slug="theirs", organiser=stranger)
    data = csv_bytes([["Name", "Club", "Email"], ["Bob Ray", "Good Sams", "bob@example.org"]])
    assert (
        questions_for(
            theirs, [row.split(",") for row in ["Name,Club", "Bob Ray,Good Sams"]], user=stranger
        )
        == []
    )
    import_players(theirs, data, "a.csv", user=stranger)
    assert Player.objects.filter(name="Bob Ray").count() == 2


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------


@pytest.fixture
def bob_on_file(three_events):
    march, april, _ = three_events
    register_player(march, name="Bob Ray", club="Sun Lakes")
    return april


def write(tmp_path, name, rows):
    path = tmp_path / name
    path.write_bytes(csv_bytes(rows))
    return str(path)


@pytest.mark.django_db(transaction=True)  # see run_from_the_shell
def test_the_command_without_an_answer_lists_the_questions_and_exits_1(
    bob_on_file, tmp_path, capsys
):
    path = write(tmp_path, "a.csv", [["Name", "Club"], ["Bob Ray", "Good Sams"], ["Cy", ""]])
    before = roster()
    with pytest.raises(SystemExit) as exit_status:
        run_from_the_shell("import_players", bob_on_file.slug, path)
    assert exit_status.value.code == 1
    err = capsys.readouterr().err
    assert "Nothing is imported yet: 1 row could be someone already on file." in err
    assert "--same-person=all" in err
    assert "Row 2 (same name, other club): Bob Ray · Good Sams" in err
    assert "on file: Bob Ray · Sun Lakes, last in March rally as #1" in err
    assert roster() == before


@pytest.mark.django_db
def test_the_command_takes_all_none_or_a_file_of_answers(bob_on_file, tmp_path, capsys):
    path = write(tmp_path, "a.csv", [["Name", "Club"], ["Bob Ray", "Good Sams"], ["Cy", ""]])
    call_command("import_players", bob_on_file.slug, path, "--same-person=none")
    assert Player.objects.filter(name="Bob Ray").count() == 2
    assert "Imported 2 players into b-april (0 already in the club directory" in (
        capsys.readouterr().out
    )


@pytest.mark.django_db
def test_the_command_reads_a_file_of_answers_and_refuses_its_wrong_rows(
    bob_on_file, tmp_path, capsys
):
    path = write(tmp_path, "a.csv", [["Name", "Club"], ["Bob Ray", "Good Sams"], ["Cy", ""]])
    answers = tmp_path / "answers.txt"
    before = roster()
    answers.write_text("row,same\n2,yes\n7,no\n")
    with pytest.raises(CommandError) as error:
        call_command("import_players", bob_on_file.slug, path, f"--same-person={answers}")
    assert str(error.value).splitlines() == [
        "Nothing was imported: the file has 1 problem.",
        "Row 7: The answers give row 7, which is not in the file (the rows asking are: 2).",
    ]
    answers.write_text("2 perhaps\n")
    with pytest.raises(CommandError) as error:
        call_command("import_players", bob_on_file.slug, path, f"--same-person={answers}")
    assert 'Line 1: "2 perhaps" is not a row number and yes or no.' in str(error.value)
    with pytest.raises(CommandError, match=r"there is no file at nowhere\.txt"):
        call_command("import_players", bob_on_file.slug, path, "--same-person=nowhere.txt")
    assert roster() == before
    answers.write_text("2,yes\n")
    call_command("import_players", bob_on_file.slug, path, f"--same-person={answers}")
    assert Player.objects.filter(name="Bob Ray").count() == 1
    assert "(1 already in the club directory" in capsys.readouterr().out


# ---------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------


def upload(client, event, data):
    return client.post(
        f"/organiser/t/{event.slug}/players/import/",
        {"file": SimpleUploadedFile("list.xlsx", data)},
    )


def review(client, event, pending, **answers):
    return client.post(
        f"/organiser/t/{event.slug}/players/import/review/",
        {"pending": pending, **answers},
        follow=True,
    )


@pytest.mark.django_db
def test_the_page_asks_then_imports_with_the_answers(organiser_client, bob_on_file):
    data = xlsx_bytes(
        [["Name", "Club"], ["Bob Ray", "Good Sams"], ["Cy Young", None], ["Dee", None]]
    )
    before = roster()
    response = upload(organiser_client, bob_on_file, data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Same person?" in page and "Row 2: same name, other club" in page
    assert "Bob Ray · Good Sams" in page and "Bob Ray · Sun Lakes" in page
    assert roster() == before
    pending = response.context["form"]["pending"].value()

    missing = review(organiser_client, bob_on_file, pending)
    assert "Answer every row (still to answer: 2), or use one answer for all." in (
        missing.content.decode()
    )
    assert "Say whether this is the same person." in missing.content.decode()
    assert roster() == before

    done = review(organiser_client, bob_on_file, pending, row_2="same")
    assert done.redirect_chain[-1][0] == f"/organiser/t/{bob_on_file.slug}/players/"
    assert "Imported 3 players (1 already in the club directory)." in done.content.decode()
    bob = Player.objects.get(name="Bob Ray")
    assert bob.club == "Good Sams" and bob.entries.count() == 2


@pytest.mark.django_db
def test_the_page_takes_one_answer_for_all(organiser_client, bob_on_file):
    response = upload(
        organiser_client, bob_on_file, xlsx_bytes([["Name", "Club"], ["Bob Ray", "X"]])
    )
    pending = response.context["form"]["pending"].value()
    review(organiser_client, bob_on_file, pending, everyone="none")
    assert Player.objects.filter(name="Bob Ray").count() == 2


@pytest.mark.django_db
def test_a_tampered_or_other_events_pending_list_imports_nothing(
    organiser_client, bob_on_file, three_events
):
    response = upload(
        organiser_client, bob_on_file, xlsx_bytes([["Name", "Club"], ["Bob Ray", "X"]])
    )
    pending = response.context["form"]["pending"].value()
    before = roster()
    for event, token in [
        (bob_on_file, pending[:-3] + "abc"),
        (bob_on_file, "not a token"),
        (three_events[2], pending),  # the May event: the list was uploaded for April
    ]:
        page = review(organiser_client, event, token, everyone="all").content.decode()
        assert "could not be read back" in page and "Nothing was imported" in page
    assert roster() == before


@pytest.mark.django_db
def test_a_member_number_typed_at_the_desk_is_the_persons_and_finds_them_on_import(
    organiser_client, three_events
):
    march, april, _ = three_events
    added = organiser_client.post(
        f"/organiser/t/{march.slug}/players/add/",
        {"name": "Ana Núñez", "club": "Sun Lakes", "member_number": " GS  100 "},
    )
    assert added.status_code == 302
    ana = Player.objects.get()
    assert ana.member_number == "GS 100"
    too_long = organiser_client.post(
        f"/organiser/t/{march.slug}/players/1/",
        {"name": "Ana Núñez", "club": "Sun Lakes", "member_number": "9" * 41},
    )
    assert "Ensure this value has at most 40 characters" in too_long.content.decode()
    ana.refresh_from_db()
    assert ana.member_number == "GS 100"
    organiser_client.post(
        f"/organiser/t/{march.slug}/players/1/",
        {"name": "Ana Núñez", "club": "Sun Lakes", "member_number": "GS 101"},
    )
    ana.refresh_from_db()
    assert ana.member_number == "GS 101"
    import_players(
        april,
        csv_bytes([["Name", "Member number"], ["Ana Smith-Núñez", "gs101"]]),
        "a.csv",
        user=COMMAND_LINE,
        answers=SamePerson(everyone=True),
    )
    assert Player.objects.count() == 1 and ana.entries.count() == 2


@pytest.mark.django_db
def test_the_players_list_by_surname_or_by_player_id(organiser_client, three_events):
    import re

    march, _, _ = three_events
    for name in ("Zoe Adams", "Ann Young", "Bob Núñez", "Cy Lee", "Al Nunez"):
        register_player(march, name=name)
    url = f"/organiser/t/{march.slug}/players/"

    def names(response):
        return re.findall(r'/players/\d+/">([^<]+)</a>', response.content.decode())

    assert names(organiser_client.get(url)) == [
        "Zoe Adams",
        "Ann Young",
        "Bob Núñez",
        "Cy Lee",
        "Al Nunez",
    ]
    by_surname = organiser_client.get(url, {"order": "surname"})
    assert names(by_surname) == ["Zoe Adams", "Cy Lee", "Al Nunez", "Bob Núñez", "Ann Young"]
    assert '<strong aria-current="true">surname</strong>' in by_surname.content.decode()
    assert names(organiser_client.get(url, {"order": "surname", "q": "nunez"})) == [
        "Al Nunez",
        "Bob Núñez",
    ]
    # An order nobody offers is the default, not an error page.
    assert names(organiser_client.get(url, {"order": "shoe size"}))[0] == "Zoe Adams"
