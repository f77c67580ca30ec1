"""The hidden finish's arithmetic: where public standings stop, how much they leave out, and what
the pages say."""

from hypothesis import given, strategies as st

from domain.hidden_finish import (
    HiddenFinish,
    day_shown_whole,
    finish_problem,
    first_hidden,
    games_hidden,
    history_label,
    public_cut,
    public_note,
    staff_note,
    stored_value,
)


def slots(days: int, games: int) -> list[tuple[int, int]]:
    return [(d, g) for d in range(1, days + 1) for g in range(1, games + 1)]


def counted(day, game, days, games) -> set[tuple[int, int]]:
    """The games a cut (day, game) counts, as the standings read it."""
    last = day if day is not None else days
    return {
        (d, g)
        for d, g in slots(days, games)
        if d < last or (d == last and (game is None or g <= game))
    }


schedules = st.tuples(st.integers(1, 4), st.integers(1, 13)).flatmap(
    lambda dg: st.tuples(
        st.just(dg[0]),
        st.just(dg[1]),
        st.integers(1, dg[0]),
        st.one_of(st.none(), st.integers(1, dg[1])),
        st.one_of(st.none(), st.integers(1, dg[0])),
        st.one_of(st.none(), st.integers(1, dg[1])),
    )
)


@given(schedules)
def test_the_public_cut_counts_what_was_asked_and_nothing_hidden(case):
    days, games, hidden_day, hidden_game, asked_day, asked_game = case
    finish = HiddenFinish(hidden_day, hidden_game)
    day, game = public_cut(asked_day, asked_game, finish, days, games)
    visible = counted(hidden_day, hidden_game, days, games)
    assert counted(day, game, days, games) == counted(asked_day, asked_game, days, games) & visible


@given(schedules)
def test_how_many_are_hidden_and_where_they_start(case):
    days, games, hidden_day, hidden_game, *_ = case
    finish = HiddenFinish(hidden_day, hidden_game)
    hidden = sorted(set(slots(days, games)) - counted(hidden_day, hidden_game, days, games))
    assert games_hidden(finish, days, games) == len(hidden)
    if hidden:
        assert first_hidden(finish, games) == hidden[0]
    for day in range(1, days + 1):
        whole = all((day, g) not in hidden for g in range(1, games + 1))
        assert day_shown_whole(finish, day, games) == whole


def test_no_finish_hides_nothing():
    assert public_cut(None, None, None, 2, 13) == (None, None)
    assert public_cut(1, 4, None, 2, 13) == (1, 4)
    assert day_shown_whole(None, 2, 13)
    assert public_note(None, 2, 13) == staff_note(None, 2, 13) == ""


def test_the_cut_asked_for_is_kept_when_it_comes_first():
    finish = HiddenFinish(2, 11)
    assert public_cut(1, None, finish, 2, 13) == (1, None)
    assert public_cut(2, 11, finish, 2, 13) == (2, 11)
    assert public_cut(None, None, finish, 2, 13) == (2, 11)
    assert public_cut(2, 12, finish, 2, 13) == (2, 11)
    # "after game 13 of day 1" is "after day 1".
    assert public_cut(None, None, HiddenFinish(1, 13), 2, 13) == (1, None)


def test_a_finish_past_a_shortened_schedule_hides_nothing():
    finish = HiddenFinish(3, 2)
    assert games_hidden(finish, 2, 13) == 0
    assert public_cut(None, None, finish, 2, 13) == (None, None)
    assert public_note(finish, 2, 13) == ""
    assert "nothing is hidden" in staff_note(finish, 2, 13)
    # Fewer games a day than the game chosen: the whole day shows.
    assert public_cut(None, None, HiddenFinish(1, 12), 2, 10) == (1, None)


def test_refusals_name_the_field():
    assert finish_problem(0, None, 2, 13)[0] == "day"
    assert finish_problem(3, None, 2, 13) == ("day", "Choose a day from 1 to 2.")
    assert finish_problem(1, 14, 2, 13)[0] == "game"
    assert finish_problem(1, 0, 2, 13)[0] == "game"
    field, reason = finish_problem(2, None, 2, 13)
    assert field == "day" and "hides nothing" in reason
    assert finish_problem(2, 13, 2, 13)[0] == "day"
    assert finish_problem(2, 12, 2, 13) is None
    assert finish_problem(1, None, 2, 13) is None


def test_what_the_pages_say():
    assert public_note(HiddenFinish(2, 11), 2, 13) == (
        "The standings are hidden for the last 2 games (from game 12 of day 2) "
        "until the prizes are announced."
    )
    assert public_note(HiddenFinish(2, 12), 2, 13).startswith(
        "The standings are hidden for the last game (from game 13 of day 2)"
    )
    assert "the last 13 games (from day 2)" in public_note(HiddenFinish(1), 2, 13)
    assert staff_note(HiddenFinish(2, 11), 2, 13) == (
        "Public pages and the projector stop after game 11 of day 2: the last 2 games are "
        "hidden until the standings are revealed."
    )
    assert "stop after day 1: the last 13 games are hidden" in staff_note(HiddenFinish(1), 2, 13)
    assert "the last game is hidden" in staff_note(HiddenFinish(2, 12), 2, 13)


def test_the_history_stores_and_reads_back():
    assert history_label(HiddenFinish(2, 11).as_value()) == "Hidden after game 11 of day 2"
    assert history_label(HiddenFinish(1).as_value()) == "Hidden after day 1"
    assert history_label(stored_value(None)) == "Nothing hidden"
    assert stored_value(HiddenFinish(1, 2)) == [1, 2]
    assert HiddenFinish.from_value("junk") is None
    assert HiddenFinish.from_value([2, 11]) == HiddenFinish(2, 11)
