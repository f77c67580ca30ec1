"""Tie-breaks are a standings setting (issue 23): they change no score check and no total, so
the organiser may switch them on after play has started, from the rules page or the ``rules``
command; each change is kept in the event's history, and every standings output ranks by them
at once."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from scoring_factories import fresh, snapshot, three_tied_for_second
from standings_outputs import every_output

from core.errors import ServiceError
from tournaments.access import COMMAND_LINE
from tournaments.models import RuleSet, StandingsSettingChange
from tournaments.services.rules import change_rules

pytestmark = pytest.mark.django_db

BOTH = ["most_outs", "lowest_worst_game"]
SETTING_MODELS = (RuleSet, StandingsSettingChange)


def ranks_everywhere(tournament, client) -> dict[str, dict[str, str]]:
    return {output: shown.ranks for output, shown in every_output(tournament, client).items()}


TIED = {"Ann Lee": "1", "Bob Roe": "=2", "Ed Poe": "=2", "Flo Ng": "=2", "Gus Ray": "5"}
SPLIT = {"Ann Lee": "1", "Ed Poe": "2", "Flo Ng": "3", "Bob Roe": "4", "Gus Ray": "5"}


def test_tie_breaks_switched_on_after_play_split_a_tie_for_second_in_every_output(world, client):
    tournament = three_tied_for_second(world)
    client.force_login(world.boss)
    for output, ranks in ranks_everywhere(tournament, client).items():
        assert {name: ranks[name] for name in TIED} == TIED, output
    change_rules(tournament, {"tie_breaks": BOTH}, by=world.boss)
    tournament = fresh(tournament)
    for output, ranks in ranks_everywhere(tournament, client).items():
        assert {name: ranks[name] for name in SPLIT} == SPLIT, output

    # The player page ranks by the same tie-breaks (Flo Ng is player 6).
    page = client.get(f"/t/{tournament.slug}/player/6/").content.decode()
    assert '<strong id="player-rank">3</strong>' in page


def test_only_the_tie_breaks_change_after_play_and_each_change_is_in_the_history(world):
    tournament = three_tied_for_second(world)
    before = snapshot(*SETTING_MODELS)
    # What a game not played counts changes totals: it stays fixed with the other rules.
    for changes in ({"unplayed_counts": "average"}, {"tie_breaks": BOTH, "days": 2}):
        with pytest.raises(ServiceError, match="Play has started") as refused:
            change_rules(tournament, changes, by=world.boss)
        assert snapshot(*SETTING_MODELS) == before
    assert "Not changed: " in str(refused.value) and "days" in str(refused.value)
    with pytest.raises(ServiceError, match="Only an organiser"):
        change_rules(tournament, {"tie_breaks": BOTH}, by=world.desk)
    with pytest.raises(ServiceError, match="Unknown tie-break 'most_out'"):
        change_rules(tournament, {"tie_breaks": ["most_out"]}, by=world.boss)
    assert snapshot(*SETTING_MODELS) == before

    change_rules(tournament, {"tie_breaks": ["lowest_worst_game"]}, by=world.boss)
    change_rules(tournament, {"tie_breaks": ["lowest_worst_game"]}, by=world.boss)  # no change
    change_rules(tournament, {"tie_breaks": []}, by=COMMAND_LINE)
    history = list(StandingsSettingChange.objects.filter(tournament=tournament))
    assert [(c.setting, c.before, c.after, c.changed_by, c.changed_by_label) for c in history] == [
        ("tie_breaks", ["lowest_worst_game"], [], None, "command line"),
        ("tie_breaks", [], ["lowest_worst_game"], world.boss, "boss"),
    ]
    assert fresh(tournament).rules.tie_breaks == []


def test_the_rules_page_changes_the_tie_breaks_after_play_and_shows_the_history(world, client):
    tournament = three_tied_for_second(world)
    client.force_login(world.boss)
    url = f"/organiser/t/{tournament.slug}/rules/"
    page = client.get(url).content.decode()
    assert "Play has started" in page and "Save the rules" not in page
    assert "No changes yet" in page
    # A rule other than the tie-breaks posted after play changes nothing.
    before = snapshot(*SETTING_MODELS)
    client.post(url, {"days": "2", "games_per_day": "6"})
    # A tie-break the page does not offer is refused beside the field.
    refused = client.post(url, {"form": "standings", "tie_breaks": ["most_out"]})
    assert refused.status_code == 200
    assert "Select a valid choice" in refused.content.decode()
    assert snapshot(*SETTING_MODELS) == before

    saved = client.post(url, {"form": "standings", "tie_breaks": BOTH}, follow=True)
    text = saved.content.decode()
    assert "Saved: tie-breaks. Every standings output ranks by them now." in text
    assert fresh(tournament).rules.tie_breaks == BOTH
    history = text[text.index('id="setting-history"') :]
    row = history[: history.index("</tbody>")]
    assert "boss" in row and "none (tied players share a rank)" in row
    assert "Most games gone out, then Lowest single worst game" in row


def test_the_rules_command_sets_the_tie_breaks_after_play_and_lists_the_changes(world):
    import io

    tournament = three_tied_for_second(world)
    out = io.StringIO()
    call_command(
        "rules", tournament.slug, "--set", "tie_breaks=most_outs lowest_worst_game", stdout=out
    )
    printed = out.getvalue()
    assert "Tie-breaks: Most games gone out, then Lowest single worst game" in printed
    assert "command line changed tie-breaks: none (tied players share a rank) -> Most" in printed
    assert fresh(tournament).rules.tie_breaks == BOTH
    before = snapshot(*SETTING_MODELS)
    with pytest.raises(CommandError, match="Play has started"):
        call_command("rules", tournament.slug, "--set", "tie_breaks=most_outs", "days=2")
    assert snapshot(*SETTING_MODELS) == before
