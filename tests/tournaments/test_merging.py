"""Merging two people who are one (issue 25): the entries become one person's and each event's
standings show one person; every refusal gives its reason and changes nothing; an undo puts
back exactly what was, until either person plays again."""

import datetime

import pytest
from command_line import run_from_the_shell
from django.core.management import call_command
from django.urls import reverse
from scoring_factories import fresh, seat_tables, snapshot, stored_sheet

from core.errors import ServiceError
from standings.read import standings
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, Player, PlayerMerge, Seat
from tournaments.selectors import directory_for
from tournaments.services.events import create_tournament
from tournaments.services.merging import merge_players, undo_merge
from tournaments.services.registration import register_player

pytestmark = pytest.mark.django_db

PEOPLE = (Player, Entry, Seat, PlayerMerge)
SPRING = datetime.date(2026, 3, 14)
CLUB_NIGHT = datetime.date(2026, 4, 2)


def an_event(slug, name, start, organiser, names):
    """A one-day club session on ``start`` with ``names`` entered and seated at one table, game
    1 confirmed (the first name went out, the others 10 points each)."""
    event = create_tournament(
        slug=slug, name=name, preset_key="club-session", start_date=start, organiser=organiser
    )
    entries = [register_player(event, name=n, club="Elks", user=organiser) for n in names]
    day = event.days.get(number=1)
    games, tables = seat_tables(day, [entries])
    points = {e: 0 if i == 0 else 10 for i, e in enumerate(entries)}
    stored_sheet(tables[0], games[1], points, out=entries[0])
    return event, {e.player.name: e for e in entries}


@pytest.fixture
def boss(make_user):
    return make_user("boss")  # an organiser, not a superuser: sees their own directory only


@pytest.fixture
def twice(boss):
    """Ana entered twice, as "Ana Núñez" in the Spring open and "Ana Nunez" at a club night."""
    spring, here = an_event("spring", "Spring open", SPRING, boss, ["Ana Núñez", "Bo Li"])
    night, there = an_event("night", "Club night", CLUB_NIGHT, boss, ["Cy Doe", "Ana Nunez"])
    return spring, night, here["Ana Núñez"].player, there["Ana Nunez"].player


def also_in(event, player):
    # Past the registration's check, which takes "Nunez" for "Núñez" already entered: data
    # from before that check may hold both.
    return Entry.objects.create(tournament=event, player=player, number=9)


def names_in(event) -> list[str]:
    return sorted(row.record.name for row in standings(fresh(event)).rows)


def refused(keep, drop, user, words):
    before = snapshot(*PEOPLE)
    with pytest.raises(ServiceError) as error:
        merge_players(keep, drop, user=user)
    assert words in str(error.value)
    assert snapshot(*PEOPLE) == before
    return str(error.value)


def test_a_merge_moves_every_entry_and_both_events_show_one_person(twice, boss):
    spring, night, ana, nunez = twice
    moved = list(nunez.entries.values_list("pk", flat=True))
    outcome = merge_players(ana, nunez, user=boss)

    assert outcome.events == ["Club night"]
    assert list(ana.entries.order_by("pk").values_list("tournament__slug", "number", "club")) == [
        ("spring", 1, "Elks"),
        ("night", 2, "Elks"),
    ]
    nunez.refresh_from_db()
    assert nunez.merged_into == ana and not nunez.entries.exists()
    assert names_in(spring) == ["Ana Núñez", "Bo Li"]
    assert names_in(night) == ["Ana Núñez", "Cy Doe"]
    merge = PlayerMerge.objects.get()
    assert (merge.kept, merge.dropped, merge.entries) == (ana, nunez, moved)
    assert (merge.actor, merge.actor_label, merge.undone_at) == (boss, "boss", None)
    # Out of the directory, so nobody enters the dropped person again by mistake.
    assert list(directory_for(boss).order_by("name").values_list("name", flat=True)) == [
        "Ana Núñez",
        "Bo Li",
        "Cy Doe",
    ]


def test_a_merge_into_themselves_is_refused(twice, boss):
    _spring, _night, ana, _nunez = twice
    refused(ana, ana, boss, "cannot be merged with themselves")


def test_two_people_entered_in_the_same_event_are_not_merged(twice, boss):
    spring, _night, ana, nunez = twice
    also_in(spring, nunez)
    message = refused(ana, nunez, boss, "both entered in Spring open")
    assert "one person cannot hold two entries in one event" in message


