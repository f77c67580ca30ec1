from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        # Tournaments never imports scoring; scoring listens and answers here instead.
        from django.db.models.signals import post_save

        from scoring.play_record import SheetPlayRecord
        from scoring.schedule import build_schedule_for_seated_day, build_schedules_for_rules
        from tournaments import hooks
        from tournaments.models import RuleSet

        hooks.day_seated.connect(build_schedule_for_seated_day, dispatch_uid="scoring-schedule")
        post_save.connect(
            build_schedules_for_rules, sender=RuleSet, dispatch_uid="scoring-schedule-rules"
        )
        hooks.record_play_with(SheetPlayRecord())
