from django.apps import AppConfig


class StandingsConfig(AppConfig):
    """Standings and every output of them. No models: it reads what scoring stores."""

    name = "standings"
    verbose_name = "Standings"

    def ready(self) -> None:
        # Tournaments never imports standings; a movement asks for a session's totals here.
        from standings.session_results import StandingsSessionTotals
        from tournaments import hooks

        hooks.total_sessions_with(StandingsSessionTotals())
