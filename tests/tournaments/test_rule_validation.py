"""Rule sets refuse tie-breaks and hand sizes the rest of the app cannot use, from every door."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.forms import modelform_factory
from django.urls import reverse

from domain.tie_breaks import (
    TIE_BREAK_KEYS,
    TIE_BREAKS,
    resolve_tie_breaks,
    tie_break_problems,
)
from tournaments.models import TIE_BREAK_CHOICES, RulePreset, RuleSet, hand_sizes_problems
from tournaments.presets import preset_rows

# --- the registry and its checks, no database ----------------------------------------------


def test_the_model_choices_come_from_the_registry():
    assert list(TIE_BREAK_CHOICES) == list(TIE_BREAK_KEYS) == [t.key for t in TIE_BREAKS]
    assert TIE_BREAK_CHOICES["most_outs"] == "Most games gone out"
    assert TIE_BREAK_CHOICES["lowest_worst_game"] == "Lowest single worst game"


@pytest.mark.parametrize("value", [[], ["most_outs"], ["lowest_worst_game", "most_outs"]])
def test_known_tie_breaks_in_any_order_are_usable(value):
    assert tie_break_problems(value) == []


@pytest.mark.parametrize(
    "value, words",
    [
        (["most_out"], "Unknown tie-break 'most_out'"),
        (["most_outs", "most_outs"], "listed more than once"),
        ("most_outs", "must be a list"),
        ({"most_outs": 1}, "must be a list"),
        ([1], "Unknown tie-break 1"),
        ([["most_outs"]], "Unknown tie-break"),
    ],
)
def test_unusable_tie_breaks_are_named(value, words):
    problems = tie_break_problems(value)
    assert problems and words in " ".join(problems)


def test_an_unknown_tie_break_message_lists_the_known_ones():
    (message,) = tie_break_problems(["most_out"])
    assert '"most_outs"' in message and '"lowest_worst_game"' in message


def test_resolving_refuses_unknown_names_and_a_bare_string():
    assert [t.key for t in resolve_tie_breaks(["lowest_worst_game"])] == ["lowest_worst_game"]
    with pytest.raises(ValueError, match="most_out"):
        resolve_tie_breaks(["most_out"])
    with pytest.raises(ValueError):
        resolve_tie_breaks("most_outs")


@pytest.mark.parametrize(
    "value", [[[2, 7, 12]], [[2, 4, 15], [5, 6, 12], [7, 8, 11]], [[1, 1, 20]], ((2, 8, 12),)]
)
def test_usable_hand_sizes(value):
    assert hand_sizes_problems(value) == []


@pytest.mark.parametrize(
    "value, words",
    [
        ([], "must be a list"),
        ({"2": 12}, "must be a list"),
        ([[2, 7]], "three whole numbers"),
        ([[2, 7, "12"]], "three whole numbers"),
        ([[2, 7, 12.5]], "three whole numbers"),
        ([[2, True, 12]], "three whole numbers"),
        ([12], "three whole numbers"),
        ([[5, 4, 12]], "no more than the most"),
        ([[0, 4, 12]], "at least 1"),
        ([[2, 4, 0]], "at least 1 tile"),
        ([[2, 5, 15], [5, 6, 12]], "already have a hand size"),
    ],
)
def test_unusable_hand_sizes_are_named(value, words):
    problems = hand_sizes_problems(value)
    assert problems and words in " ".join(problems)


# --- the model: full_clean, save and forms all refuse ------------------------------------


def stored_rules(tournament) -> dict:
    return RuleSet.objects.filter(pk=tournament.rules.pk).values("tie_breaks", "hand_sizes").get()


@pytest.mark.django_db
def test_every_preset_passes_full_clean_and_saves():
    presets = list(RulePreset.objects.all())
    assert len(presets) == len(preset_rows()) == 6
    for preset in presets:
        preset.full_clean()
        preset.save()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "preset", ["tournament", "club-session", "good-sam", "jib-room", "puremco"]
)
def test_a_tournament_from_each_preset_has_valid_rules(make_tournament, preset):
    tournament = make_tournament(slug=f"t-{preset}", preset=preset)
    tournament.rules.full_clean()


@pytest.mark.django_db
def test_a_misspelt_tie_break_is_refused_by_full_clean(make_tournament):
    rules = make_tournament().rules
    rules.tie_breaks = ["most_out"]
    with pytest.raises(ValidationError) as refused:
        rules.full_clean()
    assert set(refused.value.message_dict) == {"tie_breaks"}
    assert "Unknown tie-break 'most_out'" in refused.value.message_dict["tie_breaks"][0]


@pytest.mark.django_db
def test_a_misspelt_tie_break_is_refused_by_save_and_nothing_is_stored(make_tournament):
    tournament = make_tournament()
    before = stored_rules(tournament)
    rules = tournament.rules
    rules.tie_breaks = ["most_out"]
    with pytest.raises(ValidationError, match="most_out"):
        rules.save()
    rules.tie_breaks = ["most_outs", "most_outs"]
    with pytest.raises(ValidationError, match="more than once"):
        rules.save(update_fields=["tie_breaks"])
    assert stored_rules(tournament) == before


@pytest.mark.django_db
def test_unusable_hand_sizes_are_refused_by_full_clean_and_save(make_tournament):
    tournament = make_tournament()
    before = stored_rules(tournament)
    rules = tournament.rules
    rules.hand_sizes = [[2, 7]]
    with pytest.raises(ValidationError) as refused:
        rules.full_clean()
    assert set(refused.value.message_dict) == {"hand_sizes"}
    with pytest.raises(ValidationError):
        rules.save()
    assert stored_rules(tournament) == before


@pytest.mark.django_db
def test_a_preset_refuses_a_misspelt_tie_break_too():
    preset = RulePreset.objects.get(key="tournament")
    preset.tie_breaks = ["most_out"]
    with pytest.raises(ValidationError):
        preset.save()
    assert RulePreset.objects.get(key="tournament").tie_breaks == []


@pytest.mark.django_db
def test_valid_tie_breaks_save(make_tournament):
    tournament = make_tournament()
    tournament.rules.tie_breaks = ["lowest_worst_game", "most_outs"]
    tournament.rules.full_clean()
    tournament.rules.save()
    assert stored_rules(tournament)["tie_breaks"] == ["lowest_worst_game", "most_outs"]


@pytest.mark.django_db
def test_a_model_form_shows_the_refusal_on_the_field(make_tournament):
    rules = make_tournament().rules
    form_class = modelform_factory(RuleSet, exclude=["tournament"])
    data = {
        name: json.dumps(value) if name in ("hand_sizes", "tie_breaks") else value
        for name, value in rules.rule_values().items()
    }
    data["tie_breaks"] = json.dumps(["most_out"])
    form = form_class(data=data, instance=rules)
    assert not form.is_valid()
    assert "Unknown tie-break 'most_out'" in form.errors["tie_breaks"][0]
    data["tie_breaks"] = json.dumps(["most_outs"])
    form = form_class(data=data, instance=RuleSet.objects.get(pk=rules.pk))
    assert form.is_valid(), form.errors


@pytest.mark.django_db
def test_the_public_standings_stay_up_after_a_refused_tie_break(make_tournament, client):
    tournament = make_tournament(public_pages=True)
    tournament.rules.tie_breaks = ["most_out"]
    with pytest.raises(ValidationError):
        tournament.rules.save()
    response = client.get(reverse("public:standings", args=[tournament.slug]))
    assert response.status_code == 200
