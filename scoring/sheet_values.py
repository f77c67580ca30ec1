"""What a game's sheet says, as values to compare: two sheets of one game, a blind retype against
what the table entered, and the rows an audit event stores about a change. No queries."""

from __future__ import annotations

from dataclasses import dataclass

from domain.sheet_checks import CleanGame, Problem
from scoring.models import GameSheet


@dataclass(frozen=True)
class Values:
    """What a game's sheet says, for comparing two sheets."""

    engine: int
    went_out: int | None
    blocked: bool
    scores: dict

    @classmethod
    def of_clean(cls, clean: CleanGame) -> Values:
        return cls(clean.engine, clean.went_out, clean.blocked, dict(clean.scores))


# The history's reason when the desk keeps its card over what the table entered.
CARD_IS_RIGHT = "The paper card is right: the desk's numbers replace what the table entered."


@dataclass(frozen=True)
class Differs:
    """A game of a desk card that differs from what the table entered: neither is stored, and
    the desk says which is right. ``problems`` say where, field by field."""

    table: int
    game: int
    live: GameSheet  # the table's entry, scores attached
    typed: Values  # what the desk keyed
    problems: list[Problem]


def values_of_sheet(sheet: GameSheet) -> Values:
    return Values(
        sheet.engine_used,
        sheet.went_out_id,
        sheet.blocked,
        {s.entry_id: s.points for s in sheet.score_rows()},
    )


def outcome_text(names: dict[int, str], went_out: int | None, blocked: bool) -> str:
    """How a game ended, as the audit rows store it: "blocked", "Ann Lee went out" or ""."""
    if blocked:
        return "blocked"
    return f"{names.get(went_out, 'player')} went out" if went_out else ""


def audit_changes(names: dict[int, str], old: Values | None, new: Values | None) -> list[dict]:
    """Audit rows: one per player whose score changed, plus engine and outcome rows."""
    rows = []
    old_scores = old.scores if old else {}
    new_scores = new.scores if new else {}
    for entry_id in list(names) + [e for e in {**old_scores, **new_scores} if e not in names]:
        before, after = old_scores.get(entry_id), new_scores.get(entry_id)
        if before != after:
            rows.append(
                {
                    "entry": entry_id,
                    "name": names.get(entry_id, f"player {entry_id}"),
                    "from": before,
                    "to": after,
                }
            )
    old_engine, new_engine = (old.engine if old else None), (new.engine if new else None)
    if old_engine != new_engine:
        rows.append({"field": "engine", "name": "Engine", "from": old_engine, "to": new_engine})
    before = outcome_text(names, old.went_out, old.blocked) if old else None
    after = outcome_text(names, new.went_out, new.blocked) if new else None
    if before != after:
        rows.append({"field": "outcome", "name": "Went out", "from": before, "to": after})
    return rows


def difference_problems(names: dict[int, str], entered: Values, typed: Values) -> list[Problem]:
    """Where a blind retype differs from what the table entered, field by field."""
    problems = []
    if entered.engine != typed.engine:
        problems.append(
            Problem(
                "engine",
                f"The table entered double {entered.engine} as the engine; "
                f"you typed double {typed.engine}.",
            )
        )
    if (entered.went_out, entered.blocked) != (typed.went_out, typed.blocked):
        table_said = outcome_text(names, entered.went_out, entered.blocked) or "nothing"
        you_said = outcome_text(names, typed.went_out, typed.blocked) or "nothing"
        problems.append(
            Problem("outcome", f"The table entered {table_said}; you typed {you_said}.")
        )
    for entry_id, name in names.items():
        before, after = entered.scores.get(entry_id), typed.scores.get(entry_id)
        if before != after:
            problems.append(
                Problem(
                    f"score-{entry_id}",
                    f"The table entered {before} for {name}; you typed {after}.",
                )
            )
    return problems


def disputed_changes(names: dict[int, str], live: GameSheet, disputed: set[str]) -> list[dict]:
    """What a rejected sheet said, one row per player plus engine and outcome, each with
    ``disputed`` when the desk says it differs from the card."""
    values = values_of_sheet(live)
    rows = [
        {
            "entry": entry_id,
            "name": name,
            "from": values.scores.get(entry_id),
            "to": None,
            "disputed": str(entry_id) in disputed,
        }
        for entry_id, name in names.items()
        if entry_id in values.scores
    ]
    rows.append(
        {
            "field": "engine",
            "name": "Engine",
            "from": values.engine,
            "to": None,
            "disputed": "engine" in disputed,
        }
    )
    rows.append(
        {
            "field": "outcome",
            "name": "Went out",
            "from": outcome_text(names, values.went_out, values.blocked),
            "to": None,
            "disputed": "outcome" in disputed,
        }
    )
    return rows
