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
import itertools
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
TRACE = bool(os.environ.get("WEAK_WIFI_TRACE"))  # a line per save as it is answered
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
    # what the Wi-Fi did to which kind of request: ("dropped", "save") -> how many
    faults: dict[tuple[str, str], int] = field(default_factory=dict)
    requests: int = 0
    reloads: int = 0
    first_loads_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def met(self, fault: str, kind: str) -> None:
        self.faults[fault, kind] = self.faults.get((fault, kind), 0) + 1

    def fault(self, line: str) -> None:
        self.errors.append(line)
        if TRACE:
            print(f"  ! {line}", flush=True)


def request_kind(method: str, url: str) -> str:
    if method == "POST":
        return "save"
    return "poll" if urlsplit(url).path.endswith("/sheets/") else "page"


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
        kind = request_kind(request.method, request.url)
        with contextlib.suppress(Exception):  # the page may have given up on it already
            if luck < DROPPED / 2:
                tally.met("dropped", kind)
                await route.abort("connectionreset")
            elif luck < DROPPED:
                tally.met("answer lost", kind)
                await route.fetch()  # the server handles it...
                await route.abort("connectionreset")  # ...and the answer never arrives
            elif luck < DROPPED + HUNG:
                tally.met("hung", kind)
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


# The page's script has run: before it, a tap on Save is the form's own post (the way a page
# without its script saves), which is not what this section measures. Routing turns the
# browser's cache off, so every page load fetches the script again at 400 kbps.
SCRIPT_READY = (
    "() => { const f = document.querySelector('form#game-entry'); return !!(f && f.saveBusy); }"
)


async def wait_for_text(page, text: str, deadline: float, tally: Tally) -> float | None:
    """When ``text`` was first seen, once the page's script has run too; on the browser's error
    page, reload it as the scorekeeper would."""
    from playwright.async_api import Error as PlaywrightError

    wanted = page.get_by_text(text, exact=False).first
    seen = None
    while time.monotonic() < deadline:
        with contextlib.suppress(PlaywrightError):
            await wanted.wait_for(state="visible", timeout=1500)
            seen = seen or time.monotonic()
            await page.wait_for_function(SCRIPT_READY, timeout=1500)
            return seen
        if await on_error_page(page):
            tally.reloads += 1
            with contextlib.suppress(PlaywrightError):
                await page.reload(timeout=30_000)
    return None


async def looks(page) -> str:
    """What the phone shows, for the report of a save that never said "saved"."""
    with contextlib.suppress(Exception):
        return str(
            await page.evaluate(
                "() => [location.href, (document.querySelector('.save-bar') || {}).innerText,"
                " Array.from(document.querySelectorAll('.messages li, .errorlist'))"
                ".map(e => e.innerText).join(' | '), JSON.stringify(Object.entries(localStorage)"
                ".map(([k, v]) => [k.split(':').pop(), JSON.parse(v).pending]))].join(' ; ')"
            )
        )
    return "(the page could not be read)"


async def edit_while_waiting(page, change: list[int]) -> bool:
    """Whether the correction was typed. The page leaving under it (the save was answered and
    the page goes to "saved") means it was not: the save is no longer waiting then, so the
    script in the page does nothing even if it ran, and the check of the database against the
    screen would find it if it had."""
    from playwright.async_api import Error as PlaywrightError

    try:
        return bool(await page.evaluate(EDIT_WHILE_WAITING, change))
    except PlaywrightError:
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
    if TRACE:
        print(f"  table {table} game {game}: Save tapped", flush=True)
    tapped = time.monotonic()
    await page.get_by_role("button", name=f"Save game {game}").click()
    if rng.random() < EDITED:
        await asyncio.sleep(rng.uniform(0.1, 1.5))
        pk = rng.choice([pk for pk in shown if pk != out_pk])
        points = rng.choice([p for p in range(1, 61) if p != shown[pk]])
        if await edit_while_waiting(page, [game, pk, points]):
            shown[pk] = points
            save.edited = True
    deadline = tapped + SAVE_SECONDS
    said = await wait_for_text(page, f"Game {game} is saved.", deadline, tally)
    if said is None:
        tally.fault(
            f"table {table} game {game}: no 'saved' in {SAVE_SECONDS} s; {await looks(page)}"
        )
        return False
    save.ms = (said - tapped) * 1000
    if TRACE:
        print(f"  table {table} game {game}: saved in {save.ms:.0f} ms", flush=True)
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
        opened = await wait_for_text(page, "Save game", started + SAVE_SECONDS, tally)
        if opened is None:
            tally.fault(f"table {table}: its page never opened")
            return
        tally.first_loads_ms.append((opened - started) * 1000)
        for _ in range(GAMES):
            if not await enter_game(page, table, rng, tally):
                return
    except Exception as error:  # one phone's failure is reported, the others go on
        tally.fault(f"table {table}: {type(error).__name__}: {error}"[:300])
    finally:
        # A hung answer still held by the route would keep close() waiting for it.
        with contextlib.suppress(Exception):
            await context.unroute_all(behavior="ignoreErrors")
        await context.close()


