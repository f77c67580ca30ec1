"""Registration, the player directory, check-in, withdrawal and the lock once play starts."""

import pytest
from django.utils import timezone
from scoring_factories import organiser_url as url, register, snapshot, stored_sheet

from core.errors import ServiceError
from scoring.models import SheetState
from scoring.schedule import build_schedule
from tournaments import selectors
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, KeepApart, Player, Seat, StaffRole
from tournaments.services.importing import ImportRefused, import_players
from tournaments.services.registration import (
    add_keep_apart,
    check_everyone_in,
    register_player,
    reinstate_entry,
    set_checked_in,
    update_entry,
    withdraw_entry,
)
from tournaments.services.seating import seat_day

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_seating")]


def sheet(table, game_number, went_out, *, state=SheetState.CONFIRMED):
    """A sheet for game ``game_number`` at ``table``, stored past the services' checks."""
    return stored_sheet(
        table, build_schedule(table.day)[game_number - 1], out=went_out, state=state
    )


# ---------------------------------------------------------------------------
# Numbers and the directory
# ---------------------------------------------------------------------------


def test_player_numbers_run_in_registration_order_and_are_never_reused(tournament):
    ann, bob, cy = register(tournament, "Ann", "Bob", "Cy")
    assert [ann.number, bob.number, cy.number] == [1, 2, 3]
    withdraw_entry(cy)
    assert register(tournament, "Di")[0].number == 4


def test_numbers_are_per_tournament(tournament, make_tournament):
    register(tournament, "Ann", "Bob")
    other = make_tournament(slug="fall")
    assert register(other, "Cy")[0].number == 1


def test_a_returning_member_is_entered_from_the_directory_not_typed_twice(
    tournament, make_tournament
):
    last_year = make_tournament(slug="last-year")
    ann = register(last_year, "Ann Lee")[0].player
    entry = register_player(tournament, player=ann, user=COMMAND_LINE)
    assert entry.player_id == ann.pk
    assert Player.objects.filter(name="Ann Lee").count() == 1
    with pytest.raises(ServiceError, match=r"Ann Lee is already entered as player #1\."):
        register_player(tournament, player=ann, user=COMMAND_LINE)


def test_a_second_person_with_the_same_name_must_be_told_apart(tournament):
    register(tournament, "Ann Lee")
    with pytest.raises(ServiceError, match="add something to tell them apart") as error:
        register_player(tournament, name="  ann   lee ")
    assert error.value.field == "name"
    assert register_player(tournament, name="Ann Lee (Tampa)").number == 2


def test_a_withdrawn_name_still_counts_and_the_organiser_is_told_to_undo_the_withdrawal(
    tournament, organiser_client
):
    ann, _ = register(tournament, "Ann Lee", "Bob Ray")
    withdraw_entry(ann)
    players_before = list(Player.objects.order_by("pk").values_list("pk", "name"))
    entries_before = list(tournament.entries.order_by("pk").values_list("pk", "number", "status"))
    with pytest.raises(
        ServiceError,
        match=(
            r"Ann Lee is already entered as player #1 and has withdrawn\. To bring them back, "
            r'open their player page and choose "Undo the withdrawal"\.'
        ),
    ) as error:
        register_player(tournament, name="ann  LEE")
    assert error.value.field == "name"
    response = organiser_client.post(url(tournament, "players/add/"), {"name": "Ann Lee"})
    page = response.content.decode()
    assert response.status_code == 200
    assert 'class="field has-error"' in page and "has withdrawn" in page
    # the spreadsheet import follows the same rule
    with pytest.raises(ImportRefused) as refused:
        import_players(tournament, b"Name\nAnn Lee\n", "players.csv", user=COMMAND_LINE)
    assert [p.message for p in refused.value.problems] == [
        "Ann Lee is already entered in this event as player #1."
    ]
    assert list(Player.objects.order_by("pk").values_list("pk", "name")) == players_before
    assert list(tournament.entries.order_by("pk").values_list("pk", "number", "status")) == (
        entries_before
    )
    reinstate_entry(ann)  # the way back the message points to
    assert tournament.entries.get(number=1).status == Entry.REGISTERED


