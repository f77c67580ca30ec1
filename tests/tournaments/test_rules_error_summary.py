"""A refused rules save says so at the top of the page: how many problems, each a link to its
field, focused on load (no script needed), and nothing is stored."""

import re

import pytest
from scoring_factories import fresh, snapshot

from scoring.models import Game
from tournaments.forms import RulesForm
from tournaments.models import Day, RuleSet, Tournament

pytestmark = pytest.mark.django_db

RULE_MODELS = (Tournament, RuleSet, Day, Game)


def summary_of(page: str) -> str:
    found = re.search(r'<div class="error-summary".*?</div>', page, re.S)
    assert found, "no error summary on the page"
    return found.group(0)


def links(summary: str) -> list[tuple[str, str]]:
    return [
        (href, " ".join(text.split()))
        for href, text in re.findall(r'<a href="([^"]+)">(.*?)</a>', summary, re.S)
    ]


def rules_form(tournament, **changes) -> dict:
    form = {**RulesForm.initial_from(fresh(tournament).rules), "tie_breaks": [], **changes}
    return {name: value for name, value in form.items() if value is not False}


def test_a_refused_rules_save_lists_its_problems_at_the_top(organiser_client, tournament):
    before = snapshot(*RULE_MODELS)
    form = rules_form(tournament, days="0", max_table_size="", hand_sizes="2-4: 15, 5-6: 12")
    page = organiser_client.post("/organiser/t/spring/rules/", form).content.decode()

    summary = summary_of(page)
    assert "The rules were not saved: 2 problems" in summary
    assert links(summary) == [
        ("#id_days", "Days: Ensure this value is greater than or equal to 1."),
        ("#id_max_table_size", "Most players at a table: This field is required."),
    ]
    for href, _ in links(summary):
        assert f'id="{href[1:]}"' in page
    # At the top: before the rules table and the form, and focused when the page opens.
    assert page.index("error-summary") < page.index("The rules now") < page.index('id="rules-form"')
    assert re.search(r'<div class="error-summary"[^>]*\btabindex="-1"[^>]*\bautofocus', page)
    assert page.count("autofocus") == 1
    assert snapshot(*RULE_MODELS) == before


def test_a_rule_the_service_refuses_is_in_the_summary_too(organiser_client, tournament):
    before = snapshot(*RULE_MODELS)
    form = rules_form(
        tournament, top_double="9", first_engine="9", max_table_size="4", hand_sizes="2-4: 15"
    )
    page = organiser_client.post("/organiser/t/spring/rules/", form).content.decode()
    summary = summary_of(page)
    assert "The rules were not saved: 1 problem<" in summary
    [(href, text)] = links(summary)
    assert href == "#id_hand_sizes"
    assert "take 60 of the 55 tiles" in text
    assert snapshot(*RULE_MODELS) == before


def test_no_summary_when_nothing_was_refused(organiser_client, tournament):
    assert (
        "error-summary" not in organiser_client.get("/organiser/t/spring/rules/").content.decode()
    )
    response = organiser_client.post(
        "/organiser/t/spring/rules/", rules_form(tournament), follow=True
    )
    assert "error-summary" not in response.content.decode()
