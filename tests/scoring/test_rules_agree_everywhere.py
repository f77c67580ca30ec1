"""For every preset and for custom rules, a day's schedule, the workbook, the phone page and
the printed sheets agree; a changed rule reaches all of them; and the organisers' own cases."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from scoring_factories import seated_day

from domain.sheet_checks import engine_choices, expected_engine
from scoring.models import Game
from scoring.score_sheets_pdf import score_sheets_pdf
from scoring.selectors import day_workbook_rows, sheet_rules
from tournaments.access import COMMAND_LINE
from tournaments.models import Day
from tournaments.presets import preset_rows
from tournaments.services.rules import change_rules

pytestmark = pytest.mark.django_db

TABLES = (("Ann Lee", "Bob Roe", "Cy Doe", "Di Fox"), ("Ed Poe", "Flo Ng", "Gus Ray"))
PHONE_ROW = re.compile(r'<th scope="row">(\d+)</th>\s*<td><span class="muted">(\d+)</span>')


def outputs(w, client) -> dict:
    """What each output says about the day: engines by game, and the hand size at table 1."""
    day = Day.objects.select_related("tournament__rules").get(pk=w.day.pk)
    rules = day.tournament.rules
    page = client.get(f"/table/{w.tables[0].link_token}/").content.decode()
    pdf = " ".join(PdfReader(io.BytesIO(score_sheets_pdf(day))).pages[0].extract_text().split())
    first = w.tables[0].seats.first().entry.number
    hand = rules.hand_size(4)
    return {
        "schedule": list(Game.objects.filter(day=day).values_list("scheduled_engine", flat=True)),
        "rules": rules.scheduled_engines(),
        "workbook": [r["engine"] for r in day_workbook_rows(day) if r["player_id"] == first],
        "phone": [int(engine) for _, engine in PHONE_ROW.findall(page)],
        "scoring": engine_choices(sheet_rules(rules), []),
        "pdf": [e for e in range(rules.top_double, -1, -1) if f"{e}-{e} " in pdf + " "],
        "hand": (
            hand,
            f"each player draws {hand} tiles" in page,
            f"4 players: each draws {hand} tiles." in pdf,
        ),
    }


def assert_agree(found: dict) -> None:
    engines = found["rules"]
    assert found["schedule"] == found["workbook"] == found["phone"] == engines
    assert found["scoring"] == engines
    assert sorted(found["pdf"], reverse=True) == sorted(engines, reverse=True)
    assert found["hand"][1:] == (True, True)


@pytest.mark.parametrize("key", [row["key"] for row in preset_rows()])
def test_every_preset_agrees_everywhere_and_a_change_reaches_every_output(key, client):
    w = seated_day(preset=key, tables=TABLES)
    assert_agree(outputs(w, client))
    rules = w.tournament.rules
    # Two fewer games, the order reversed, and a different hand for 4 players.
    order = list(reversed(rules.scheduled_engines()[:-2]))
    change_rules(
        w.tournament,
        {
            "engine_order": order,
            "games_per_day": len(order),
            "hand_sizes": [[2, 4, 9]]
            + ([[5, rules.max_table_size, 8]] if rules.max_table_size > 4 else []),
        },
        by=COMMAND_LINE,
    )
    found = outputs(w, client)
    assert found["rules"] == order and found["hand"][0] == 9
    assert_agree(found)


def test_a_puremco_event_on_a_double_nine_set(client):
    w = seated_day(preset="puremco-d9", tables=TABLES)
    found = outputs(w, client)
    assert found["schedule"] == list(range(9, -1, -1))
    assert found["hand"][0] == 10
    assert sheet_rules(w.tournament.rules).tile_count() == 55


def test_a_jib_room_session_of_eight_games(client):
    w = seated_day(preset="jib-room", tables=TABLES)
    change_rules(w.tournament, {"games_per_day": 8}, by=COMMAND_LINE)
    found = outputs(w, client)
    assert found["schedule"] == [12, 11, 10, 9, 8, 7, 6, 5]
    assert_agree(found)


def test_a_good_sam_rally_of_ten_games_from_double_nine_down(client):
    w = seated_day(preset="good-sam", tables=TABLES)
    found = outputs(w, client)
    assert found["schedule"] == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert_agree(found)
    rules = sheet_rules(w.tournament.rules)
    assert expected_engine(rules, [9, 8]) == 7
