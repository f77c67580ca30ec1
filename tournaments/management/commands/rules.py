from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from domain.rules import RULE_FIELDS, parse_rule
from tournaments.access import COMMAND_LINE
from tournaments.models import Tournament
from tournaments.presenters import rule_change_notes, rule_rows, setting_history_rows
from tournaments.selectors import standings_setting_history
from tournaments.services.rules import RuleProblems, change_rules


class Command(BaseCommand):
    help = (
        "Print every rule of a tournament with where it comes from (the rule sheet, a "
        "published chart, our assumption or set for this event); --set FIELD=VALUE changes "
        "rules under the same checks as the rules page (after play has started, only the "
        "tie-breaks), and lists every change of the tie-breaks."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's slug.")
        parser.add_argument(
            "--set",
            dest="changes",
            nargs="+",
            metavar="FIELD=VALUE",
            help="Rules to change: "
            + ", ".join(RULE_FIELDS)
            + '. E.g. games_per_day=8 engine_order="9 8 7" hand_sizes="2-4: 15, 5-6: 12".',
        )

    def handle(self, slug, changes=None, **options):
        tournament = Tournament.objects.select_related("rules", "preset").filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f'There is no tournament "{slug}".')
        if changes:
            self._change(tournament, changes)
        for row in rule_rows(tournament.rules, tournament.preset):
            self.stdout.write(f"{row.label}: {row.value}  [{row.source}: {row.source_label}]")
        for change in setting_history_rows(standings_setting_history(tournament)):
            self.stdout.write(
                f"{change.when} {change.who} changed {change.setting.lower()}: "
                f"{change.before} -> {change.after}"
            )

    def _change(self, tournament, changes: list[str]) -> None:
        values = {}
        for change in changes:
            field, equals, text = change.partition("=")
            if not equals:
                raise CommandError(f'"{change}": write each change as FIELD=VALUE.')
            try:
                values[field.strip()] = parse_rule(field.strip(), text)
            except ValueError as error:
                raise CommandError(f"{field.strip()}: {error}") from error
        try:
            outcome = change_rules(tournament, values, by=COMMAND_LINE)
        except RuleProblems as refusal:
            raise CommandError(
                "\n".join(f"{field}: {m}" for field, ms in refusal.problems.items() for m in ms)
            ) from refusal
        except ServiceError as error:
            raise CommandError(str(error)) from error
        for _level, text in rule_change_notes(outcome):
            self.stdout.write(text)
