"""The formats checked together (issue 27): a movement cannot seat within flights, a movement
beside a final needs a session to move into before it, and formats that fit together pass."""

import pytest

from domain.rules import rule_problems
from tournaments.presets import preset_rows

MOVEMENT = {"session_seating": "movement", "move_up": 1, "move_down": 1}
FINAL = {"final_qualify": "overall", "final_qualifiers": 4, "final_tables": 1}


def club_session(**changes) -> dict:
    values = next(row for row in preset_rows() if row["key"] == "club-session")
    return {
        k: v for k, v in values.items() if k not in ("key", "name", "source", "sources")
    } | changes


@pytest.mark.parametrize(
    "changes, field, words",
    [
        (
            {"days": 2, "flights": ["Gold", "Silver"], "seat_within_flights": True} | MOVEMENT,
            "seat_within_flights",
            "A movement moves players table to table whatever their flight",
        ),
        (
            {"days": 2} | MOVEMENT | FINAL,
            "session_seating",
            "With a final on the last day, a movement needs at least 3 days",
        ),
        ({"seat_within_flights": True}, "seat_within_flights", "needs the event's flights"),
    ],
)
def test_formats_that_cannot_go_together_are_refused_with_the_field(changes, field, words):
    problems = rule_problems(club_session(**changes))
    assert field in problems, problems
    assert any(words in p for p in problems[field]), problems[field]


@pytest.mark.parametrize(
    "changes",
    [
        {"days": 3} | MOVEMENT | FINAL,
        {"days": 2, "flights": ["Gold", "Silver"], "seat_within_flights": True} | FINAL,
        {"days": 2, "flights": ["Gold", "Silver"]} | MOVEMENT,
    ],
)
def test_formats_that_fit_together_pass(changes):
    assert rule_problems(club_session(**changes)) == {}