def test_add_page_searches_the_directory_and_adds_the_chosen_person(
    organiser_client, tournament, make_tournament
):
    register(make_tournament(slug="old"), "Martha Greene", "Martin Ho")
    register(tournament, "Martin Ho")
    page = organiser_client.get(url(tournament, "players/add/"), {"q": "mart"}).content.decode()
    assert "Martha Greene" in page and 'aria-label="Add Martha Greene"' in page
    assert "Already entered as #1" in page  # Martin Ho is in this event already
    martha = Player.objects.get(name="Martha Greene")
    response = organiser_client.post(
        url(tournament, "players/add/"), {"player": martha.pk}, follow=True
    )
    assert "Martha Greene is entered as player #2." in response.content.decode()
    assert tournament.entries.get(number=2).player_id == martha.pk


def test_add_page_creates_a_new_player_and_shows_errors_beside_the_field(
    organiser_client, tournament
):
    response = organiser_client.post(
        url(tournament, "players/add/"),
        {"name": "Renée Côté", "club": "Québec", "pinned_table": ""},
    )
    assert response.status_code == 302
    entry = tournament.entries.get()
    assert (entry.number, entry.player.name, entry.player.club) == (1, "Renée Côté", "Québec")
    response = organiser_client.post(url(tournament, "players/add/"), {"name": "renée côté"})
    page = response.content.decode()
    assert response.status_code == 200
    assert 'class="field has-error"' in page and "already entered as player #1" in page
    response = organiser_client.post(url(tournament, "players/add/"), {"name": "   "})
    assert "This field is required." in response.content.decode()
    assert tournament.entries.count() == 1
    response = organiser_client.post(
        url(tournament, "players/add/"), {"name": " \t Ann \u00a0  Lee "}
    )
    assert response.status_code == 302
    assert tournament.entries.get(number=2).player.name == "Ann Lee"


def test_edit_page_saves_details_and_pin(organiser_client, tournament):
    ann = register(tournament, "Ann")[0]
    response = organiser_client.post(
        url(tournament, "players/1/"), {"name": "Ann Lee", "club": "Sun RVers", "pinned_table": "2"}
    )
    assert response.status_code == 302
    ann.refresh_from_db()
    ann.player.refresh_from_db()
    assert (ann.player.name, ann.player.club, ann.pinned_table) == ("Ann Lee", "Sun RVers", 2)
    response = organiser_client.post(
        url(tournament, "players/1/"), {"name": "Ann", "pinned_table": "0"}
    )
    assert "Ensure this value is greater than or equal to 1." in response.content.decode()


def test_editing_a_name_into_another_players_name_is_refused(
    tournament, make_tournament, organiser
):
    _ann, bob = register(tournament, "Ann", "Bob")
    with pytest.raises(ServiceError, match=r"Ann is already entered as player #1\.") as error:
        update_entry(bob, name="ANN", club="", contact="", pinned_table=None, user=organiser)
    assert error.value.field == "name"
    # a corrected spelling shows in every event this organiser runs
    other = make_tournament(slug="fall", organiser=organiser)
    register_player(other, player=bob.player, user=organiser)
    update_entry(bob, name="Robert", club="Sun RVers", contact="", pinned_table=3, user=organiser)
    assert other.entries.get().player.name == "Robert"
    assert tournament.entries.get(number=2).pinned_table == 3


def _two_organisers(make_tournament, make_user):
    """Two events with one player in both (entered by the command line, which sees every
    player), each run by its own organiser, neither a superuser."""
    mine_user, theirs_user = make_user("alice"), make_user("bert")
    mine = make_tournament(slug="mine", organiser=mine_user)
    theirs = make_tournament(slug="theirs", organiser=theirs_user)
    theirs.public_pages = False
    theirs.save()
    shared = register_player(theirs, name="Zed Shared", contact="555-0100")
    register_player(mine, player=shared.player, user=COMMAND_LINE, contact="mine@example.org")
    secret = register_player(theirs, name="Zoe Private", contact="555-0199")
    return mine, theirs, mine_user, shared, secret