def test_two_people_seated_on_the_same_date_are_not_merged_even_in_two_events(boss):
    _a, first = an_event("morning", "Morning game", SPRING, boss, ["Ana Núñez", "Bo Li"])
    _b, second = an_event("evening", "Evening game", SPRING, boss, ["Ana Nunez", "Cy Doe"])
    message = refused(first["Ana Núñez"].player, second["Ana Nunez"].player, boss, "14 March 2026")
    assert "Evening game and Morning game" in message
    assert "one person cannot play twice on one day" in message


def test_a_day_with_no_date_of_its_own_counts_from_the_events_start(boss):
    event, first = an_event("two-days", "Two days", SPRING, boss, ["Ana Núñez", "Bo Li"])
    event.days.update(date=None)
    _b, second = an_event("sunday", "Sunday game", SPRING, boss, ["Ana Nunez", "Cy Doe"])
    refused(first["Ana Núñez"].player, second["Ana Nunez"].player, boss, "14 March 2026")


def test_someone_merged_already_is_refused_on_either_side(twice, boss):
    _spring, _night, ana, nunez = twice
    merge_players(ana, nunez, user=boss)
    _later, others = an_event("later", "Later", datetime.date(2026, 5, 1), boss, ["Ana N."])
    third = others["Ana N."].player
    nunez.refresh_from_db()
    message = refused(third, nunez, boss, "Ana Nunez (#")
    assert "was already merged into Ana Núñez" in message
    refused(nunez, third, boss, "was already merged into Ana Núñez")


def test_another_organisers_player_is_not_in_your_directory(twice, boss, make_user):
    _spring, _night, ana, nunez = twice
    stranger = make_user("stranger")
    _elsewhere, theirs = an_event(
        "away", "Away day", datetime.date(2026, 6, 1), stranger, ["Priya"]
    )
    priya = theirs["Priya"].player
    assert (
        refused(ana, priya, boss, "not in your directory")
        == "That person is not in your directory."
    )
    assert (
        refused(priya, ana, boss, "not in your directory")
        == "That person is not in your directory."
    )
    # Nor is a merge of two of boss's people open to the other organiser.
    refused(ana, nunez, stranger, "not in your directory")


def test_an_undo_puts_back_exactly_what_was(twice, boss):
    spring, night, ana, nunez = twice
    before = snapshot(Player, Entry, Seat)
    merge = merge_players(ana, nunez, user=boss).merge
    undo_merge(merge, user=boss)

    assert snapshot(Player, Entry, Seat) == before
    merge.refresh_from_db()
    assert merge.undone_at is not None and merge.undone_by_label == "boss"
    assert names_in(night) == ["Ana Nunez", "Cy Doe"]
    assert names_in(spring) == ["Ana Núñez", "Bo Li"]
    undone = snapshot(*PEOPLE)
    with pytest.raises(ServiceError, match="already undone"):
        undo_merge(merge, user=boss)
    assert snapshot(*PEOPLE) == undone


def test_an_undo_is_refused_once_the_kept_person_has_a_score_after_the_merge(twice, boss):
    spring, _night, ana, nunez = twice
    merge = merge_players(ana, nunez, user=boss).merge
    table = spring.days.get().tables.get()
    game = spring.days.get().games.get(number=2)
    seated = [seat.entry for seat in table.seats.order_by("position")]
    stored_sheet(table, game, dict.fromkeys(seated, 5), out=None)
    before = snapshot(*PEOPLE)
    with pytest.raises(ServiceError, match="scores entered after the merge"):
        undo_merge(merge, user=boss)
    assert snapshot(*PEOPLE) == before


def test_an_undo_is_refused_once_the_kept_person_is_entered_again(twice, boss):
    _spring, _night, ana, nunez = twice
    merge = merge_players(ana, nunez, user=boss).merge
    autumn = create_tournament(
        slug="autumn", name="Autumn", preset_key="club-session", organiser=boss
    )
    register_player(autumn, player=ana, user=boss)
    before = snapshot(*PEOPLE)
    with pytest.raises(ServiceError, match="was entered in Autumn after the merge"):
        undo_merge(merge, user=boss)
    assert snapshot(*PEOPLE) == before


