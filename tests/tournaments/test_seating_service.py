"""Seating a day through the ORM: stored tables, constraints, the bound, locks, pages, printouts."""

import io
from collections import Counter

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import CommandError
from pypdf import PdfReader
from scoring_factories import organiser_url as url, register, stored_sheet

from core.errors import ServiceError
from core.search import surname_key
from domain.seating.bounds import repeat_lower_bound
from domain.seating.pairs import count_repeat_pairs, table_sizes
from domain.seating.plan_following import pairs_again
from scoring.models import Game, SheetState
from tournaments import hooks, selectors
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, Seat, Table
from tournaments.services.events import set_public_pages
from tournaments.services.registration import (
    add_keep_apart,
    register_player,
    set_checked_in,
    update_entry,
)
from tournaments.services.seating import check_move, check_swap, move_player, seat_day, swap_players

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_seating")]


def stored_tables(day) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    for number, entry_id in Seat.objects.filter(day=day).values_list("table__number", "entry_id"):
        tables.setdefault(number, []).append(entry_id)
    return [sorted(tables[n]) for n in sorted(tables)]


def start_play(day):
    """Table 1 enters game 1 (not confirmed yet): play has started."""
    table = day.tables.order_by("number").first()
    stored_sheet(
        table,
        Game.objects.get(day=day, number=1),
        out=table.seats.first().entry,
        state=SheetState.ENTERED,
    )


# ---------------------------------------------------------------------------
# The adapter
# ---------------------------------------------------------------------------


def test_day_one_stores_even_tables_seed_and_games(tournament):
    entries = register(tournament, count=43)
    day = tournament.days.get(number=1)
    outcome = seat_day(day, seed=11)
    tables = stored_tables(day)
    assert [len(t) for t in tables] == table_sizes(43, 7) == [7, 6, 6, 6, 6, 6, 6]
    assert sorted(p for t in tables for p in t) == sorted(e.pk for e in entries)
    assert list(day.tables.values_list("number", flat=True)) == list(range(1, 8))
    day.refresh_from_db()
    assert (day.seed, day.repeat_pairs, day.repeat_lower_bound) == (11, 0, 0)
    assert day.seated_at is not None
    assert [sorted(e.pk for e in t) for t in outcome.tables] == tables
    assert list(Game.objects.filter(day=day).values_list("scheduled_engine", flat=True)) == [
        12,
        11,
        10,
        9,
        8,
        7,
    ]
    # seats are numbered 1.. within each table in player-number order
    table = day.tables.get(number=1)
    numbers = list(table.seats.order_by("position").values_list("entry__number", flat=True))
    assert numbers == sorted(numbers)
    assert list(table.seats.order_by("position").values_list("position", flat=True)) == list(
        range(1, len(numbers) + 1)
    )


def test_a_random_seed_is_drawn_and_stored_when_none_is_given(tournament):
    register(tournament, count=10)
    day = tournament.days.get(number=1)
    outcome = seat_day(day)
    day.refresh_from_db()
    assert day.seed == outcome.seed and 0 <= day.seed < 2**31


def test_same_seed_gives_the_same_stored_seating(tournament):
    entries = register(tournament, count=30)
    add_keep_apart(entries[0], entries[1])
    entries[5].pinned_table = 3
    entries[5].save()
    day1, day2 = tournament.days.order_by("number")
    seat_day(day1, seed=5)
    seat_day(day2, seed=77)
    first = stored_tables(day2)
    seat_day(day2, seed=78)
    seat_day(day2, seed=77)
    assert stored_tables(day2) == first
    seatings = set()
    for seed in range(4):
        seat_day(day1, seed=seed)
        seatings.add(tuple(map(tuple, stored_tables(day1))))
    assert len(seatings) > 1  # the seed really drives the draw


def test_day_two_reaches_the_proven_bound_and_counts_repeats_from_stored_seats(tournament):
    register(tournament, count=43)
    day1, day2 = tournament.days.order_by("number")
    seat_day(day1, seed=1)
    outcome = seat_day(day2, seed=2)
    history = [stored_tables(day1)]
    tables = stored_tables(day2)
    ids = [p for t in tables for p in t]
    day2.refresh_from_db()
    assert day2.repeat_pairs == count_repeat_pairs(tables, history) == outcome.repeat_pairs
    assert day2.repeat_lower_bound == repeat_lower_bound(ids, table_sizes(43, 7), history)
    assert day2.repeat_pairs == day2.repeat_lower_bound