def test_a_rename_changes_only_the_events_the_organiser_runs(make_tournament, make_user):
    mine, theirs, alice, shared, _ = _two_organisers(make_tournament, make_user)
    entry_here = mine.entries.get(player=shared.player)
    update_entry(entry_here, name="Zed Renamed", club="", contact="", pinned_table=None, user=alice)
    shared.refresh_from_db()
    assert shared.player.name == "Zed Shared"  # the other organiser's event keeps its name
    entry_here.refresh_from_db()
    assert entry_here.player.name == "Zed Renamed" and entry_here.player_id != shared.player_id
    assert theirs.entries.get(number=1).contact == "555-0100"


def test_the_directory_shows_and_reuses_only_players_of_events_the_organiser_runs(
    client, make_tournament, make_user
):
    from tournaments.views.players import player_add  # noqa: F401  (the page under test)

    mine, _theirs, alice, _shared, secret = _two_organisers(make_tournament, make_user)
    client.force_login(alice)
    page = client.get(url(mine, "players/add/?q=Zo")).content.decode()
    assert "Zoe Private" not in page and "Nobody in your directory" in page
    assert "Zed Shared" in client.get(url(mine, "players/add/?q=Zed")).content.decode()
    players_before = list(Player.objects.order_by("pk").values())
    entries_before = list(Entry.objects.order_by("pk").values())
    response = client.post(url(mine, "players/add/"), {"player": secret.player_id})
    assert response.status_code == 404
    with pytest.raises(ServiceError, match="not in your directory"):
        register_player(mine, player=secret.player, user=alice)
    assert list(Player.objects.order_by("pk").values()) == players_before
    assert list(Entry.objects.order_by("pk").values()) == entries_before
    assert [p.name for p in selectors.directory_matches(mine, "Z", alice)] == []
    assert [p.name for p in selectors.directory_matches(mine, "Ze", alice)] == ["Zed Shared"]


def test_contact_details_belong_to_the_entry(client, make_tournament, make_user):
    mine, theirs, alice, _shared, _ = _two_organisers(make_tournament, make_user)
    client.force_login(alice)
    page = client.get(url(mine, "players/1/")).content.decode()
    assert "mine@example.org" in page and "555-0100" not in page
    client.post(url(mine, "players/1/"), {"name": "Zed Shared", "contact": "new@example.org"})
    assert mine.entries.get(number=1).contact == "new@example.org"
    assert theirs.entries.get(number=1).contact == "555-0100"


def test_a_rename_on_the_page_leaves_another_organisers_public_standings_alone(
    client, make_tournament, make_user
):
    mine, theirs, alice, _shared, _ = _two_organisers(make_tournament, make_user)
    theirs.public_pages = True
    theirs.save()
    client.force_login(alice)
    response = client.post(url(mine, "players/1/"), {"name": "Hijacked Name"})
    assert response.status_code == 302
    client.logout()
    public = client.get(f"/t/{theirs.slug}/").content.decode()
    assert "Hijacked Name" not in public
    assert theirs.entries.get(number=1).player.name == "Zed Shared"
    assert mine.entries.get(number=1).player.name == "Hijacked Name"


def test_keep_apart_pairs_are_added_and_removed_from_the_player_page(organiser_client, tournament):
    ann, bob = register(tournament, "Ann", "Bob")
    organiser_client.post(url(tournament, "players/1/keep-apart/"), {"other": bob.pk})
    assert KeepApart.objects.filter(tournament=tournament).count() == 1
    page = organiser_client.get(url(tournament, "players/2/")).content.decode()
    assert "Ann (#1)" in page
    with pytest.raises(ServiceError, match="already kept apart"):
        add_keep_apart(bob, ann)
    organiser_client.post(url(tournament, "players/2/keep-apart/1/remove/"))
    assert not KeepApart.objects.exists()


