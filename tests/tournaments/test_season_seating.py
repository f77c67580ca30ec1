"""Seating in a season: a new session avoids the season's earlier pairings, and the stored
repeat figures stay measured against the same history whatever changes."""

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from season_factories import club_session, people, season_of

from core.errors import ServiceError
from domain.seating.pairs import count_repeat_pairs, meeting_pairs
from tournaments.models import Day, Season, SeasonEvent
from tournaments.selectors import season_seating_history, seating_history, seatings_by_day
from tournaments.services.seasons import add_events, remove_event
from tournaments.services.seating import seat_day, swap_players

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_seating")]

NINE = [f"P{n}" for n in range(1, 10)]
FIRST_TABLES = [NINE[0:3], NINE[3:6], NINE[6:9]]


def tables_of_three(slug, who, tables=None, names=NINE):
    """An event whose tables seat at most 3; with ``tables`` its day 1 is seated that way,
    otherwise its players are entered and the day is left to seat."""
    made = club_session(slug, tables or [names], who)
    rules = made.event.rules
    rules.max_table_size = 3
    rules.save()
    if tables is None:
        made.day.tables.all().delete()  # entered, not seated yet
    return made


def stored_figures(event):
    return list(
        Day.objects.filter(tournament=event, seated_at__isnull=False)
        .order_by("number")
        .values_list("repeat_pairs", "repeat_lower_bound")
    )


def history_names(event, before_day=1):
    names = {e.pk: e.player.name for e in event.entries.select_related("player")}
    return [
        [sorted(names[p] for p in t) for t in day] for day in seating_history(event, before_day)
    ]


def test_history_maps_the_earlier_events_through_the_player_oldest_first():
    who = people(*NINE, "Zoe")
    first = tables_of_three("w1", who, FIRST_TABLES)
    second = tables_of_three("w2", who, [["P1", "P2", "Zoe"], ["P4", "P7", "P9"]])
    third = tables_of_three("w3", who, names=["P1", "P2", "P4", "P9"])
    season_of("spring", first, second, third)
    # P3, P5, P6, P7, P8 and Zoe are not in the third event: dropped, with tables left alone.
    assert history_names(third.event) == [[["P1", "P2"]], [["P1", "P2"], ["P4", "P9"]]]
    assert history_names(first.event) == []


def test_history_is_a_fixed_number_of_queries():
    who = people(*NINE)
    events = [tables_of_three(f"w{n}", who, FIRST_TABLES) for n in range(1, 3)]
    last = tables_of_three("last", who)
    season = season_of("spring", *events, last)
    with CaptureQueriesContext(connection) as few:
        season_seating_history(last.event)
    more = [tables_of_three(f"x{n}", who, FIRST_TABLES) for n in range(1, 5)]
    add_events(season, [m.event.slug for m in more], position=1)
    with CaptureQueriesContext(connection) as many:
        assert len(season_seating_history(last.event)) == 6
    assert len(few) == len(many) == 1


def test_the_second_event_of_a_season_avoids_the_first_events_pairs():
    who = people(*NINE)
    first = tables_of_three("w1", who, FIRST_TABLES)
    second = tables_of_three("w2", who)
    season_of("spring", first, second)
    outcome = seat_day(second.day, seed=3)
    met = meeting_pairs(seatings_by_day(first.event).values())
    names = {e.pk: e.player.name for e in second.entries.values()}
    first_names = {e.pk: e.player.name for e in first.entries.values()}
    met_names = {frozenset((first_names[a], first_names[b])) for a, b in met}
    for table in outcome.tables:
        for a in table:
            for b in table:
                if a.pk < b.pk:
                    assert frozenset((names[a.pk], names[b.pk])) not in met_names
    assert (outcome.repeat_pairs, outcome.lower_bound) == (0, 0)
    assert stored_figures(second.event) == [(0, 0)]


def test_without_avoiding_earlier_pairings_the_season_is_no_history():
    who = people(*NINE)
    first = tables_of_three("w1", who, FIRST_TABLES)
    second = tables_of_three("w2", who)
    season = season_of("spring", first, second)
    Season.objects.filter(pk=season.pk).update(avoid_earlier_pairings=False)
    assert seating_history(second.event, 1) == []


