"""Standings and season standings for organisers and desk staff, mounted in the "organiser"
namespace."""

from django.urls import path

from standings import views_organiser

T = "t/<slug:slug>/"
S = "season/<slug:slug>/"

urlpatterns = [
    path(T + "standings/", views_organiser.standings, name="standings"),
    path(T + "standings.pdf", views_organiser.standings_pdf, name="standings_pdf"),
    path(T + "standings.xlsx", views_organiser.standings_xlsx, name="standings_xlsx"),
    path(S, views_organiser.season, name="season"),
    path(S + "player/<int:player_id>/", views_organiser.season_player, name="season_player"),
    path(S[:-1] + ".pdf", views_organiser.season_pdf, name="season_pdf"),
    path(S[:-1] + ".xlsx", views_organiser.season_xlsx, name="season_xlsx"),
    path(S + "public/", views_organiser.season_public_toggle, name="season_public_pages"),
    path(
        T + "standings/public/", views_organiser.public_pages_toggle, name="standings_public_pages"
    ),
    path(
        T + "standings/hidden-finish/",
        views_organiser.hidden_finish,
        name="standings_hidden_finish",
    ),
]
