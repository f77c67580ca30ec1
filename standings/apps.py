from django.apps import AppConfig


class StandingsConfig(AppConfig):
    """Standings and every output of them. No models: it reads what scoring stores."""

    name = "standings"
    verbose_name = "Standings"
