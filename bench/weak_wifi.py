"""The weak-Wi-Fi section of bench/venue.py: every table's phone, a real Chromium page each, on
the venue's poorest Wi-Fi.

Each of the 43 phones (390x844) is throttled through the DevTools protocol to 400 ms round trips
and 400 kbps each way. Of the page's own requests (the table page, its saves and its poll; the
stylesheet and script are cached after the first load), 5% are dropped (half before the server
sees them, half with the answer lost after the server handled them) and 2% hang: the server
handles them and the answer is held for 12 s, past the page's own 10 s limit, then dropped.

Each phone enters three games the way a scorekeeper does: types the scores, taps "went out",
taps Save, and waits for "Game N is saved."; on the browser's error page (a page load lost) it
taps reload, as a person would. About a quarter of the saves get a correction typed while the
save is still on its way or waiting ("Sending..." or "Not sent yet" in the Save bar).

Then the database is read: every game stored exactly once (one live sheet, no two versions alike
in a row, which is what a retry stored twice would leave), with the numbers last on that phone's
screen. It prints the p95 from tap to "Game N is saved." and how many saves needed a retry.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import statistics
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

LATENCY_MS = 400
KILOBITS_PER_SECOND = 400
DROPPED = 0.05
HUNG = 0.02
HANG_SECONDS = 12  # past the page's own limit of 10 s on a save
GAMES = 3
# Fewer phones for a quick look (WEAK_WIFI_PHONES=3); the section's figures are for all 43.
PHONES = int(os.environ.get("WEAK_WIFI_PHONES", "0")) or None
EDITED = 0.35  # the share of saves a correction is tried on; some are answered before it lands
SAVE_SECONDS = 150  # one save's deadline, from the tap: then the phone is counted as failed
PHONE = {"width": 390, "height": 844}
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SUBMISSION = re.compile(r'name="submission_id"\r\n\r\n([^\r]+)')
GAME = re.compile(r'name="game"\r\n\r\n(\d+)')

# Run in the page in one go, so the save's answer cannot come in between the look and the edit:
# a correction only while this game's save is still waiting on the phone.
EDIT_WHILE_WAITING = """([game, pk, points]) => {
  const waiting = Object.keys(localStorage).some((k) => {
    if (!k.endsWith(":game:" + game)) return false;
    try { return JSON.parse(localStorage.getItem(k)).pending === true; } catch (e) { return false; }
  });
  const shown = document.querySelector("input[name=game]");
  if (!waiting || !shown || shown.value !== String(game)) return false;
  const box = document.getElementById("id_score-" + pk);
  box.value = String(points);
  box.dispatchEvent(new Event("input", { bubbles: true }));
  return true;
}"""


@dataclass
class Save:
    table: int
    game: int
    shown: dict[int, int]  # player entry id -> the points last on the phone's screen
    out: int
    ms: float | None = None  # tap to "Game N is saved.", None when it never said so
    edited: bool = False


@dataclass
class Tally:
    saves: list[Save] = field(default_factory=list)
    posts: dict[tuple[int, int], list[str]] = field(default_factory=dict)  # submission ids sent
    dropped_before: int = 0
    answers_lost: int = 0
    hung: int = 0
    requests: int = 0
    reloads: int = 0
    first_loads_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def weak_route(table: int, rng: random.Random, tally: Tally):
    """The Wi-Fi between one phone and the laptop, for the page's own requests."""

    async def handle(route) -> None:
        request = route.request
        if not urlsplit(request.url).path.startswith("/table/"):
            await route.continue_()
            return
        tally.requests += 1
        if request.method == "POST":
            body = request.post_data or ""
            game, submission = GAME.search(body), SUBMISSION.search(body)
            if game and submission:
                key = (table, int(game.group(1)))
                tally.posts.setdefault(key, []).append(submission.group(1))
        luck = rng.random()
        with contextlib.suppress(Exception):  # the page may have given up on it already
            if luck < DROPPED / 2:
                tally.dropped_before += 1
                await route.abort("connectionreset")
            elif luck < DROPPED:
                tally.answers_lost += 1
                await route.fetch()  # the server handles it...
                await route.abort("connectionreset")  # ...and the answer never arrives
            elif luck < DROPPED + HUNG:
                tally.hung += 1
                await route.fetch()
                await asyncio.sleep(HANG_SECONDS)
                await route.abort("timedout")
            else:
                await route.continue_()

    return handle