def test_players_list_shows_numbers_keep_apart_and_search(organiser_client, tournament):
    ann, bob, _cy = register(tournament, "Ann Lee", "Bob Lee", "Cy Ray")
    add_keep_apart(ann, bob)
    page = organiser_client.get(url(tournament, "players/")).content.decode()
    assert "Bob Lee (#2)" in page and "Cy Ray" in page
    page = organiser_client.get(url(tournament, "players/"), {"q": "lee"}).content.decode()
    assert "Cy Ray" not in page and "Ann Lee" in page


def test_entry_list_is_a_fixed_number_of_queries(tournament, django_assert_num_queries):
    register(tournament, "A1", "A2")
    with django_assert_num_queries(2):
        selectors.entry_list(tournament)
    entries = register(tournament, *[f"B{i}" for i in range(20)])
    for a, b in zip(entries[::2], entries[1::2], strict=True):
        add_keep_apart(a, b)
    with django_assert_num_queries(2):
        listed = selectors.entry_list(tournament)
    assert [e.number for e in listed[2].keep_apart] == [4]


# ---------------------------------------------------------------------------
# Access
# ---------------------------------------------------------------------------


def test_desk_staff_may_check_in_but_not_register(client, tournament, make_user):
    desk = make_user("desk1")
    StaffRole.objects.create(tournament=tournament, user=desk, role=StaffRole.DESK)
    client.force_login(desk)
    register(tournament, "Ann")
    assert client.get(url(tournament, "players/add/")).status_code == 403
    assert client.post(url(tournament, "players/add/"), {"name": "Bob"}).status_code == 403
    assert client.get(url(tournament, "check-in/")).status_code == 200
    client.post(url(tournament, "check-in/1/"), {"here": "1"})
    assert tournament.entries.get().status == Entry.CHECKED_IN


def test_strangers_are_sent_to_log_in_or_told_nothing(client, tournament, make_user):
    assert client.get(url(tournament, "players/")).status_code == 302
    client.force_login(make_user("stranger"))
    assert client.get(url(tournament, "players/")).status_code == 404


# ---------------------------------------------------------------------------
# Check-in
# ---------------------------------------------------------------------------


def test_check_in_page_marks_players_here_and_filters_by_name(organiser_client, tournament):
    register(tournament, "Ann Lee", "Bob Ray")
    response = organiser_client.post(url(tournament, "check-in/2/"), {"here": "1", "q": "ray"})
    assert response["Location"] == url(tournament, "check-in/?q=ray#entry-2")
    page = organiser_client.get(url(tournament, "check-in/"), {"q": "RAY"}).content.decode()
    assert "Bob Ray" in page and "Ann Lee" not in page
    assert "1 here · 1 not here yet · 0 withdrawn" in page
    assert 'aria-label="Undo check-in of Bob Ray"' in page
    assert 'src="/static/js/filter-list.js"' in page
    organiser_client.post(url(tournament, "check-in/2/"), {"here": "0"})
    assert tournament.entries.get(number=2).status == Entry.REGISTERED


def test_a_withdrawn_player_cannot_be_checked_in(tournament):
    ann = register(tournament, "Ann")[0]
    withdraw_entry(ann)
    with pytest.raises(ServiceError, match="Ann has withdrawn"):
        set_checked_in(ann, True)


# ---------------------------------------------------------------------------
# Play started: the roster is locked
# ---------------------------------------------------------------------------


def start_day_one(tournament):
    entries = register(tournament, *[f"P{i}" for i in range(1, 9)])
    day = tournament.days.get(number=1)
    seat_day(day, seed=1)
    table = day.tables.get(number=1)
    first = table.seats.first().entry
    sheet(table, 1, first)
    return day, table, entries


def test_nobody_joins_once_play_has_started(tournament, organiser_client):
    _day, _table, entries = start_day_one(tournament)
    before = Entry.objects.count()
    with pytest.raises(
        ServiceError, match="Day 1 already has scores, so no one new can be entered"
    ):
        register_player(tournament, name="Latecomer")
    response = organiser_client.post(url(tournament, "players/add/"), {"name": "Latecomer"})
    assert "nobody joins once play has started" in response.content.decode()
    with pytest.raises(ServiceError, match="cannot be checked in now"):
        set_checked_in(entries[0], True)
    assert Entry.objects.count() == before