def test_the_command_merges_lists_and_undoes(twice, capsys):
    _spring, _night, ana, nunez = twice
    call_command("merge_players", str(ana.pk), str(nunez.pk))
    out = capsys.readouterr().out
    assert out.startswith(
        f"Merged #{nunez.pk} Ana Nunez into #{ana.pk} Ana Núñez: 1 entry moved (Club night)."
    )
    merge = PlayerMerge.objects.get()
    assert merge.actor is None and merge.actor_label == COMMAND_LINE.get_username()
    call_command("merge_players", "--list")
    assert "Can be undone." in capsys.readouterr().out
    call_command("merge_players", "--undo", str(merge.pk))
    assert f"Undid merge #{merge.pk}" in capsys.readouterr().out
    assert ana.entries.count() == 1 and nunez.entries.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_command_exits_1_with_the_reason_and_changes_nothing(twice, capsys):
    spring, _night, ana, nunez = twice
    also_in(spring, nunez)
    before = snapshot(*PEOPLE)
    for argv in (
        (str(ana.pk), str(nunez.pk)),
        (str(ana.pk), str(ana.pk)),
        (str(ana.pk), "99999"),
        ("--undo", "99999"),
    ):
        with pytest.raises(SystemExit) as exit_status:
            run_from_the_shell("merge_players", *argv)
        assert exit_status.value.code == 1, argv
    err = capsys.readouterr().err
    assert "both entered in Spring open" in err and "merged with themselves" in err
    assert "There is no player #99999." in err and "There is no merge #99999." in err
    assert snapshot(*PEOPLE) == before


# The organiser's pages.


def test_the_page_compares_the_two_merges_and_undoes(client, twice, boss):
    spring, night, ana, nunez = twice
    client.force_login(boss)
    edit = reverse("organiser:player_edit", args=[spring.slug, 1])
    page = reverse("organiser:player_merge", args=[spring.slug, 1])
    assert page in client.get(edit).content.decode()

    found = client.get(page, {"q": "nunez"}).content.decode()
    assert "Ana Nunez" in found and f"?other={nunez.pk}" in found
    compared = client.get(page, {"other": nunez.pk}).content.decode()
    assert "Merge: keep Ana Núñez" in compared and "Merge: keep Ana Nunez" in compared
    assert "Club night" in compared and "player #2" in compared and "14 March 2026" in compared

    response = client.post(page, {"keep": ana.pk, "drop": nunez.pk}, follow=True)
    text = response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("organiser:player_merges", args=["spring"])
    assert "Merged Ana Nunez into Ana Núñez: 1 entry moved (Club night)." in text
    assert "By boss on" in text and "Undo the merge of Ana Nunez into Ana Núñez" in text
    assert names_in(night) == ["Ana Núñez", "Cy Doe"]

    merge = PlayerMerge.objects.get()
    undo = reverse("organiser:merge_undo", args=["spring", merge.pk])
    assert client.get(undo).status_code == 405
    text = client.post(undo, follow=True).content.decode()
    assert "are two people again" in text and "Undone by boss on" in text
    assert nunez.entries.count() == 1


def test_the_page_says_why_two_people_cannot_be_merged_and_refuses_the_post(client, twice, boss):
    spring, _night, ana, nunez = twice
    also_in(spring, nunez)
    client.force_login(boss)
    page = reverse("organiser:player_merge", args=[spring.slug, 1])
    compared = client.get(page, {"other": nunez.pk}).content.decode()
    assert "They cannot be merged." in compared and "Merge: keep" not in compared
    before = snapshot(*PEOPLE)
    text = client.post(page, {"keep": ana.pk, "drop": nunez.pk}).content.decode()
    assert "one person cannot hold two entries in one event" in text
    assert snapshot(*PEOPLE) == before


def test_the_page_keeps_other_organisers_people_out(client, twice, boss, make_user):
    spring, _night, ana, _nunez = twice
    stranger = make_user("stranger")
    _away, theirs = an_event("away", "Away day", datetime.date(2026, 6, 1), stranger, ["Priya"])
    priya = theirs["Priya"].player
    client.force_login(boss)
    page = reverse("organiser:player_merge", args=[spring.slug, 1])
    searched = client.get(page, {"q": "Priya"}).content.decode()
    assert 'Nobody else in your directory has "Priya"' in searched
    assert f"?other={priya.pk}" not in searched
    assert "Priya" not in client.get(page, {"other": priya.pk}).content.decode()
    before = snapshot(*PEOPLE)
    for keep, drop in ((ana.pk, priya.pk), (priya.pk, ana.pk), (ana.pk, 99999)):
        text = client.post(page, {"keep": keep, "drop": drop}).content.decode()
        assert "That person is not in your directory." in text and "Priya" not in text
    assert snapshot(*PEOPLE) == before


def test_the_undo_of_another_events_merge_is_not_found(client, twice, boss, make_user):
    _spring, _night, ana, nunez = twice
    merge = merge_players(ana, nunez, user=boss).merge
    stranger = make_user("stranger")
    an_event("away", "Away day", datetime.date(2026, 6, 1), stranger, ["Priya"])
    client.force_login(stranger)
    before = snapshot(*PEOPLE)
    assert client.post(reverse("organiser:merge_undo", args=["away", merge.pk])).status_code == 404
    assert snapshot(*PEOPLE) == before
