"""Day 1 spreads each club across the tables; the seating page reports the spread."""

from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st
from scoring_factories import organiser_url as url, text_of

from domain.seating.day import seat
from domain.seating.pairs import club_groups, club_spread, table_sizes
from tournaments.models import Seat
from tournaments.services.registration import add_keep_apart, register_player
from tournaments.services.seating import seat_day


def most_of_one_club(tables, clubs) -> int:
    return max(
        max(Counter(clubs[p] for p in table if clubs.get(p)).values(), default=0)
        for table in tables
    )


# --- the pure seating -------------------------------------------------------------------------


def test_five_from_one_chapter_never_sit_four_at_one_table():
    # The organiser's trial: 5 from one chapter among 20 players at 3 tables.
    clubs = dict.fromkeys(range(1, 6), "Chapter 9") | {p: f"Club {p}" for p in range(6, 21)}
    for seed in range(30):
        tables = seat(range(1, 21), 7, seed=seed, clubs=clubs).tables
        assert most_of_one_club(tables, clubs) == 2  # ceil(5 / 3)
        assert club_spread(tables, clubs) == (2, 2)


def test_the_same_seed_gives_the_same_seating_with_clubs():
    clubs = {p: f"C{p % 4}" for p in range(40)}
    first = seat(range(40), 7, seed=5, clubs=clubs)
    assert first == seat(range(40), 7, seed=5, clubs=clubs)
    assert first.repeat_pairs == first.lower_bound == 0  # day 1 has no repeats to report


def test_without_clubs_day_one_is_the_plain_seeded_shuffle():
    assert seat(range(30), 6, seed=3) == seat(range(30), 6, seed=3, clubs={})
    assert seat(range(30), 6, seed=3) == seat(range(30), 6, seed=3, clubs=None)


def test_pins_and_keep_apart_pairs_come_before_the_club_spread():
    clubs = dict.fromkeys(range(1, 8), "Lakeside") | dict.fromkeys(range(8, 22), "")
    # Three of the club pinned to table 1 (the most any table needs): the rest spread around.
    pins = {1: 1, 2: 1, 3: 1}
    result = seat(range(1, 22), 7, seed=1, clubs=clubs, pinned=pins, keep_apart=[(4, 5)])
    tables = result.tables
    assert {1, 2, 3} <= set(tables[0])
    assert not any(4 in t and 5 in t for t in tables)
    largest, best = club_spread(tables, clubs)
    assert (largest, best) == (3, 3)


def test_clubs_are_ignored_after_day_one_so_repeats_do_not_rise():
    clubs = {p: f"C{p % 3}" for p in range(42)}
    day_1 = seat(range(42), 7, seed=2, clubs=clubs).tables
    plain = seat(range(42), 7, seed=9, history=[day_1])
    with_clubs = seat(range(42), 7, seed=9, history=[day_1], clubs=clubs)
    assert with_clubs == plain and plain.repeat_pairs == plain.lower_bound


def test_club_names_match_whatever_the_case_and_spaces():
    assert club_groups([1, 2, 3, 4], {1: "Sun  City", 2: "sun city ", 3: "", 4: "Palms"}) == [
        [1, 2]
    ]
    assert club_spread([[1, 2], [3, 4]], {1: "A", 2: "a"}) == (2, 1)
    assert club_spread([], {}) == (0, 0)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 60),
    st.integers(4, 8),
    st.lists(st.integers(0, 6), min_size=60, max_size=60),
    st.integers(0, 10**6),
)
def test_any_field_reaches_the_best_club_spread(players, max_size, club_of, seed):
    clubs = {p: (f"Club {club_of[p]}" if club_of[p] else "") for p in range(players)}
    tables = seat(range(players), max_size, seed=seed, clubs=clubs).tables
    assert [len(t) for t in tables] == table_sizes(players, max_size)
    largest, best = club_spread(tables, clubs)
    assert largest == best
    for group in club_groups(range(players), clubs):
        counts = Counter(next(i for i, t in enumerate(tables) if p in t) for p in group)
        per_table = [counts.get(i, 0) for i in range(len(tables))]
        assert max(per_table) - min(per_table) <= 1  # as even as the numbers allow


# --- the service and the seating page ---------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.usefixtures("quick_seating")
def test_day_one_spreads_clubs_and_the_page_reports_it(organiser_client, tournament):
    for i in range(5):
        register_player(tournament, name=f"Chapter {i}", club="Chapter 9")
    for i in range(16):
        register_player(tournament, name=f"Other {i}", club=f"Club {i % 8}")
    day = tournament.days.get(number=1)
    seat_day(day, seed=4)
    tables: dict[int, list[str]] = {}
    for number, club in Seat.objects.filter(day=day).values_list("table__number", "entry__club"):
        tables.setdefault(number, []).append(club)
    assert max(Counter(c)["Chapter 9"] for c in tables.values()) == 2  # 5 players, 3 tables
    page = text_of(organiser_client.get(url(tournament, "seating/1/")))
    assert "at most 2 of one club at a table (best possible: 2)" in page


@pytest.mark.django_db
@pytest.mark.usefixtures("quick_seating")
def test_the_option_off_leaves_day_one_as_a_plain_shuffle(tournament):
    tournament.rules.spread_clubs = False
    tournament.rules.save()
    entries = [register_player(tournament, name=f"P{i}", club="Same") for i in range(14)]
    keep = register_player(tournament, name="Other", club="")
    add_keep_apart(entries[0], keep)
    day = tournament.days.get(number=1)
    seat_day(day, seed=8)
    stored = sorted(
        sorted(Seat.objects.filter(table=t).values_list("entry_id", flat=True))
        for t in day.tables.all()
    )
    ids = [e.pk for e in entries] + [keep.pk]
    expected = seat(ids, 7, seed=8, keep_apart=[(entries[0].pk, keep.pk)]).tables
    assert stored == sorted(expected)