def test_withdrawal_mid_day_records_the_last_game_the_table_played(tournament):
    day, table, _entries = start_day_one(tournament)
    seats = list(table.seats.select_related("entry"))
    out = seats[0].entry
    sheet(table, 2, out)
    # a superseded version does not count as a game the table has played
    sheet(table, 3, out, state=SheetState.SUPERSEDED)
    leaving = seats[1].entry
    outcome = withdraw_entry(leaving)
    assert outcome.left_during == [(1, 2)]
    seat = Seat.objects.get(day=day, entry=leaving)
    assert seat.left_after_game == 2
    assert seat.plays_game(2) and not seat.plays_game(3)
    leaving.refresh_from_db()
    assert leaving.status == Entry.WITHDRAWN
    # the other table has not entered a game yet: its leaver plays none of today's games
    other_seat = day.seats.exclude(table=table).first()
    withdraw_entry(other_seat.entry)
    other_seat.refresh_from_db()
    assert other_seat.left_after_game == 0 and not other_seat.plays_game(1)
    # Once the table enters a later game without them, the withdrawal stands.
    stored_sheet(table, build_schedule(day)[2], out=out, version=2)
    with pytest.raises(ServiceError, match="cannot be undone now"):
        reinstate_entry(leaving)


def test_withdrawal_before_play_takes_the_player_out_of_the_seating(tournament, organiser_client):
    entries = register(tournament, *[f"P{i}" for i in range(1, 9)])
    day = tournament.days.get(number=1)
    seat_day(day, seed=3)
    response = organiser_client.post(url(tournament, "players/3/withdraw/"), follow=True)
    page = response.content.decode()
    assert "P3 is withdrawn." in page
    assert "P3 was taken out of day 1&#x27;s tables. Reseat day 1 so the tables stay even." in page
    assert not Seat.objects.filter(entry=entries[2]).exists()
    seat_day(day, seed=3)
    assert day.seats.count() == 7 and not day.seats.filter(entry=entries[2]).exists()
    reinstate_entry(entries[2])
    assert Entry.objects.get(pk=entries[2].pk).status == Entry.REGISTERED