def test_small_field_day_two_must_repeat_and_says_so(tournament):
    # 9 players at 2 tables: day 1 tables of 5 and 4 cannot all be split, so repeats are forced
    register(tournament, count=9)
    day1, day2 = tournament.days.order_by("number")
    seat_day(day1, seed=1)
    outcome = seat_day(day2, seed=1)
    assert outcome.lower_bound > 0
    assert outcome.repeat_pairs == outcome.lower_bound


def test_keep_apart_and_pins_hold_in_the_stored_seating(tournament):
    entries = register(tournament, count=20)
    couples = [(entries[0], entries[1]), (entries[2], entries[3]), (entries[0], entries[4])]
    for a, b in couples:
        add_keep_apart(a, b)
    pins = {entries[1].pk: 2, entries[7].pk: 3, entries[8].pk: 3}
    for entry in entries:
        if entry.pk in pins:
            entry.pinned_table = pins[entry.pk]
            entry.save()
    for day in tournament.days.order_by("number"):
        seat_day(day, seed=day.number)
        table_of = dict(Seat.objects.filter(day=day).values_list("entry_id", "table__number"))
        for a, b in couples:
            assert table_of[a.pk] != table_of[b.pk]
        for pk, table in pins.items():
            assert table_of[pk] == table


def test_only_checked_in_players_are_seated_once_anyone_is_checked_in(tournament):
    entries = register(tournament, count=12)
    day = tournament.days.get(number=1)
    everyone = seat_day(day, seed=1)
    assert sum(len(t) for t in everyone.tables) == 12  # nobody checked in: all registered
    for entry in entries[:9]:
        set_checked_in(entry, True)
    outcome = seat_day(day, seed=1)
    seated = {e.pk for t in outcome.tables for e in t}
    assert seated == {e.pk for e in entries[:9]}
    assert [len(t) for t in outcome.tables] == [5, 4]


def test_seating_error_names_the_players(tournament):
    entries = register(tournament, count=6)  # one table of 6: nobody can sit apart
    add_keep_apart(entries[0], entries[1])
    with pytest.raises(
        ServiceError,
        match=r"Player 1 \(#1\) and Player 2 \(#2\) must sit apart, "
        r"but there is only one table\.",
    ):
        seat_day(tournament.days.get(number=1), seed=1)
    assert not Seat.objects.exists()


def test_nobody_to_seat(tournament):
    with pytest.raises(ServiceError, match="There is nobody to seat"):
        seat_day(tournament.days.get(number=1))


def test_reshuffle_off_keeps_yesterdays_tables_when_they_still_fit(tournament):
    rules = tournament.rules
    rules.reshuffle_each_day = False
    rules.save()
    tournament.refresh_from_db()
    register(tournament, count=14)
    day1, day2 = tournament.days.order_by("number")
    seat_day(day1, seed=4)
    outcome = seat_day(day2, seed=5)
    assert outcome.kept_tables
    assert stored_tables(day2) == stored_tables(day1)
    assert outcome.repeat_pairs == 2 * 21  # two tables of 7 meet again in full


# ---------------------------------------------------------------------------
# Lock once play starts
# ---------------------------------------------------------------------------


def test_a_started_day_cannot_be_reseated_or_changed(tournament, organiser_client):
    register(tournament, count=14)
    day = tournament.days.get(number=1)
    seat_day(day, seed=1)
    start_play(day)
    before = stored_tables(day)
    with pytest.raises(ServiceError, match="Day 1 already has scores, so its tables are fixed"):
        seat_day(day, seed=2)
    a, b = (
        day.tables.get(number=1).seats.first().entry,
        day.tables.get(number=2).seats.first().entry,
    )
    with pytest.raises(ServiceError, match="already has scores"):
        swap_players(day, a, b)
    with pytest.raises(ServiceError, match="already has scores"):
        check_move(day, a, 2)
    response = organiser_client.post(url(tournament, "seating/1/seat/"), {"seed": "3"})
    assert response.status_code == 400
    assert "tables are fixed: nobody joins, moves or is substituted" in response.content.decode()
    page = organiser_client.get(url(tournament, "seating/1/")).content.decode()
    assert "Reseat day 1" not in page and "Swap two players" not in page
    assert stored_tables(day) == before
    assert selectors.first_started_day(tournament) == 1 and selectors.play_started(tournament)
    assert [(d.number, d.playing) for d in selectors.seating_days(tournament)] == [
        (1, True),
        (2, False),
    ]
    index = organiser_client.get(url(tournament, "seating/")).content.decode()
    assert "Playing: seating fixed" in index


