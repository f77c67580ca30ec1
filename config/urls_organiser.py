"""Organiser and desk pages: every view here requires a login and a role in the tournament."""

from scoring import urls_organiser as scoring_urls
from standings import urls_organiser as standings_urls
from tournaments import urls_organiser as tournament_urls

app_name = "organiser"
urlpatterns = tournament_urls.urlpatterns + scoring_urls.urlpatterns + standings_urls.urlpatterns