def test_withdrawn_players_are_not_seated_on_later_days(tournament):
    day1, table, _entries = start_day_one(tournament)
    leaving = table.seats.first().entry
    withdraw_entry(leaving)
    day1.closed_at = timezone.now()
    day1.save()
    day2 = tournament.days.get(number=2)
    outcome = seat_day(day2, seed=9)
    seated = {e.pk for t in outcome.tables for e in t}
    assert leaving.pk not in seated and len(seated) == 7
    # the withdrawn player's day-one seat is kept: their scores stay with their table
    assert Seat.objects.filter(day=day1, entry=leaving).exists()


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_each_players_contact_to_their_entries_and_back():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = ("tournaments", "0002_load_rule_presets"), ("tournaments", "0003_entry_contact")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps
    tournament = old.get_model("tournaments", "Tournament").objects.create(slug="old", name="Old")
    player = old.get_model("tournaments", "Player").objects.create(name="Ann", contact="555-0101")
    old.get_model("tournaments", "Entry").objects.create(
        tournament=tournament, player=player, number=1
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([after])
    moved = executor.loader.project_state([after]).apps.get_model("tournaments", "Entry")
    assert moved.objects.get(number=1, tournament__slug="old").contact == "555-0101"
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([before])
    back = executor.loader.project_state([before]).apps
    assert back.get_model("tournaments", "Player").objects.get(pk=player.pk).contact == "555-0101"
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_entry_the_club_its_player_had():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = ("tournaments", "0021_prizes"), ("tournaments", "0022_entry_club")
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([before])
        old = executor.loader.project_state([before]).apps
        tournament = old.get_model("tournaments", "Tournament").objects.create(
            slug="old", name="Old"
        )
        people = old.get_model("tournaments", "Player").objects
        for number, (name, club) in enumerate((("Ann", "Elks"), ("Bob", "")), start=1):
            old.get_model("tournaments", "Entry").objects.create(
                tournament=tournament, player=people.create(name=name, club=club), number=number
            )
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate([after])
        new = executor.loader.project_state([after]).apps.get_model("tournaments", "Entry")
        clubs = new.objects.filter(tournament__slug="old").values_list("player__name", "club")
        assert dict(clubs) == {"Ann": "Elks", "Bob": ""}
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


def scored_sheet(table, game_number, *, without=()):
    """A confirmed sheet with a score for every seated player except ``without``."""
    seats = [s for s in table.seats.select_related("entry") if s.entry not in without]
    points = {s.entry: 5 for s in seats[1:]}
    points[seats[0].entry] = 0
    game = build_schedule(table.day)[game_number - 1]
    return stored_sheet(table, game, points, out=seats[0].entry)


def test_the_organiser_chooses_after_which_game_a_player_left(tournament, organiser_client):
    day, table, _entries = start_day_one(tournament)
    table.sheets.all().delete()
    scored_sheet(table, 1)
    scored_sheet(table, 2)
    leaving = table.seats.order_by("position").last().entry
    page_url = url(tournament, f"players/{leaving.number}/withdraw/")
    page = organiser_client.get(page_url).content.decode()
    assert "Day 1: table 1 has entered up to game 2." in page
    assert '<option value="2" selected>game 2</option>' in page
    assert "Later games will not expect a score from them." in page

    # Game 2 already holds their score: leaving after game 1 is refused beside the field.
    before = snapshot(Entry, Seat)
    response = organiser_client.post(page_url, {"after_game": "1"})
    assert "Day 1, table 1: game 2 already has a score for" in response.content.decode()
    assert snapshot(Entry, Seat) == before
    # A number out of range is refused too.
    response = organiser_client.post(page_url, {"after_game": "99"})
    assert response.status_code == 200 and snapshot(Entry, Seat) == before

    # The paper card has their game 3: record that they left after it.
    organiser_client.post(page_url, {"after_game": "3"})
    seat = Seat.objects.get(day=day, entry=leaving)
    assert seat.left_after_game == 3 and seat.plays_game(3) and not seat.plays_game(4)

    # Undo works until the table enters a later game.
    edit = url(tournament, f"players/{leaving.number}/")
    assert 'id="undo-refusal"' not in organiser_client.get(edit).content.decode()
    reinstate_entry(leaving)
    seat.refresh_from_db()
    assert seat.left_after_game is None
    assert Entry.objects.get(pk=leaving.pk).status == Entry.CHECKED_IN


def test_a_withdrawal_stands_once_the_table_plays_on(tournament, organiser_client):
    _day, table, _entries = start_day_one(tournament)
    table.sheets.all().delete()
    scored_sheet(table, 1)
    leaving = table.seats.order_by("position").last().entry
    withdraw_entry(leaving, after_game=1)
    scored_sheet(table, 2, without=(leaving,))
    page = organiser_client.get(url(tournament, f"players/{leaving.number}/")).content.decode()
    assert 'disabled aria-describedby="undo-refusal">Undo the withdrawal' in page
    assert "Day 1, table 1 has entered game 2 since" in page
    before = snapshot(Entry, Seat)
    organiser_client.post(url(tournament, f"players/{leaving.number}/reinstate/"))
    assert snapshot(Entry, Seat) == before
    # Choosing a game the table entered without the player is refused.
    third = table.seats.order_by("position")[1].entry
    scored_sheet(table, 3, without=(leaving, third))
    with pytest.raises(ServiceError, match="Day 1, table 1: game 3 was entered without"):
        withdraw_entry(third, after_game=3)
    assert Entry.objects.get(pk=third.pk).status != Entry.WITHDRAWN


def test_after_play_starts_the_refused_buttons_are_disabled_with_the_reason(
    tournament, organiser_client
):
    _day, _table, entries = start_day_one(tournament)
    reason = "Day 1 already has scores: nobody joins once play has started"
    for page_url in ("players/", "players/add/", "players/import/"):
        page = organiser_client.get(url(tournament, page_url)).content.decode()
        assert reason in page, page_url
        assert 'disabled aria-describedby="joining-closed"' in page, page_url
    page = organiser_client.get(url(tournament, "check-in/")).content.decode()
    assert 'disabled aria-describedby="checkin-closed"' in page
    assert "nobody can be checked in or out now" in page
    # ...and the server still refuses what a disabled button would have sent.
    before = snapshot(Entry, Player, Seat)
    organiser_client.post(url(tournament, "players/add/"), {"name": "Late Comer"})
    organiser_client.post(url(tournament, f"check-in/{entries[0].number}/"), {"here": "0"})
    assert snapshot(Entry, Player, Seat) == before


def test_a_players_page_shows_their_tables_and_games(tournament, organiser_client):
    _day, table, _entries = start_day_one(tournament)
    table.sheets.all().delete()
    scored_sheet(table, 1)
    player = table.seats.order_by("position").first().entry
    page = organiser_client.get(url(tournament, f"players/{player.number}/")).content.decode()
    text = " ".join(page.split())
    assert "Tables and games" in text
    assert "game 1: 0 (out)" in text
    assert "<td>1</td><td>1</td>" in page.replace("\n", "").replace("    ", "")


def test_the_seating_page_marks_pinned_and_kept_apart_players(tournament, organiser_client):
    entries = register(tournament, *[f"P{i}" for i in range(1, 9)])
    Entry.objects.filter(pk=entries[0].pk).update(pinned_table=1)
    KeepApart.objects.create(tournament=tournament, first=entries[1], second=entries[2])
    seat_day(tournament.days.get(number=1), seed=3)
    page = organiser_client.get(url(tournament, "seating/1/")).content.decode()
    assert '<span class="badge mark">pinned to table 1</span>' in page
    assert '<span class="badge mark">kept apart from P3</span>' in page
    assert '<span class="badge mark">kept apart from P2</span>' in page


# ---------------------------------------------------------------------------
# Check everyone in: a club night where the whole list is present
# ---------------------------------------------------------------------------


def statuses(tournament):
    return dict(tournament.entries.values_list("player__name", "status"))


def test_check_everyone_in_from_the_page_leaves_withdrawn_players_out(organiser_client, tournament):
    ann, _bob, cy = register(tournament, "Ann Lee", "Bob Ray", "Cy Doe")
    set_checked_in(ann, True)
    withdraw_entry(cy)
    page = organiser_client.get(url(tournament, "check-in/")).content.decode()
    assert "Check in everyone not here yet (1)" in page

    response = organiser_client.post(url(tournament, "check-in/everyone/"), follow=True)
    assert "1 player checked in." in response.content.decode()
    assert statuses(tournament) == {
        "Ann Lee": Entry.CHECKED_IN,
        "Bob Ray": Entry.CHECKED_IN,
        "Cy Doe": Entry.WITHDRAWN,
    }
    page = organiser_client.get(url(tournament, "check-in/")).content.decode()
    assert "Check in everyone" not in page  # nobody is left to check in
    assert check_everyone_in(tournament) == 0


def test_check_everyone_in_is_refused_once_play_has_started_and_changes_nothing(
    organiser_client, tournament
):
    start_day_one(tournament)
    late = Entry.objects.filter(tournament=tournament).first()
    Entry.objects.filter(pk=late.pk).update(status=Entry.REGISTERED)
    before = statuses(tournament)
    with pytest.raises(ServiceError, match="whole list cannot be checked in now"):
        check_everyone_in(tournament)
    response = organiser_client.post(url(tournament, "check-in/everyone/"), follow=True)
    assert "check in a late arrival by name" in response.content.decode()
    assert statuses(tournament) == before
    assert organiser_client.get(url(tournament, "check-in/everyone/")).status_code == 405
