"""The abuse bench's counting lines (bench/abuse.py, abuses 4 to 7): what a table link lets a
client store, and whether the throttles count right. Each client sends from a loopback address
of its own, as phones on the Wi-Fi do, since the throttles count per address.

4. Session growth: ten table saves of 4 MB, then 50 refused saves from the table's phone, each in
   a new session and each carrying 15 KB of made-up fields: the database grows by under 1 MB.
5. The login window: 11 logins from one address in a second (the 11th turned away), then one
   every few seconds: the first let through again comes 60 s after the first attempt (at most
   61.5 s), not after the attempts stop.
6. Parallel wrong codes: 30 well-formed wrong table codes from one address at once, against a
   limit of 10: exactly 10 looked up (answered 400), the other 20 answered 429 (or closed by the
   venue server's cap on connections from one address).
7. No lock freed: an address locked by 10 wrong codes, then 500 other addresses each typing one:
   the first is still locked.
"""

from __future__ import annotations

import secrets
import threading
import time
from pathlib import Path

from bench.http_load import Browser, inputs

SAVE_BODY = 4 * 1024 * 1024
JUNK_SESSIONS = 50
GROWTH_LIMIT = 1024 * 1024
LOGIN_WINDOW = 60
LOGIN_LIMIT = 10
CODE_LIMIT = 10
PARALLEL_CODES = 30
CROWD = 500


def _status(browser: Browser, path: str, fields: dict) -> str:
    try:
        return str(browser.post(path, fields).status)
    except OSError as error:  # refused before its body was read: the connection is closed
        return f"cut off ({type(error).__name__})"


def session_growth(port: int, table_path: str, database_bytes) -> bool:
    before = database_bytes()
    answers: dict[str, int] = {}
    for _ in range(10):
        phone = Browser(port, "127.0.3.1")
        token = inputs(phone.get(table_path).body).get("csrfmiddlewaretoken", "")
        answer = _status(phone, table_path, {"csrfmiddlewaretoken": token, "x": "y" * SAVE_BODY})
        answers[answer] = answers.get(answer, 0) + 1
    phone = Browser(port, "127.0.3.2")  # the table's own phone: another would be refused
    for _ in range(JUNK_SESSIONS):
        phone.cookies.pop("sessionid", None)  # a new session each time, as a script would
        fields = inputs(phone.get(table_path).body)
        junk = {f"junk-{k}-{secrets.token_hex(4)}": "j" * 1000 for k in range(14)}
        answer = _status(phone, table_path, {**fields, "engine": "99", **junk})
        answers[answer] = answers.get(answer, 0) + 1
    growth = database_bytes() - before
    # Each refused save answered as the page answers one (back to the page, its numbers kept).
    ok = growth < GROWTH_LIMIT and answers.get("302") == JUNK_SESSIONS
    print(
        f"4. 10 table saves of 4 MB and {JUNK_SESSIONS} refused ones with 15 KB of made-up "
        f"fields (answers {answers}): the database grew by {growth:,} bytes",
        flush=True,
    )
    print(f"{'PASS' if ok else 'FAIL'} what a table link lets one client store: under 1 MB")
    return ok


def _login(port: int, source: str) -> int:
    browser = Browser(port, source)
    token = inputs(browser.get("/accounts/login/").body)["csrfmiddlewaretoken"]
    # A new made-up username each time: django-axes's lock (per username and address) stays out.
    username = f"nobody-{secrets.token_hex(4)}"
    fields = {"csrfmiddlewaretoken": token, "username": username, "password": "wrong"}
    return browser.post("/accounts/login/", fields).status


def login_window(port: int) -> bool:
    source = "127.0.4.1"
    first = time.monotonic()
    answers = [_login(port, source) for _ in range(LOGIN_LIMIT + 1)]
    let_through = None
    while time.monotonic() - first < LOGIN_WINDOW + 10:
        late = time.monotonic() - first
        # Every 10 s, and every half second from 3 s before the window's end.
        time.sleep(max(0.5, min(10.0, LOGIN_WINDOW - 3 - late)))
        at = time.monotonic() - first
        if _login(port, source) != 429:
            let_through = at
            break
    ok = answers[-1] == 429 and let_through is not None and LOGIN_WINDOW <= let_through <= 61.5
    shown = "never" if let_through is None else f"{let_through:.1f} s after the first attempt"
    print(
        f"5. {LOGIN_LIMIT + 1} logins at once (the last answered {answers[-1]}), then one every "
        f"10 s: let through again {shown}",
        flush=True,
    )
    print(f"{'PASS' if ok else 'FAIL'} a login lock lasts its window ({LOGIN_WINDOW} s), no longer")
    return ok


def _wrong_code(port: int, source: str, n: int, answers: list, start=None) -> None:
    from tournaments.models import TABLE_CODE_ALPHABET

    phone = Browser(port, source)
    token = inputs(phone.get("/table/").body)["csrfmiddlewaretoken"]
    size = len(TABLE_CODE_ALPHABET)
    code = "".join(TABLE_CODE_ALPHABET[(n // size**k) % size] for k in range(6))
    if start is not None:
        start.wait(30)
    answers.append(_status(phone, "/table/", {"csrfmiddlewaretoken": token, "code": code}))


def parallel_codes(port: int) -> bool:
    answers: list[str] = []
    start = threading.Barrier(PARALLEL_CODES)
    threads = [
        threading.Thread(target=_wrong_code, args=(port, "127.0.5.1", n, answers, start))
        for n in range(PARALLEL_CODES)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    looked_up, refused = answers.count("400"), answers.count("429")
    # More connections at once than the venue server takes from one address: those over its
    # cap are closed unanswered, and are not looked up either.
    cut_off = sum(answer.startswith("cut off") for answer in answers)
    ok = looked_up == CODE_LIMIT and refused + cut_off == PARALLEL_CODES - CODE_LIMIT
    print(
        f"6. {PARALLEL_CODES} wrong codes at once from one address: {looked_up} looked up "
        f"(400), {refused} refused (429), {cut_off} cut off by the connections-per-address cap, "
        f"others {sorted(set(answers) - {'400', '429'})}",
        flush=True,
    )
    print(f"{'PASS' if ok else 'FAIL'} no count lost: exactly {CODE_LIMIT} codes looked up")
    return ok


def no_lock_freed(port: int) -> bool:
    locked: list[str] = []
    for n in range(CODE_LIMIT):
        _wrong_code(port, "127.0.6.1", 100 + n, locked)
    crowd: list[str] = []
    for n in range(CROWD):
        _wrong_code(port, f"127.0.{7 + n // 250}.{1 + n % 250}", 200 + n, crowd)
    after: list[str] = []
    _wrong_code(port, "127.0.6.1", 999, after)
    ok = locked.count("400") == CODE_LIMIT and crowd.count("400") == CROWD and after == ["429"]
    print(
        f"7. one address locked by {CODE_LIMIT} wrong codes, then {CROWD} others one each "
        f"(answers {crowd.count('400')} x 400): the first now answered {after}",
        flush=True,
    )
    print(f"{'PASS' if ok else 'FAIL'} a crowd of other addresses frees no lock")
    return ok


def counting_lines(port: int, table_path: str, db_file: Path, database_bytes) -> list[bool]:
    return [
        session_growth(port, table_path, lambda: database_bytes(db_file)),
        login_window(port),
        parallel_codes(port),
        no_lock_freed(port),
    ]