def test_play_started_is_answered_by_the_app_that_records_play(tournament, monkeypatch):
    register(tournament, count=14)
    day = tournament.days.get(number=1)
    seat_day(day, seed=1)
    assert not day.scores_started() and not Table.objects.with_scores().exists()
    start_play(day)
    table = day.tables.order_by("number").first()
    stored_sheet(
        table,
        Game.objects.get(day=day, number=2),
        out=table.seats.first().entry,
        state=SheetState.ENTERED,
    )
    # Two sheets, one table: a table is listed once however many games it has entered.
    assert list(Table.objects.with_scores()) == [table]
    assert day.scores_started()
    monkeypatch.setattr(hooks, "_play_record", None)
    with pytest.raises(ImproperlyConfigured, match="add scoring to INSTALLED_APPS"):
        day.scores_started()


def test_call_command_seat_prints_tables_and_the_bound(tournament, capsys):
    register(tournament, count=15)
    call_command("seat", "spring", "--day", "1", "--seed", "8")
    call_command("seat", "spring", "--day", "2", "--seed", "9")
    out = capsys.readouterr().out.splitlines()
    day2 = tournament.days.get(number=2)
    said = pairs_again(day2.repeat_pairs, day2.repeat_lower_bound)
    assert out[-1] == said[:1].upper() + said[1:]
    day2_lines = out[out.index("Spring, day 2: shuffle number 9") + 1 : -1]
    assert len(day2_lines) == 3
    for number, line in enumerate(day2_lines, start=1):
        names = [
            s.entry.player.name for s in day2.tables.get(number=number).seats.order_by("position")
        ]
        numbers = [
            s.entry.number for s in day2.tables.get(number=number).seats.order_by("position")
        ]
        expected = ", ".join(f"#{n} {name}" for n, name in zip(numbers, names, strict=True))
        assert line == f"Table {number} ({len(names)}): {expected}"


def test_seat_command_fails_with_a_message(tournament):
    with pytest.raises(CommandError, match="There is nobody to seat"):
        call_command("seat", "spring", "--day", "1")
    with pytest.raises(CommandError, match="has no day 5; it has 2 days"):
        call_command("seat", "spring", "--day", "5")
    with pytest.raises(CommandError, match='no tournament with the slug "nope"'):
        call_command("seat", "nope", "--day", "1")


# ---------------------------------------------------------------------------
# Moves and swaps by hand
# ---------------------------------------------------------------------------


@pytest.fixture
def seated_two_days(tournament):
    entries = register(tournament, count=13)  # tables of 7 and 6
    day1, day2 = tournament.days.order_by("number")
    seat_day(day1, seed=1)
    seat_day(day2, seed=1)
    return tournament, day1, day2, entries


def test_move_refuses_a_table_above_the_maximum(seated_two_days):
    _tournament, day1, _day2, _entries = seated_two_days
    small = day1.tables.get(number=2).seats.first().entry
    with pytest.raises(
        ServiceError, match="Table 1 already has 7 players, the most a table may seat"
    ):
        move_player(day1, small, 1)
    big = day1.tables.get(number=1).seats.first().entry
    move_player(day1, big, 2)
    assert [len(t) for t in stored_tables(day1)] == [6, 7]


