import datetime

from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from domain.rules import LATE_CHOICES, parse_engine_order
from tournaments.services.events import create_tournament

# Options that change one rule of the preset, checked with the rules as a whole.
RULE_OPTIONS = {
    "days": "days",
    "games_per_day": "games_per_day",
    "set": "top_double",
    "max_table_size": "max_table_size",
    "double_blank": "double_blank_value",
    "late_missed_games": "late_missed_games",
}


class Command(BaseCommand):
    help = "Create a tournament from a rule preset (with any rule changed) and print its slug."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--name", required=True)
        parser.add_argument(
            "--rules", required=True, help="Preset key, e.g. tournament or good-sam."
        )
        parser.add_argument("--start-date", help="YYYY-MM-DD")
        parser.add_argument("--venue", default="")
        parser.add_argument("--days", type=int)
        parser.add_argument("--games-per-day", type=int)
        parser.add_argument("--engines", help='Engine of each game in order, e.g. "9 8 7 6 5".')
        parser.add_argument("--set", type=int, help="The set: 6, 9, 12, 15 or 18 (double-N).")
        parser.add_argument("--max-table-size", type=int)
        parser.add_argument("--double-blank", type=int, help="Points the double blank counts.")
        parser.add_argument(
            "--late-missed-games",
            type=str.lower,
            help="What each game a late player missed that day counts: "
            + ", ".join(LATE_CHOICES)
            + ".",
        )
        parser.add_argument(
            "--public",
            action="store_true",
            help="Open its public pages now (standings, projector, find your table); without "
            "it they stay off until an organiser turns them on.",
        )

    def handle(self, slug, name, rules, start_date=None, venue="", public=False, **options):
        date = None
        if start_date:
            try:
                date = datetime.date.fromisoformat(start_date)
            except ValueError as error:
                raise CommandError(f'"{start_date}" is not a date like 2026-03-14.') from error
        changes = {
            field: options[option]
            for option, field in RULE_OPTIONS.items()
            if options.get(option) is not None
        }
        if options.get("engines"):
            try:
                changes["engine_order"] = parse_engine_order(options["engines"])
            except ValueError as error:
                raise CommandError(f"--engines: {error}") from error
            changes.setdefault("games_per_day", len(changes["engine_order"]))
        try:
            tournament = create_tournament(
                slug=slug,
                name=name,
                preset_key=rules,
                start_date=date,
                venue=venue,
                rules=changes,
                public_pages=public,
            )
        except ServiceError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(tournament.slug)
