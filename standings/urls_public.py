"""Read-only standings for players and spectators, mounted in the "public" namespace."""

from django.urls import path

from standings import views_public as views

urlpatterns = [
    path("t/<slug:slug>/standings/", views.standings, name="standings"),
    path("t/<slug:slug>/standings.pdf", views.standings_pdf, name="standings_pdf"),
    path("t/<slug:slug>/standings.xlsx", views.standings_xlsx, name="standings_xlsx"),
    path("t/<slug:slug>/projector/", views.projector, name="projector"),
    path("t/<slug:slug>/player/<int:number>/", views.player, name="player"),
    path("season/<slug:slug>/", views.season, name="season"),
    path("season/<slug:slug>/player/<int:player_id>/", views.season_player, name="season_player"),
    path("season/<slug:slug>.pdf", views.season_pdf, name="season_pdf"),
    path("season/<slug:slug>.xlsx", views.season_xlsx, name="season_xlsx"),
]