async def on_error_page(page) -> bool:
    try:
        return str(await page.evaluate("location.href")).startswith("chrome-error:")
    except Exception:  # between two pages: nothing to tell yet
        return False


async def wait_for_text(page, text: str, deadline: float, tally: Tally) -> bool:
    """Wait for ``text``; on the browser's error page, reload it as the scorekeeper would."""
    from playwright.async_api import Error as PlaywrightError

    wanted = page.get_by_text(text, exact=False).first
    while time.monotonic() < deadline:
        with contextlib.suppress(PlaywrightError):
            await wanted.wait_for(state="visible", timeout=1500)
            return True
        if await on_error_page(page):
            tally.reloads += 1
            with contextlib.suppress(PlaywrightError):
                await page.reload(timeout=30_000)
    return False


async def enter_game(page, table: int, rng: random.Random, tally: Tally) -> bool:
    game = int(await page.locator("input[name=game]").input_value())
    rows = await page.locator(".player-entry").evaluate_all(
        "rows => rows.map(r => [Number(r.dataset.player),"
        " r.querySelector('.player-name').textContent.trim()])"
    )
    out_pk, out_name = rng.choice(rows)
    shown = {pk: 0 if pk == out_pk else rng.randint(1, 60) for pk, _ in rows}
    for pk, points in shown.items():
        await page.fill(f"#id_score-{pk}", str(points))
    await page.get_by_label(f"{out_name} went out", exact=True).check()
    save = Save(table, game, shown, out_pk)
    tally.saves.append(save)
    tapped = time.monotonic()
    await page.get_by_role("button", name=f"Save game {game}").click()
    if rng.random() < EDITED:
        await asyncio.sleep(rng.uniform(0.1, 1.5))
        pk = rng.choice([pk for pk in shown if pk != out_pk])
        points = rng.choice([p for p in range(1, 61) if p != shown[pk]])
        if await page.evaluate(EDIT_WHILE_WAITING, [game, pk, points]):
            shown[pk] = points
            save.edited = True
    deadline = tapped + SAVE_SECONDS
    if not await wait_for_text(page, f"Game {game} is saved.", deadline, tally):
        status = await page.locator(".save-bar").all_inner_texts()
        tally.errors.append(f"table {table} game {game}: no 'saved' in {SAVE_SECONDS} s {status}")
        return False
    save.ms = (time.monotonic() - tapped) * 1000
    return True


async def phone(browser, base_url: str, table: int, token: str, tally: Tally) -> None:
    rng = random.Random(9000 + table)
    context = await browser.new_context(viewport=PHONE, base_url=base_url)
    try:
        page = await context.new_page()
        cdp = await context.new_cdp_session(page)
        await cdp.send("Network.enable")
        await cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": LATENCY_MS,
                "downloadThroughput": KILOBITS_PER_SECOND * 1000 / 8,
                "uploadThroughput": KILOBITS_PER_SECOND * 1000 / 8,
            },
        )
        await context.route("**/*", weak_route(table, rng, tally))
        started = time.monotonic()
        with contextlib.suppress(Exception):
            await page.goto(f"/table/{token}/", timeout=30_000)
        if not await wait_for_text(page, "Save game", started + SAVE_SECONDS, tally):
            tally.errors.append(f"table {table}: its page never opened")
            return
        tally.first_loads_ms.append((time.monotonic() - started) * 1000)
        for _ in range(GAMES):
            if not await enter_game(page, table, rng, tally):
                return
    except Exception as error:  # one phone's failure is reported, the others go on
        tally.errors.append(f"table {table}: {type(error).__name__}: {error}"[:300])
    finally:
        await context.close()


async def all_phones(base_url: str, tables: dict[int, str]) -> Tally:
    from playwright.async_api import async_playwright

    tally = Tally()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            await asyncio.gather(
                *(phone(browser, base_url, n, token, tally) for n, token in sorted(tables.items()))
            )
        finally:
            await browser.close()
    return tally


