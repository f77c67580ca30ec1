"""Load the demo tournament from fixtures/demo_tournament.json so a new user sees a real event."""
import datetime
import json
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from scoring.models import AuditEvent, GameSheet, Score, SheetState, Source
from scoring.schedule import ensure_schedule

from .models import Entry, Player, Seat, Table, Tournament
from .services import create_tournament, refresh_repeat_counts

DEMO_FILE = Path(settings.BASE_DIR) / "fixtures" / "demo_tournament.json"


def demo_data() -> dict:
    return json.loads(DEMO_FILE.read_text(encoding="utf-8"))


@transaction.atomic
def load_demo(organiser=None) -> Tournament:
    data = demo_data()
    info = data["tournament"]
    tournament = create_tournament(
        slug=info["slug"], name=info["name"], preset_key=info["preset"],
        start_date=datetime.date.fromisoformat(info["start_date"]), organiser=organiser,
        venue=info.get("venue", ""),
    )
    entries = {}
    for number, row in enumerate(data["players"], start=1):
        player = Player.objects.create(name=row["name"], club=row.get("club", ""))
        entries[number] = Entry.objects.create(
            tournament=tournament, player=player, number=number, status=Entry.CHECKED_IN
        )
    days = {d.number: d for d in tournament.days.all()}
    for day_data in data["days"]:
        day = days[day_data["number"]]
        day.seed = day_data["seed"]
        day.seated_at = timezone.make_aware(
            datetime.datetime.combine(day.date, datetime.time(8, 30))
        )
        games = {g.number: g for g in ensure_schedule(day)}
        tables = {}
        for table_number, members in enumerate(day_data["tables"], start=1):
            table = Table.objects.create(day=day, number=table_number)
            tables[table_number] = table
            Seat.objects.bulk_create(
                Seat(day=day, table=table, entry=entries[p], position=i)
                for i, p in enumerate(members, start=1)
            )
        for offset, sheet_data in enumerate(day_data["sheets"]):
            at = day.seated_at + datetime.timedelta(minutes=30 + offset)
            sheet = GameSheet.objects.create(
                table=tables[sheet_data["table"]], game=games[sheet_data["game"]],
                state=SheetState.CONFIRMED, engine_used=sheet_data["engine"],
                went_out=entries[sheet_data["out"]] if sheet_data["out"] else None,
                blocked=sheet_data["blocked"], source=Source.DESK, entered_by=organiser,
                entered_at=at, confirmed_by=organiser, confirmed_at=at,
            )
            Score.objects.bulk_create(
                Score(sheet=sheet, entry=entries[int(p)], points=points)
                for p, points in sheet_data["scores"].items()
            )
            AuditEvent.objects.create(
                sheet=sheet, table=sheet.table, game=sheet.game, action=AuditEvent.ENTERED,
                source=Source.DESK, actor=organiser, actor_label="demo loader", at=at,
                changes=[{"entry": entries[int(p)].pk, "name": entries[int(p)].player.name,
                          "from": None, "to": points} for p, points in sheet_data["scores"].items()],
            )
        day.closed_at = day.seated_at + datetime.timedelta(hours=8)
        day.save()
    # Counted from the stored seats, the same way as a day seated at the desk.
    refresh_repeat_counts(tournament, 1)
    return tournament
