"""A table gone quiet: the usual game time measured from the event's own games, and when a
table's next game is overdue."""

from datetime import UTC, datetime, timedelta

from hypothesis import given, strategies as st

from domain.game_pace import (
    MIN_PACES,
    OVERDUE,
    TableTimes,
    pace,
    play_started,
    quiet_table,
    usual_game_time,
)

START = datetime(2026, 6, 6, 9, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def _games(*minutes, phone=True):
    return TableTimes([START + m * MINUTE for m in minutes], phone)


def test_a_tables_pace_is_its_first_to_last_game_over_the_games_between():
    assert pace(_games(20, 40, 60)) == 20 * MINUTE
    # Three games saved together at the end after one at 20: still 20 minutes a game.
    assert pace(_games(20, 79, 80, 80)) == 20 * MINUTE
    assert pace(_games(20)) is None
    assert pace(_games(20, 20)) is None
    assert pace(_games(20, 40, 60, phone=False)) is None  # a paper card keyed at the desk


def test_there_is_no_usual_time_until_enough_tables_have_a_pace():
    tables = [_games(20, 40), _games(25, 50), _games(30)]
    assert usual_game_time(tables) is None
    tables.append(_games(10, 40, phone=False))
    assert usual_game_time(tables) is None
    tables.append(_games(30, 60))
    assert MIN_PACES == 3
    assert usual_game_time(tables) == 25 * MINUTE  # the median of 20, 25, 30


def test_a_table_is_quiet_once_its_next_game_takes_half_as_long_again_as_usual():
    usual = 20 * MINUTE
    table = _games(20, 40)
    last = START + 40 * MINUTE

    def at(minutes):
        return quiet_table(
            table, games_left=3, usual=usual, play_started=START, now=last + minutes * MINUTE
        )

    assert at(30) is None
    quiet = at(31)
    assert quiet is not None and quiet.since == last and quiet.waited == 31 * MINUTE
    assert not quiet.nothing_entered


def test_finished_tables_paper_tables_and_an_event_without_a_usual_time_are_never_quiet():
    late = START + 10 * 60 * MINUTE
    kwargs = {"play_started": START, "now": late}
    assert quiet_table(_games(20), games_left=0, usual=20 * MINUTE, **kwargs) is None
    assert quiet_table(_games(20, phone=False), games_left=2, usual=20 * MINUTE, **kwargs) is None
    assert quiet_table(_games(20), games_left=2, usual=None, **kwargs) is None


def test_a_table_with_nothing_entered_is_measured_from_when_play_started():
    usual = 20 * MINUTE
    started = play_started([START + 22 * MINUTE, START + 25 * MINUTE], usual)
    assert started == START + 2 * MINUTE
    nothing = TableTimes([])
    assert (
        quiet_table(
            nothing, games_left=4, usual=usual, play_started=started, now=started + 30 * MINUTE
        )
        is None
    )
    quiet = quiet_table(
        nothing, games_left=4, usual=usual, play_started=started, now=started + 31 * MINUTE
    )
    assert quiet is not None and quiet.nothing_entered
    assert quiet_table(nothing, games_left=4, usual=usual, play_started=None, now=started) is None
    assert play_started([], usual) is None


@given(
    entries=st.lists(st.integers(0, 600), min_size=0, max_size=12),
    usual_minutes=st.integers(1, 120),
    after=st.integers(0, 600),
    later=st.integers(0, 600),
)
def test_quiet_is_exactly_waiting_longer_than_overdue_and_stays_quiet(
    entries, usual_minutes, after, later
):
    usual = usual_minutes * MINUTE
    table = _games(*entries)
    since = max(table.entered) if table.entered else START
    now = since + after * MINUTE
    quiet = quiet_table(table, games_left=1, usual=usual, play_started=START, now=now)
    assert (quiet is not None) == (now - since > usual * OVERDUE)
    if quiet is not None:
        assert quiet.waited == now - since
        again = quiet_table(
            table, games_left=1, usual=usual, play_started=START, now=now + later * MINUTE
        )
        assert again is not None


@given(st.lists(st.lists(st.integers(0, 600), min_size=2, max_size=8), min_size=3, max_size=20))
def test_the_usual_time_lies_between_the_fastest_and_slowest_table(tables):
    times = [_games(*minutes) for minutes in tables]
    paces = [p for p in map(pace, times) if p is not None]
    usual = usual_game_time(times)
    if len(paces) < MIN_PACES:
        assert usual is None
    else:
        assert min(paces) <= usual <= max(paces)