async def all_phones(base_url: str, tables: dict[int, str]) -> Tally:
    from playwright.async_api import async_playwright

    tally = Tally()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            watch = asyncio.create_task(_watchdog()) if TRACE else None
            await asyncio.gather(
                *(phone(browser, base_url, n, token, tally) for n, token in sorted(tables.items()))
            )
            if watch:
                watch.cancel()
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


@dataclass
class Findings:
    expected: int
    answered: list[Save]
    live: dict
    lost: list[Save]
    twice_live: list
    doubled: list
    differing: list[Save]
    retried: list[Save]
    edited: list[Save]
    p95: float

    @property
    def whole(self) -> bool:
        return (
            len(self.answered) == self.expected
            and len(self.live) == self.expected
            and not (self.lost or self.twice_live or self.doubled or self.differing)
        )


def findings(tally: Tally, day, expected: int) -> Findings:
    """The database against what each phone's screen showed last."""
    versions, live = stored(day)
    answered = [save for save in tally.saves if save.ms is not None]
    return Findings(
        expected=expected,
        answered=answered,
        live=live,
        lost=[s for s in answered if not live.get((s.table, s.game))],
        twice_live=[key for key, sheets in live.items() if len(sheets) > 1],
        differing=[s for s in answered if live.get((s.table, s.game), [None])[-1] != s.shown],
        # a retry stored twice leaves two versions alike in a row
        doubled=[
            key
            for key, kept in versions.items()
            if any(a[1] == b[1] for a, b in itertools.pairwise(kept))
        ],
        retried=[
            s for s in tally.saves if any(n > 1 for n in _tries(tally.posts.get((s.table, s.game))))
        ],
        edited=[s for s in tally.saves if s.edited],
        p95=percentile([s.ms for s in answered if s.ms is not None], 0.95),
    )


def print_findings(phones: int, took: float, tally: Tally, found: Findings) -> None:
    median_load = statistics.median(tally.first_loads_ms) if tally.first_loads_ms else float("nan")
    print(
        f"weak Wi-Fi: {phones} phones at {LATENCY_MS} ms and {KILOBITS_PER_SECOND} kbps, "
        f"{GAMES} games each, {took:.0f} s; the first page load took {median_load:.0f} ms "
        f"(median)"
    )
    met = ", ".join(f"{n} {kind} {fault}" for (fault, kind), n in sorted(tally.faults.items()))
    print(
        f"  the page's {tally.requests} requests (hung: answer held {HANG_SECONDS} s, then "
        f"dropped): {met or 'none met the weak Wi-Fi'}; error pages reloaded by hand: "
        f"{tally.reloads}"
    )
    slowest = max([s.ms or 0 for s in found.answered] or [0])
    posts = sum(map(len, tally.posts.values()))
    print(
        f"  saves: {len(found.answered)} of {found.expected} said 'saved'; corrected while "
        f"waiting: {len(found.edited)}; needed a retry (the same save sent again): "
        f"{len(found.retried)}; {posts} posts in all; p95 from tap to 'saved' "
        f"{found.p95:.0f} ms, max {slowest:.0f} ms"
    )
    print(
        f"  stored: {len(found.live)} games live, lost {len(found.lost)}, stored twice "
        f"{len(found.twice_live)}, a retry stored as a second version {len(found.doubled)}, "
        f"differing from the screen {len(found.differing)}"
    )
    for line in (tally.errors + [f"differs: {s}" for s in found.differing])[:8]:
        print(f"  - {line}")


def weak_wifi_section(port: int, day, tables: dict[int, str]) -> list[tuple[str, bool]]:
    tables = dict(sorted(tables.items())[:PHONES])
    started = time.monotonic()
    print(f"weak Wi-Fi: {len(tables)} phones start", flush=True)
    tally = asyncio.run(all_phones(f"http://127.0.0.1:{port}", tables))
    found = findings(tally, day, len(tables) * GAMES)
    print_findings(len(tables), time.monotonic() - started, tally, found)
    return [
        (
            f"weak Wi-Fi ({DROPPED:.0%} dropped, {HUNG:.0%} hung): {len(found.answered)} of "
            f"{found.expected} saves stored once with the numbers on the screen "
            f"({len(found.edited)} corrected while waiting, {len(found.retried)} retried); "
            f"p95 tap to 'saved' {found.p95 / 1000:.1f} s",
            found.whole and not tally.errors,
        )
    ]


def _tries(submission_ids: list[str] | None) -> list[int]:
    """How many times each submission id was sent."""
    counts: dict[str, int] = {}
    for submission in submission_ids or []:
        counts[submission] = counts.get(submission, 0) + 1
    return list(counts.values())


async def _watchdog() -> None:
    while True:
        await asyncio.sleep(60)
        for task in asyncio.all_tasks():
            task.print_stack(limit=6)
