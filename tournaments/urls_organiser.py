from django.urls import path

from tournaments import views_organiser as views, views_seasons

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.tournament_new, name="tournament_new"),
    path("seasons/new/", views_seasons.season_new, name="season_new"),
    path("season/<slug:slug>/events/", views_seasons.season_events, name="season_events"),
    path(
        "season/<slug:slug>/events/remove/",
        views_seasons.season_event_remove,
        name="season_event_remove",
    ),
    path("t/<slug:slug>/", views.tournament_overview, name="tournament"),
    path("t/<slug:slug>/connect/", views.connect_phones, name="connect_phones"),
    path("t/<slug:slug>/settings/", views.tournament_settings, name="settings"),
    path("t/<slug:slug>/rules/", views.tournament_rules, name="rules"),
    path("t/<slug:slug>/players/", views.players, name="players"),
    path("t/<slug:slug>/players/add/", views.player_add, name="player_add"),
    path("t/<slug:slug>/players/import/", views.import_players, name="import_players"),
    path("t/<slug:slug>/players/<int:number>/", views.player_edit, name="player_edit"),
    path(
        "t/<slug:slug>/players/<int:number>/withdraw/",
        views.player_withdraw,
        name="player_withdraw",
    ),
    path(
        "t/<slug:slug>/players/<int:number>/reinstate/",
        views.player_reinstate,
        name="player_reinstate",
    ),
    path(
        "t/<slug:slug>/players/<int:number>/keep-apart/",
        views.keep_apart_add,
        name="keep_apart_add",
    ),
    path(
        "t/<slug:slug>/players/<int:number>/keep-apart/<int:other>/remove/",
        views.keep_apart_remove,
        name="keep_apart_remove",
    ),
    path("t/<slug:slug>/check-in/", views.check_in, name="check_in"),
    path("t/<slug:slug>/check-in/<int:number>/", views.check_in_set, name="check_in_set"),
    path("t/<slug:slug>/seating/", views.seating_index, name="seating_index"),
    path("t/<slug:slug>/seating/plan/", views.plan_days, name="plan_days"),
    path("t/<slug:slug>/seating/plan/clear/", views.clear_plan, name="clear_plan"),
    path("t/<slug:slug>/seating/<int:day_number>/", views.seating, name="seating"),
    path("t/<slug:slug>/seating/<int:day_number>/seat/", views.seat_day, name="seat_day"),
    path("t/<slug:slug>/seating/<int:day_number>/move/", views.move_player, name="move_player"),
    path("t/<slug:slug>/seating/<int:day_number>/late/", views.late_join, name="late_join"),
    path(
        "t/<slug:slug>/seating/<int:day_number>/substitute/",
        views.substitute,
        name="substitute",
    ),
    path(
        "t/<slug:slug>/seating/<int:day_number>/clear/",
        views.clear_seating,
        name="clear_seating",
    ),
    path("t/<slug:slug>/seating/<int:day_number>/swap/", views.swap_players, name="swap_players"),
    path(
        "t/<slug:slug>/seating/<int:day_number>/chart.pdf",
        views.seating_chart_pdf,
        name="seating_chart_pdf",
    ),
    path(
        "t/<slug:slug>/seating/<int:day_number>/planned.pdf",
        views.planned_chart_pdf,
        name="planned_chart_pdf",
    ),
    path(
        "t/<slug:slug>/seating/<int:day_number>/find-your-table.pdf",
        views.find_table_pdf,
        name="find_table_pdf",
    ),
]
