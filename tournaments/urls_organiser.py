from django.urls import path

from tournaments.views import check_in, events, players, seasons, seating, staff

urlpatterns = [
    path("", events.home, name="home"),
    path("new/", events.tournament_new, name="tournament_new"),
    path("seasons/new/", seasons.season_new, name="season_new"),
    path("season/<slug:slug>/events/", seasons.season_events, name="season_events"),
    path(
        "season/<slug:slug>/events/remove/",
        seasons.season_event_remove,
        name="season_event_remove",
    ),
    path("t/<slug:slug>/", events.tournament_overview, name="tournament"),
    path("t/<slug:slug>/connect/", events.connect_phones, name="connect_phones"),
    path("t/<slug:slug>/settings/", events.tournament_settings, name="settings"),
    path("t/<slug:slug>/rules/", events.tournament_rules, name="rules"),
    path("t/<slug:slug>/staff/", staff.staff, name="staff"),
    path(
        "t/<slug:slug>/staff/<int:number>/password/",
        staff.staff_password,
        name="staff_password",
    ),
    path("t/<slug:slug>/staff/<int:number>/remove/", staff.staff_remove, name="staff_remove"),
    path("t/<slug:slug>/players/", players.players, name="players"),
    path("t/<slug:slug>/players/add/", players.player_add, name="player_add"),
    path("t/<slug:slug>/players/import/", players.import_players, name="import_players"),
    path("t/<slug:slug>/players/<int:number>/", players.player_edit, name="player_edit"),
    path(
        "t/<slug:slug>/players/<int:number>/withdraw/",
        players.player_withdraw,
        name="player_withdraw",
    ),
    path(
        "t/<slug:slug>/players/<int:number>/reinstate/",
        players.player_reinstate,
        name="player_reinstate",
    ),
    path(
        "t/<slug:slug>/players/<int:number>/keep-apart/",
        players.keep_apart_add,
        name="keep_apart_add",
    ),
    path(
        "t/<slug:slug>/players/<int:number>/keep-apart/<int:other>/remove/",
        players.keep_apart_remove,
        name="keep_apart_remove",
    ),
    path("t/<slug:slug>/check-in/", check_in.check_in, name="check_in"),
    path("t/<slug:slug>/check-in/<int:number>/", check_in.check_in_set, name="check_in_set"),
    path("t/<slug:slug>/seating/", seating.seating_index, name="seating_index"),
    path("t/<slug:slug>/seating/plan/", seating.plan_days, name="plan_days"),
    path("t/<slug:slug>/seating/plan/clear/", seating.clear_plan, name="clear_plan"),
    path("t/<slug:slug>/seating/<int:day_number>/", seating.seating, name="seating"),
    path("t/<slug:slug>/seating/<int:day_number>/seat/", seating.seat_day, name="seat_day"),
    path("t/<slug:slug>/seating/<int:day_number>/move/", seating.move_player, name="move_player"),
    path("t/<slug:slug>/seating/<int:day_number>/late/", seating.late_join, name="late_join"),
    path(
        "t/<slug:slug>/seating/<int:day_number>/substitute/",
        seating.substitute,
        name="substitute",
    ),
    path(
        "t/<slug:slug>/seating/<int:day_number>/clear/",
        seating.clear_seating,
        name="clear_seating",
    ),
    path("t/<slug:slug>/seating/<int:day_number>/swap/", seating.swap_players, name="swap_players"),
    path(
        "t/<slug:slug>/seating/<int:day_number>/chart.pdf",
        seating.seating_chart_pdf,
        name="seating_chart_pdf",
    ),
    path(
        "t/<slug:slug>/seating/<int:day_number>/planned.pdf",
        seating.planned_chart_pdf,
        name="planned_chart_pdf",
    ),
    path(
        "t/<slug:slug>/seating/<int:day_number>/find-your-table.pdf",
        seating.find_table_pdf,
        name="find_table_pdf",
    ),
]