def test_figures_stay_consistent_through_swaps_and_season_changes():
    who = people(*NINE)
    first = tables_of_three("w1", who, FIRST_TABLES)
    second = tables_of_three("w2", who)
    season = season_of("spring", first, second)
    seat_day(second.day, seed=5)

    def measured():
        tables = seatings_by_day(second.event)[1]
        return count_repeat_pairs(tables, seating_history(second.event, 1))

    # Two players of different tables who sat together in the first event meet again after a
    # swap: the stored count follows.
    by_name = {e.player.name: e for e in second.entries.values()}
    table_of = {
        s.entry.player.name: s.table.number
        for s in second.day.seats.select_related("entry__player", "table")
    }
    partner = next(n for n in ("P2", "P3") if table_of[n] != table_of["P1"])
    other = next(n for n, t in table_of.items() if t == table_of["P1"] and n != "P1")
    swap_players(second.day, by_name[partner], by_name[other])
    assert stored_figures(second.event)[0][0] == measured() >= 1

    # Out of the season, the second event has no earlier session: nothing repeats.
    remove_event(season, "w1")
    assert stored_figures(second.event) == [(0, 0)]
    # Back in front of it, the figures count the first event again.
    add_events(season, ["w1"], position=1)
    assert stored_figures(second.event)[0][0] == measured() >= 1
    assert list(
        SeasonEvent.objects.order_by("position").values_list("tournament__slug", flat=True)
    ) == ["w1", "w2"]


def test_reseating_an_earlier_event_refreshes_the_later_events_figures():
    who = people(*NINE)
    first = tables_of_three("w1", who, FIRST_TABLES)
    second = tables_of_three("w2", who)
    season_of("spring", first, second)
    seat_day(second.day, seed=5)
    assert stored_figures(second.event) == [(0, 0)]
    # The first event is seated again (no scores yet) the way the second one sits.
    second_tables = seatings_by_day(second.event)[1]
    names = {e.pk: e.player.name for e in second.entries.values()}
    first_by_name = {e.player.name: e for e in first.entries.values()}
    from tournaments.services.seating import seat_day_with_tables

    seat_day_with_tables(
        first.day, [[first_by_name[names[p]] for p in table] for table in second_tables]
    )
    assert stored_figures(second.event) == [(9, 0)]


def test_seat_command_prints_the_season_aware_repeats():
    who = people(*NINE)
    first = tables_of_three("w1", who, FIRST_TABLES)
    second = tables_of_three("w2", who)
    season_of("spring", first, second)
    out = io.StringIO()
    call_command("seat", "w2", "--day", "1", "--seed", "1", stdout=out)
    assert "Pairs who have sat together before: 0 (fewest possible: 0)" in out.getvalue()


def test_an_event_in_two_seasons_is_refused_and_nothing_changes():
    who = people(*NINE)
    first = tables_of_three("w1", who, FIRST_TABLES)
    season_of("spring", first)
    other = season_of("autumn")
    with pytest.raises(ServiceError, match="already in the season Spring"):
        add_events(other, ["w1"])
    assert SeasonEvent.objects.filter(season=other).count() == 0


def test_day_two_of_a_two_day_event_counts_the_season_then_its_own_day_one():
    who = people(*NINE)
    first = tables_of_three("w1", who, FIRST_TABLES)
    cup = club_session("cup", [NINE], who, preset="tournament")
    rules = cup.event.rules
    rules.max_table_size = 3
    rules.save()
    cup.day.tables.all().delete()
    season_of("spring", first, cup)
    seat_day(cup.day, seed=2)
    day2 = cup.event.days.get(number=2)
    outcome = seat_day(day2, seed=2)
    history = seating_history(cup.event, 2)
    assert len(history) == 2  # the first event's session, then day 1
    assert history[1] == seatings_by_day(cup.event)[1]
    assert stored_figures(cup.event) == [(0, 0), (outcome.repeat_pairs, outcome.lower_bound)]
    # Nine players at tables of three: day 1 and day 2 can both avoid every earlier pair.
    assert outcome.repeat_pairs == outcome.lower_bound == 0