def stored(day) -> tuple[dict[tuple[int, int], list[tuple[int, dict[int, int]]]], dict]:
    """Every version of every game at the day's tables, oldest first, and the live ones."""
    from scoring.models import LIVE_STATES, GameSheet

    versions: dict[tuple[int, int], list[tuple[int, dict[int, int]]]] = {}
    live: dict[tuple[int, int], list[dict[int, int]]] = {}
    sheets = (
        GameSheet.objects.filter(table__day=day)
        .select_related("table", "game")
        .prefetch_related("scores")
        .order_by("version")
    )
    for sheet in sheets:
        key = (sheet.table.number, sheet.game.number)
        points = {score.entry_id: score.points for score in sheet.scores.all()}
        versions.setdefault(key, []).append((sheet.version, points))
        if sheet.state in LIVE_STATES:
            live.setdefault(key, []).append(points)
    return versions, live


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def weak_wifi_section(port: int, day, tables: dict[int, str]) -> list[tuple[str, bool]]:
    tables = dict(sorted(tables.items())[:PHONES])
    started = time.monotonic()
    print(f"weak Wi-Fi: {len(tables)} phones start", flush=True)
    tally = asyncio.run(all_phones(f"http://127.0.0.1:{port}", tables))
    took = time.monotonic() - started
    versions, live = stored(day)
    expected = len(tables) * GAMES
    answered = [save for save in tally.saves if save.ms is not None]
    lost = [s for s in answered if not live.get((s.table, s.game))]
    twice_live = [key for key, sheets in live.items() if len(sheets) > 1]
    differing = [s for s in answered if live.get((s.table, s.game), [None])[-1] != s.shown]
    doubled = [
        key
        for key, kept in versions.items()
        if any(a[1] == b[1] for a, b in zip(kept, kept[1:], strict=False))
    ]
    retried = [
        s for s in tally.saves if any(n > 1 for n in _tries(tally.posts.get((s.table, s.game))))
    ]
    edited = [s for s in tally.saves if s.edited]
    p95 = percentile([s.ms for s in answered if s.ms is not None], 0.95)
    median_load = statistics.median(tally.first_loads_ms) if tally.first_loads_ms else float("nan")
    print(
        f"weak Wi-Fi: {len(tables)} phones at {LATENCY_MS} ms and {KILOBITS_PER_SECOND} kbps, "
        f"{GAMES} games each, {took:.0f} s; the first page load took {median_load:.0f} ms "
        f"(median)"
    )
    print(
        f"  the page's {tally.requests} requests: {tally.dropped_before} dropped before the "
        f"server, {tally.answers_lost} answers lost, {tally.hung} hung for {HANG_SECONDS} s; "
        f"error pages reloaded by hand: {tally.reloads}"
    )
    print(
        f"  saves: {len(answered)} of {expected} said 'saved'; corrected while waiting: "
        f"{len(edited)}; needed a retry: {len(retried)}; p95 from tap to 'saved' {p95:.0f} ms, "
        f"max {max([s.ms or 0 for s in answered] or [0]):.0f} ms"
    )
    print(
        f"  stored: {len(live)} games live, lost {len(lost)}, stored twice {len(twice_live)}, "
        f"a retry stored as a second version {len(doubled)}, differing from the screen "
        f"{len(differing)}"
    )
    for line in (tally.errors + [f"differs: {s}" for s in differing])[:8]:
        print(f"  - {line}")
    whole = (
        len(answered) == expected
        and not tally.errors
        and not lost
        and not twice_live
        and not doubled
        and not differing
        and len(live) == expected
    )
    return [
        (
            f"weak Wi-Fi ({DROPPED:.0%} dropped, {HUNG:.0%} hung): {len(answered)} of {expected} "
            f"saves stored once with the numbers on the screen ({len(edited)} corrected while "
            f"waiting, {len(retried)} retried); p95 tap to 'saved' {p95 / 1000:.1f} s",
            whole,
        )
    ]


def _tries(submission_ids: list[str] | None) -> list[int]:
    """How many times each submission id was sent."""
    counts: dict[str, int] = {}
    for submission in submission_ids or []:
        counts[submission] = counts.get(submission, 0) + 1
    return list(counts.values())
