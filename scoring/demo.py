"""Load the demo tournament from fixtures/demo_tournament.json so a new user sees a real event.

It goes through the same services as a real event: players entered and checked in, each day
seated at the recorded tables, every card keyed at the desk, the day closed.
"""

import datetime
import json
from pathlib import Path

from django.conf import settings
from django.db import transaction

from domain.sheet_checks import TypedSheet
from scoring.schedule import day_games
from scoring.services import GameInput, close_day, save_card
from tournaments.models import Tournament
from tournaments.services.events import create_tournament
from tournaments.services.registration import register_player, set_checked_in
from tournaments.services.seating import seat_day_with_tables

DEMO_FILE = Path(settings.BASE_DIR) / "fixtures" / "demo_tournament.json"


def demo_data() -> dict:
    return json.loads(DEMO_FILE.read_text(encoding="utf-8"))


@transaction.atomic
def load_demo(organiser) -> Tournament:
    """The demo event, entered by ``organiser`` (who must be able to act as its organiser)."""
    data = demo_data()
    info = data["tournament"]
    tournament = create_tournament(
        slug=info["slug"],
        name=info["name"],
        preset_key=info["preset"],
        start_date=datetime.date.fromisoformat(info["start_date"]),
        organiser=organiser,
        venue=info.get("venue", ""),
        # The demo is there to be looked at, public pages and all.
        public_pages=True,
    )
    entries = {}
    for number, row in enumerate(data["players"], start=1):
        entries[number] = register_player(tournament, name=row["name"], club=row.get("club", ""))
        set_checked_in(entries[number], True)
    days = {d.number: d for d in tournament.days.all()}
    for day_data in data["days"]:
        _play_day(days[day_data["number"]], day_data, entries, organiser)
    return tournament


def _play_day(day, day_data: dict, entries: dict, organiser) -> None:
    outcome = seat_day_with_tables(
        day,
        [[entries[p] for p in members] for members in day_data["tables"]],
        seed=day_data["seed"],
        organiser=organiser,
    )
    games = {g.number: g for g in day_games(day)}
    tables = {t.number: t for t in day.tables.all()}
    cards: dict[int, list[GameInput]] = {}
    for sheet in day_data["sheets"]:
        typed = TypedSheet(
            game_number=sheet["game"],
            engine=sheet["engine"],
            scores={entries[int(p)].pk: points for p, points in sheet["scores"].items()},
            went_out=entries[sheet["out"]].pk if sheet["out"] else None,
            blocked=sheet["blocked"],
        )
        cards.setdefault(sheet["table"], []).append(GameInput(games[sheet["game"]], typed))
    for number, inputs in cards.items():
        save_card(tables[number], inputs, written_totals={}, user=organiser)
    close_day(outcome.day, user=organiser)
