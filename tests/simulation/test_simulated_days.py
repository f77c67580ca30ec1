"""Simulated days (see day_machine): the normal run plays a fixed set of two-day events
(SIMULATED_EVENTS, 200 by default, of up to SIMULATED_STEPS steps, 40 by default, the same ones
every run); ``make soak`` plays thousands, drawn afresh each run. The tally counts the days on
which a sheet was typed, printed beside the events and steps."""

import os
import time

import pytest
from day_machine import TALLY, SimulatedDays
from hypothesis import HealthCheck, Phase, settings as run_settings
from hypothesis.stateful import run_state_machine_as_test

EVENTS = int(os.environ.get("SIMULATED_EVENTS", "200"))
STEPS = int(os.environ.get("SIMULATED_STEPS", "40"))
SOAK = os.environ.get("SIMULATED_SOAK") == "1"
# Shrinking a failing day can take minutes; SIMULATED_SHRINK=0 reports the first one found.
PHASES = [p for p in Phase if os.environ.get("SIMULATED_SHRINK") != "0" or p != Phase.shrink]


@pytest.mark.django_db
def test_simulated_days(settings, capsys):
    settings.SEATING_MAX_EVALS = 2_000
    started, failures = time.monotonic(), 0
    try:
        run_state_machine_as_test(
            SimulatedDays,
            settings=run_settings(
                max_examples=EVENTS,
                stateful_step_count=STEPS,
                derandomize=not SOAK,
                database=None,
                phases=PHASES,
                deadline=None,
                suppress_health_check=list(HealthCheck),
            ),
        )
        # Hypothesis may stop early (an example it cannot generate): the run must be whole.
        assert TALLY.events >= EVENTS, f"{TALLY.events} events played, {EVENTS} asked"
    except BaseException:
        failures = 1
        raise
    finally:
        with capsys.disabled():
            print(
                f"\nsimulated days: {TALLY.events} events of 2 days, {TALLY.days_played} days "
                f"with games typed, {TALLY.steps} steps "
                f"({TALLY.refused} refused as expected, {TALLY.held_back} with the public "
                f"held at a hidden finish), {failures} invariant failures, "
                f"{time.monotonic() - started:.1f} s"
            )
            print("  steps: " + ", ".join(f"{k} {v}" for k, v in sorted(TALLY.actions.items())))
