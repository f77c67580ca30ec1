from django.urls import path

from tournaments import views_public as views

urlpatterns = [
    path("", views.home, name="home"),
    path("t/<slug:slug>/", views.tournament_home, name="tournament"),
    path("t/<slug:slug>/find-your-table/", views.find_table, name="find_table"),
]
