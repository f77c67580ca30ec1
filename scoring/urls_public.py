"""Read-only standings for players and spectators, mounted in the "public" namespace."""
from django.urls import path

from . import standings_views as views

urlpatterns = [
    path("t/<slug:slug>/standings/", views.public_standings, name="standings"),
    path("t/<slug:slug>/standings.pdf", views.public_pdf, name="standings_pdf"),
    path("t/<slug:slug>/standings.xlsx", views.public_xlsx, name="standings_xlsx"),
    path("t/<slug:slug>/projector/", views.projector, name="projector"),
]
