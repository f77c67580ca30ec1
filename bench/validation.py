"""Benchmark for domain.sheet_checks -- run as ``.venv/bin/python bench/validation.py``.

Checks 10,000 games played by the tests' simulator (every preset, every table size its
deal covers, both double-blank values, the engine set aside or found in the hands) and
prints the time per game of ``check_game`` beside the time of merely parsing the same
sheets (reading the engine, every score, every list of tiles and who went out into
numbers, with no rule applied), then one PASS/FAIL line per target (any FAIL: exit status 1).
Use ``--games N`` for another count.
"""

from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

import random  # noqa: E402
import time  # noqa: E402
from dataclasses import replace  # noqa: E402

from game_simulator import load_presets, play_day  # type: ignore[import-not-found]  # noqa: E402  (tests/ is put on the path above)

from domain.sheet_checks import (  # noqa: E402
    SheetRules,
    TypedSheet,
    check_game,
    hand_limits,
    parse_tiles,
    parse_whole_number,
    tile_pips,
)

RATIO_TARGET = 3.0
REPEATS = 7
BATCH = 250
results: list[tuple[str, bool, str]] = []


def simulated_games(count: int, seed: int = 12) -> list[tuple]:
    """(rules, seated, sheet, used engines, withdrawn) for ``count`` games."""
    rng = random.Random(seed)
    presets = load_presets()
    games: list[tuple] = []
    while len(games) < count:
        preset = rng.choice(presets)
        size = rng.choice(preset.table_sizes)
        set_aside = rng.random() < 0.5
        rules = replace(
            preset.rules,
            double_blank_value=rng.choice([0, 50]),
            engine_set_aside=set_aside and rng.random() < 0.5,
        )
        leaves = rng.choice([None, None, 3]) if size > 2 else None
        day = play_day(rules, size, rng, set_aside=set_aside, leaves_before=leaves)
        for sheet, _game, used, gone in day.games:
            games.append((rules, day.seated, sheet, used, gone))
    return games[:count]


def parse_only(sheet: TypedSheet, rules: SheetRules) -> dict[str, object]:
    """The sheet read into numbers with no rule applied: what any reader of it must do.

    The engine, each score (from the tiles where only they were typed), each list of
    tiles and who went out."""
    engine = sheet.engine
    if isinstance(engine, str) and "-" in engine:
        number = parse_tiles(engine, rules.top_double)[0][0]
    else:
        number = parse_whole_number(engine)
    # The simulator types every hand as text ("12-11 6-6").
    hands = {pid: parse_tiles(str(text), rules.top_double) for pid, text in sheet.tiles.items()}
    scores = {}
    for pid, value in sheet.scores.items():
        if value == "" or value is None:
            scores[pid] = tile_pips(hands[pid], rules.double_blank_value)
        else:
            scores[pid] = parse_whole_number(value)
    out = sheet.went_out
    return {
        "engine": number,
        "scores": scores,
        "hands": hands,
        "went_out": None if out is None else parse_whole_number(out),
    }


def parse_all(games: list[tuple]) -> float:
    t0 = time.perf_counter()
    for rules, _seated, sheet, _used, _gone in games:
        parse_only(sheet, rules)
    return time.perf_counter() - t0


def check_all(games: list[tuple]) -> tuple[float, int, int]:
    """Seconds, with how many games were refused and how many asked 'please check'."""
    refused = warned = 0
    t0 = time.perf_counter()
    for rules, seated, sheet, used, gone in games:
        result = check_game(rules, seated, sheet, used, gone)
        refused += bool(result.problems)
        warned += bool(result.warnings)
    return time.perf_counter() - t0, refused, warned


def best_times(games: list[tuple]) -> tuple[float, float, int, int]:
    """Seconds to parse and to check every game, each the sum over small batches of the
    best of the repeats; parsing and checking a batch take turns, so a burst of another
    program's work on the machine weighs on both alike and is not counted."""
    parse_s = check_s = 0.0
    refused = warned = 0
    for start in range(0, len(games), BATCH):
        batch = games[start : start + BATCH]
        best_parse = best_check = float("inf")
        for _ in range(REPEATS):
            best_parse = min(best_parse, parse_all(batch))
            seconds, batch_refused, batch_warned = check_all(batch)
            best_check = min(best_check, seconds)
        parse_s += best_parse
        check_s += best_check
        refused += batch_refused
        warned += batch_warned
    return parse_s, check_s, refused, warned


def main() -> int:
    count = int(sys.argv[sys.argv.index("--games") + 1]) if "--games" in sys.argv else 10_000
    t0 = time.perf_counter()
    games = simulated_games(count)
    print(f"simulated {len(games):,} games in {time.perf_counter() - t0:.1f} s")
    hand_limits.cache_clear()
    parse_s, check_s, refused, warned = best_times(games)
    info = hand_limits.cache_info()
    per_parse = parse_s / len(games) * 1e6
    per_check = check_s / len(games) * 1e6
    ratio = check_s / parse_s
    print()
    print(f"{'':<28}{'total s':>10}{'per game us':>14}")
    print(f"{'parse only':<28}{parse_s:>10.4f}{per_parse:>14.1f}")
    print(f"{'check_game (all checks)':<28}{check_s:>10.4f}{per_check:>14.1f}")
    print(f"ratio check / parse: {ratio:.2f}")
    checks = len(games) * REPEATS
    print(f"hand limits worked out {info.misses} times for {checks:,} checks")
    print(f"games asking 'please check': {warned:,} of {len(games):,}")
    print()
    results.append(
        (f"every simulated game accepted ({len(games):,})", refused == 0, f"{refused} refused")
    )
    results.append(
        (f"checking within {RATIO_TARGET:g}x parsing", ratio <= RATIO_TARGET, f"{ratio:.2f}x")
    )
    tables = {
        (rules, len(seated) - len(gone), parse_only(sheet, rules)["engine"])
        for rules, seated, sheet, _used, gone in games
    }
    results.append(
        (
            "hand limits computed once per (rules, table size, engine)",
            info.misses == len(tables),
            f"{info.misses} computed for {len(tables):,} kinds of table",
        )
    )
    for title, ok, detail in results:
        print(f"{'PASS' if ok else 'FAIL'}: {title} [{detail}]")
    print(f"(benchmark wall time {time.perf_counter() - t0:.1f} s)")
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
