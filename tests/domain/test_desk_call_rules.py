"""When a table may call the desk, and how the desk reads a call's age."""

from datetime import UTC, datetime, timedelta

from hypothesis import given, strategies as st

from domain.desk_calls import CALL_GAP, REASON_KEYS, Call, age_words, call_refusal

NOW = datetime(2026, 5, 2, 14, 30, tzinfo=UTC)


def test_a_first_call_for_any_reason_goes_through():
    for reason in REASON_KEYS:
        assert call_refusal(reason, [], None, NOW) == ""


def test_the_same_reason_waits_for_the_desk_and_says_since_when():
    waiting = [Call("dispute", NOW - timedelta(minutes=4))]
    said = call_refusal("dispute", waiting, NOW - timedelta(minutes=4), NOW)
    assert said.startswith("The desk already has your call about a dispute (4 minutes ago)")
    assert call_refusal("done", waiting, NOW - timedelta(minutes=4), NOW) == ""
    said = call_refusal("done", [Call("done", NOW)], NOW, NOW)
    assert "your call about done (just now)" in said


def test_a_second_call_within_a_minute_is_refused_whatever_the_reason():
    just = NOW - CALL_GAP + timedelta(seconds=1)
    said = call_refusal("tile", [], just, NOW)
    assert said == "The desk was called less than a minute ago. Someone will come to your table."
    assert call_refusal("tile", [], NOW - CALL_GAP, NOW) == ""


def test_an_unknown_reason_names_the_buttons():
    for reason in ("", "fire", "DISPUTE", "x" * 500):
        assert "Choose one of the buttons" in call_refusal(reason, [], None, NOW)


@given(st.integers(0, 60 * 30), st.integers(0, 59))
def test_the_age_reads_back_as_the_minutes_passed(minutes, seconds):
    words = age_words(NOW - timedelta(minutes=minutes, seconds=seconds), NOW)
    if minutes == 0:
        assert words == "just now"
        return
    tokens = words.removesuffix(" ago").split()
    read = sum(
        int(count) * (60 if unit.startswith("hour") else 1)
        for count, unit in zip(tokens[::2], tokens[1::2], strict=True)
    )
    assert read == minutes
    # "1 minute", "2 minutes": the unit agrees with its number.
    assert all(
        unit.endswith("s") == (count != "1")
        for count, unit in zip(tokens[::2], tokens[1::2], strict=True)
    )


def test_ages_in_words():
    assert age_words(NOW - timedelta(minutes=1), NOW) == "1 minute ago"
    assert age_words(NOW - timedelta(minutes=12), NOW) == "12 minutes ago"
    assert age_words(NOW - timedelta(minutes=60), NOW) == "1 hour ago"
    assert age_words(NOW - timedelta(minutes=125), NOW) == "2 hours 5 minutes ago"
    # A clock set back never reads as a negative age.
    assert age_words(NOW + timedelta(minutes=3), NOW) == "just now"