def test_move_warns_of_a_repeat_meeting_before_saving(seated_two_days, organiser_client):
    tournament, day1, day2, _entries = seated_two_days
    day1_table = dict(Seat.objects.filter(day=day1).values_list("entry_id", "table__number"))
    # a player at day-2 table 1 whose day-1 table-mates are mostly at day-2 table 2
    mover = next(s.entry for s in day2.tables.get(number=1).seats.all())
    warnings = check_move(day2, mover, 2)
    mates = [
        s.entry
        for s in day2.tables.get(number=2).seats.all()
        if day1_table[s.entry_id] == day1_table[mover.pk]
    ]
    assert sorted(warnings) == sorted(
        f"{min(mover, m, key=lambda e: e.pk).player.name} and "
        f"{max(mover, m, key=lambda e: e.pk).player.name} already met on an earlier day."
        for m in mates
    )
    assert warnings  # 13 players in two tables: some day-1 pair must meet at the other table
    before = stored_tables(day2)
    response = organiser_client.post(
        url(tournament, "seating/2/move/"), {"entry": mover.pk, "table": 2}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert f"Move {mover.player.name} to table 2?" in page and "Move anyway" in page
    assert stored_tables(day2) == before  # nothing saved before the confirm
    response = organiser_client.post(
        url(tournament, "seating/2/move/"), {"entry": mover.pk, "table": 2, "confirmed": "on"}
    )
    assert response.status_code == 302
    assert Seat.objects.get(day=day2, entry=mover).table.number == 2
    day2.refresh_from_db()
    assert day2.repeat_pairs == count_repeat_pairs(stored_tables(day2), [stored_tables(day1)])


def test_swap_warns_of_a_keep_apart_pair(seated_two_days, organiser_client):
    tournament, day1, _day2, _entries = seated_two_days
    t1 = [s.entry for s in day1.tables.get(number=1).seats.all()]
    t2 = [s.entry for s in day1.tables.get(number=2).seats.all()]
    add_keep_apart(t1[0], t2[1])
    assert check_swap(day1, t1[1], t2[0]) == []  # the pair stays at different tables
    warnings = check_swap(day1, t1[0], t2[0])
    names = sorted([t1[0], t2[1]], key=lambda e: e.pk)
    assert (
        f"{names[0].player.name} and {names[1].player.name} must sit apart, "
        "but would share a table."
    ) in warnings
    response = organiser_client.post(
        url(tournament, "seating/1/swap/"), {"first": t1[0].pk, "second": t2[0].pk}
    )
    assert "Swap anyway" in response.content.decode()
    response = organiser_client.post(
        url(tournament, "seating/1/swap/"),
        {"first": t1[0].pk, "second": t2[0].pk, "confirmed": "on"},
    )
    assert response.status_code == 302
    table_of = dict(Seat.objects.filter(day=day1).values_list("entry_id", "table__number"))
    assert (table_of[t1[0].pk], table_of[t2[0].pk]) == (2, 1)
    assert [len(t) for t in stored_tables(day1)] == [7, 6]


def test_swap_without_warnings_saves_at_once(seated_two_days, organiser_client):
    tournament, day1, _day2, _entries = seated_two_days
    a = day1.tables.get(number=1).seats.first().entry
    b = day1.tables.get(number=2).seats.first().entry
    assert check_swap(day1, a, b) == []  # day 1 has no history and no keep-apart pairs
    response = organiser_client.post(
        url(tournament, "seating/1/swap/"), {"first": a.pk, "second": b.pk}
    )
    assert response.status_code == 302
    with pytest.raises(ServiceError, match="are both at table 2"):
        swap_players(
            day1, a, Seat.objects.filter(day=day1, table__number=2).exclude(entry=a).first().entry
        )


def test_a_swap_on_day_one_updates_the_stored_count_of_day_two(tournament):
    register(tournament, count=8)  # two tables of 4
    day1, day2 = tournament.days.order_by("number")
    seat_day(day1, seed=3)
    seat_day(day2, seed=3)
    day2.refresh_from_db()
    day1_before, day2_tables = stored_tables(day1), stored_tables(day2)

    def day2_repeats_after(a, b):
        day1_after = [[b if p == a else a if p == b else p for p in t] for t in day1_before]
        return count_repeat_pairs(day2_tables, [day1_after])

    # a swap that changes day 2's count, so a count left stale would show
    first, second = next(
        (a, b)
        for a in day1_before[0]
        for b in day1_before[1]
        if day2_repeats_after(a, b) != day2.repeat_pairs
    )
    swap_players(day1, Entry.objects.get(pk=first), Entry.objects.get(pk=second))
    day2.refresh_from_db()
    history = [stored_tables(day1)]
    ids = [p for t in day2_tables for p in t]
    assert (
        day2.repeat_pairs
        == count_repeat_pairs(day2_tables, history)
        == day2_repeats_after(first, second)
    )
    assert day2.repeat_lower_bound == repeat_lower_bound(ids, table_sizes(8, 7), history)


def test_a_new_pin_updates_the_stored_bound(tournament):
    entries = register(tournament, count=8)
    day1, day2 = tournament.days.order_by("number")
    seat_day(day1, seed=3)
    seat_day(day2, seed=3)
    day2.refresh_from_db()
    unpinned_bound = day2.repeat_lower_bound
    day1_tables = stored_tables(day1)
    # pin three day-1 table-mates to one table: they and the other table's four must meet more
    pinned = [next(e for e in entries if e.pk == p) for p in day1_tables[0][:3]]
    for entry in pinned:
        update_entry(
            entry, name=entry.player.name, club="", contact="", pinned_table=1, user=COMMAND_LINE
        )
    day2.refresh_from_db()
    day1.refresh_from_db()
    ids = [p for t in stored_tables(day2) for p in t]
    assert (
        day2.repeat_lower_bound
        == repeat_lower_bound(ids, table_sizes(8, 7), [day1_tables], {e.pk: 1 for e in pinned})
        > unpinned_bound
    )
    assert day1.repeat_lower_bound == 0  # nothing to repeat on the first day


# ---------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------


def test_seating_page_shows_tables_and_the_bound(seated_two_days, organiser_client):
    tournament, _day1, day2, _entries = seated_two_days
    day2.refresh_from_db()
    page = organiser_client.get(url(tournament, "seating/2/")).content.decode()
    said = pairs_again(day2.repeat_pairs, day2.repeat_lower_bound)
    assert said[:1].upper() + said[1:] in page
    assert "lower bound" not in page and "Repeat pairs" not in page
    assert f"shuffle number {day2.seed}" in page
    for seat in Seat.objects.filter(day=day2).select_related("entry__player"):
        assert seat.entry.player.name in page
    assert page.count('class="seating-table"') == 2
    assert "met Player" in page  # forced repeats are flagged beside the names


def test_seating_page_form_error_names_players(tournament, organiser_client):
    entries = register(tournament, count=5)
    add_keep_apart(entries[2], entries[3])
    response = organiser_client.post(url(tournament, "seating/1/seat/"), {"seed": ""})
    assert response.status_code == 400
    assert (
        "Player 3 (#3) and Player 4 (#4) must sit apart, but there is only one table."
        in response.content.decode()
    )


def test_seat_page_seats_and_reports(tournament, organiser_client):
    register(tournament, count=10)
    response = organiser_client.post(
        url(tournament, "seating/1/seat/"), {"seed": "42"}, follow=True
    )
    page = response.content.decode()
    assert (
        "Day 1 is seated at 2 tables (shuffle number 42): pairs who have sat together before: 0 "
        "(fewest possible: 0)." in page
    )
    assert "Seed" not in page and "lower bound" not in page


def test_day_seating_is_a_fixed_number_of_queries(tournament, django_assert_num_queries):
    register(tournament, count=8)
    day1, day2 = tournament.days.order_by("number")
    seat_day(day1, seed=1)
    seat_day(day2, seed=1)
    with django_assert_num_queries(5):
        selectors.day_seating(day2)
    more = [register_player(tournament, name=f"Extra {i}") for i in range(30)]
    add_keep_apart(more[0], more[1])
    seat_day(day1, seed=2)
    seat_day(day2, seed=2)
    with django_assert_num_queries(5):
        data = selectors.day_seating(day2)
    assert data["seated_count"] == 38


def test_find_your_table_shows_each_day(tournament, client):
    set_public_pages(tournament, True)  # a new event's public pages start off
    register_player(tournament, name="Renée Côté")
    register(tournament, count=9)
    day1, _day2 = tournament.days.order_by("number")
    seat_day(day1, seed=1)
    public = f"/t/{tournament.slug}/find-your-table/"
    page = client.get(public, {"q": "RENé"}).content.decode()
    renee = Entry.objects.get(player__name="Renée Côté")
    table1 = Seat.objects.get(day=day1, entry=renee).table.number
    assert "Renée Côté" in page
    assert f'Day 1: <strong class="find-table-number">Table {table1}</strong>' in page
    assert 'Day 2: <span class="muted">no table yet</span>' in page
    page = client.get(public, {"q": "PLAYER 1"}).content.decode()
    assert "Player 1<" in page and "Player 2<" not in page
    assert "Type at least two letters" in client.get(public, {"q": "r"}).content.decode()
    assert 'Nobody\'s name contains "zzz"' in client.get(public, {"q": "zzz"}).content.decode()
    tournament.public_pages = False
    tournament.save()
    assert client.get(public, {"q": "renée"}).status_code == 404


def test_public_home_links_to_find_your_table(tournament, client):
    set_public_pages(tournament, True)  # a new event's public pages start off
    page = client.get(f"/t/{tournament.slug}/").content.decode()
    assert f'href="/t/{tournament.slug}/find-your-table/"' in page


# ---------------------------------------------------------------------------
# Printouts
# ---------------------------------------------------------------------------


def pdf_text(content: bytes) -> str:
    reader = PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_seating_chart_and_find_your_table_pdfs_hold_every_name(tournament, organiser_client):
    awkward = ["Dan O'Neil & Co", "Eve <Smith>", "Renée Côté", 'Jo "Ace" Ray']
    for name in awkward:
        register_player(tournament, name=name)
    register(tournament, count=20)
    day = tournament.days.get(number=1)
    seat_day(day, seed=6)
    response = organiser_client.get(url(tournament, "seating/1/chart.pdf"))
    assert response["Content-Type"] == "application/pdf"
    assert "spring-day1-seating-chart.pdf" in response["Content-Disposition"]
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1  # four tables, four blocks a page
    text = pdf_text(response.content)
    for name in awkward + [f"Player {i}" for i in range(1, 21)]:
        assert name in text
    for number in range(1, 5):
        assert f"Table {number}" in text

    response = organiser_client.get(url(tournament, "seating/1/find-your-table.pdf"))
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    table_of = {
        s.entry.player.name: s.table.number
        for s in Seat.objects.filter(day=day).select_related("entry__player", "table")
    }
    lines = text.splitlines()
    # each entry reads "Name (#n)" then "Table t" (pypdf breaks the line at the gap between them)
    listed = [(line.split(" (#")[0], lines[i + 1]) for i, line in enumerate(lines) if "(#" in line]
    assert len(listed) == 24
    names = [name for name, _ in listed]
    assert names == sorted(names, key=surname_key)
    assert listed == [(name, f"Table {table_of[name]}") for name in names]


def test_seating_pdfs_print_a_tournament_name_the_font_cannot_draw(tournament, organiser_client):
    # the same fallback as names and the other printouts: "?" for a letter the font lacks
    tournament.name = "Spring \U0001f682 Open"
    tournament.save(update_fields=["name"])
    register(tournament, count=8)
    seat_day(tournament.days.get(number=1), seed=1)
    chart = pdf_text(organiser_client.get(url(tournament, "seating/1/chart.pdf")).content)
    assert "Spring ? Open: day 1 seating" in chart and "\U0001f682" not in chart
    door = pdf_text(organiser_client.get(url(tournament, "seating/1/find-your-table.pdf")).content)
    assert "Spring ? Open: day 1" in door and "\U0001f682" not in door


def test_chart_pdf_spreads_many_tables_over_pages(tournament, organiser_client):
    register(tournament, count=43)
    seat_day(tournament.days.get(number=1), seed=1)
    response = organiser_client.get(url(tournament, "seating/1/chart.pdf"))
    assert len(PdfReader(io.BytesIO(response.content)).pages) == 2  # 7 tables, 4 a page
    counts = Counter(pdf_text(response.content).split())
    assert counts["Table"] == 7


def test_desk_staff_may_print_but_not_seat(tournament, client, make_user):
    from tournaments.models import StaffRole

    desk = make_user("desk1")
    StaffRole.objects.create(tournament=tournament, user=desk, role=StaffRole.DESK)
    client.force_login(desk)
    register(tournament, count=8)
    assert client.post(url(tournament, "seating/1/seat/"), {"seed": "1"}).status_code == 403
    seat_day(tournament.days.get(number=1), seed=1)
    assert client.get(url(tournament, "seating/1/chart.pdf")).status_code == 200
    page = client.get(url(tournament, "seating/1/")).content.decode()
    assert "Player 1" in page and "Reseat day 1" not in page
    assert Table.objects.count() == 2
