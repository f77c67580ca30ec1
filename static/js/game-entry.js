// The table page's save, made to survive a Wi-Fi drop (only the table page's form, #game-entry;
// the correction page posts plainly). One file with the entry helpers below, so a phone on a
// slow connection makes one request for the page's script.
//
// What is typed is kept in this phone's storage (per table and game) until the server answers.
// Save sends the form in the background with an id; if the server cannot be reached the values
// stay, the page says so and sends again on its own. The server stores a save once per id, so a
// save sent again after a lost answer is not stored twice. Without this script the form posts
// as a plain form.
(function () {
  "use strict";
  var form = document.querySelector("form#game-entry");
  if (!form || !window.fetch || !window.FormData) return;
  var storage;
  try { storage = window.localStorage; storage.setItem("mt-probe", "1"); storage.removeItem("mt-probe"); }
  catch (e) { storage = null; }

  var prefix = "mt-table:" + location.pathname + ":game:";
  var gameInput = form.querySelector("input[name=game]");
  var baseInput = form.querySelector("input[name=base_version]");
  var engineSelect = form.querySelector("select[name=engine]");
  var served = { game: gameInput ? gameInput.value : "", base: baseInput ? baseInput.value : "" };
  served.fields = fieldsOf(); // as the server drew them, to show again when coming back to it
  var NOT_SENT = "Not sent yet: will send when the Wi-Fi is back.";
  var FOLLOWS = "Not sent yet: the numbers on screen now are the ones that will be sent. Keep this page open.";
  var TIMEOUT_MS = 10000; // a save that has not been answered by then is given up and tried again
  var retryTimer = null;
  var tries = 0;
  var MAX_TRIES = 2000; // a whole day of tries at the longest wait; then a reload starts again
  var sending = false;
  var waitingOnline = false;
  var memory = {}; // when the phone keeps no storage (private browsing), for this page only
  var storedGames = []; // the games this page has had stored, for the page after them to say so
  // The games still to enter and the engine each is planned on: "2:11 3:10".
  var toEnter = (form.getAttribute("data-to-enter") || "").split(" ").filter(Boolean).map(function (pair) {
    return pair.split(":");
  });

  var notice = document.createElement("p");
  notice.className = "offline-note";
  notice.setAttribute("role", "status");
  notice.setAttribute("aria-live", "polite");
  notice.hidden = true;
  // The Save buttons may sit outside the form (form="..."), in the bar below the page.
  var buttons = Array.prototype.slice.call(form.id
    ? document.querySelectorAll("button[type=submit][form='" + form.id + "']") : []);
  if (!buttons.length) buttons = Array.prototype.slice.call(form.querySelectorAll("button[type=submit]"));
  // The save's state sits in the Save bar, under the thumb, not at the top of a scrolled page.
  var bar = document.querySelector(".save-bar");
  if (bar) bar.insertBefore(notice, bar.firstChild); else form.appendChild(notice);
  // Games waiting to be sent, to change while they wait, and the next game to enter meanwhile.
  var nextButton = button("secondary");
  notice.parentNode.insertBefore(nextButton, notice.nextSibling);
  var waitingBox = document.createElement("div");
  waitingBox.className = "waiting-games";
  form.insertBefore(waitingBox, form.querySelector("h2"));
  function button(css) {
    var b = document.createElement("button");
    b.type = "button"; b.className = css; b.hidden = true;
    return b;
  }
  // The table page's poll (below) asks before it looks: not while a save is on its way or waits.
  form.saveBusy = function () { return sending || queue().length > 0; };
  function disable(yes) { buttons.forEach(function (b) { b.disabled = yes; }); }
  function shown() { return gameInput ? gameInput.value : ""; }
  function keyOf(game) { return prefix + game; }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var s = "";
    for (var i = 0; i < 4; i++) s += Math.random().toString(36).slice(2, 10);
    return s;
  }
  function read(k) {
    if (!storage) return memory[k] || null;
    try { return JSON.parse(storage.getItem(k) || "null"); } catch (e) { return null; }
  }
  function write(k, value) {
    memory[k] = value;
    if (!storage) return;
    try { storage.setItem(k, JSON.stringify(value)); } catch (e) { /* storage full: carry on */ }
  }
  function forget(k) {
    delete memory[k];
    if (storage) storage.removeItem(k);
  }
  // Every save waiting to be sent, in the order of the games.
  function queue() {
    var keys = storage ? [] : Object.keys(memory);
    for (var i = 0; storage && i < storage.length; i++) keys.push(storage.key(i));
    return keys.filter(function (k) { return k && k.indexOf(prefix) === 0; })
      .map(function (k) { var saved = read(k); return saved && saved.pending ? { key: k, saved: saved } : null; })
      .filter(Boolean)
      .sort(function (a, b) { return Number(a.saved.game) - Number(b.saved.game); });
  }
  // "Keep the saved numbers" (another phone saved this game first): this phone's typing of it
  // goes, so the page does not put it back and clash again.
  document.addEventListener("click", function (event) {
    var keep = event.target.closest && event.target.closest("a[data-keep-saved]");
    if (keep) forget(keyOf(keep.getAttribute("data-keep-saved")));
  });
  function fieldsOf() {
    var out = [];
    new FormData(form).forEach(function (value, name) { out.push([name, String(value)]); });
    return out;
  }
  // The "went out" ticks the page made itself (from a lone 0, see below), kept with what was
  // typed: put back after a reload, they still go when that 0 changes.
  function inferredOf() {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && el.hasAttribute("data-inferred");
    }).map(function (el) { return el.name; });
  }
  function restore(fields, inferred) {
    var byName = {};
    fields.forEach(function (pair) { byName[pair[0]] = pair[1]; });
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit") return;
      if (el.type === "checkbox" || el.type === "radio") {
        el.checked = byName[el.name] === el.value;
        if (el.checked && (inferred || []).indexOf(el.name) >= 0) el.setAttribute("data-inferred", "1");
        else el.removeAttribute("data-inferred");
      } else if (el.name in byName) el.value = byName[el.name];
    });
  }
  function say(text) { notice.textContent = text; notice.hidden = !text; }
  function sayWaiting() {
    var games = queue().map(function (q) { return q.saved.game; });
    say(NOT_SENT + (games.length > 1 ? " " + games.length + " games are waiting: " + games.join(", ") + "." : "") +
      " Keep this page open.");
  }

  // The form shows another game without asking the server (which may be out of reach): what
  // this phone keeps of it, or an empty card on its planned engine.
  function showGame(game) {
    var saved = read(keyOf(game));
    var own = game === served.game;
    var fields = saved ? saved.fields : own ? served.fields : [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.type === "checkbox") el.checked = false;
      else if (el.type === "text" || el.tagName === "TEXTAREA") el.value = "";
      el.removeAttribute("aria-invalid");
      el.removeAttribute("data-inferred");
    });
    // What the server said about the game it drew (errors, the desk's notes) is not about this one.
    if (!own) {
      Array.prototype.forEach.call(document.querySelectorAll(
        ".conflict, .messages, .wrong-note, .provisional, .please-check, .entry-form .error, .field-error, " +
        ".field-warning, .zero-question, .save-bar .fix-it, .save-bar [name=rechecked]"), function (el) { el.hidden = true; });
    }
    gameInput.value = game;
    baseInput.value = own ? served.base : "0";
    var engine = plannedEngine(game);
    if (engineSelect && engine) engineSelect.value = engine;
    restore(fields, saved && saved.inferred);
    Array.prototype.forEach.call(document.querySelectorAll("[data-shown-game]"), function (el) { el.textContent = game; });
    Array.prototype.forEach.call(document.querySelectorAll("[data-shown-engine]"), function (el) {
      el.textContent = engineSelect ? engineSelect.value : engine;
    });
    if (bar) bar.setAttribute("aria-label", "Save game " + game);
    drawWaiting();
    window.scrollTo(0, 0);
  }
  function plannedEngine(game) {
    var taken = queue().filter(function (q) { return q.saved.game !== game; }).map(function (q) {
      var pair = q.saved.fields.filter(function (f) { return f[0] === "engine"; })[0];
      return pair ? pair[1] : "";
    });
    var plan = toEnter.filter(function (p) { return p[0] === game; })[0];
    if (plan && plan[1] && taken.indexOf(plan[1]) < 0) return plan[1];
    var free = engineSelect ? Array.prototype.filter.call(engineSelect.options, function (o) {
      return taken.indexOf(o.value) < 0;
    })[0] : null;
    return free ? free.value : "";
  }
  function nextToEnter() {
    var waiting = queue().map(function (q) { return q.saved.game; });
    var next = toEnter.filter(function (p) { return p[0] !== shown() && waiting.indexOf(p[0]) < 0; })[0];
    return next ? next[0] : null;
  }
  function drawWaiting() {
    var waiting = queue();
    var next = nextToEnter();
    var mine = waiting.some(function (q) { return q.saved.game === shown(); });
    nextButton.hidden = !(mine && next);
    if (next) { nextButton.textContent = "Enter game " + next + " now"; nextButton.value = next; }
    waitingBox.textContent = "";
    waiting.forEach(function (q) {
      if (q.saved.game === shown()) return;
      var change = button("secondary");
      change.textContent = "Change game " + q.saved.game + " (not sent yet)";
      change.value = q.saved.game;
      change.hidden = false;
      waitingBox.appendChild(change);
    });
    waitingBox.hidden = !waitingBox.firstChild;
    drawTotalsWaiting(waiting);
  }
  // The totals on the page are the stored ones: a game waiting to be sent is not in them yet.
  function drawTotalsWaiting(waiting) {
    var note = document.querySelector("[data-totals-waiting]");
    if (!note) return;
    var games = waiting.map(function (q) { return q.saved.game; });
    note.textContent = games.length ? "Not in these totals yet: game" + (games.length > 1 ? "s " : " ") +
      games.join(", ") + " (not sent yet)." : "";
    note.hidden = !games.length;
  }
  nextButton.addEventListener("click", function () { showGame(nextButton.value); });
  waitingBox.addEventListener("click", function (event) {
    if (event.target.value) showGame(event.target.value);
  });

  function send() {
    var first = queue()[0];
    if (sending || !first) return;
    var k = first.key, saved = first.saved;
    sending = true;
    disable(true); // one save on its way at a time
    var body = new FormData();
    saved.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    var csrf = form.querySelector("input[name=csrfmiddlewaretoken]");
    if (csrf) body.set("csrfmiddlewaretoken", csrf.value); // this page's token, never a stale one
    body.set("submission_id", saved.id);
    var abort = window.AbortController ? new AbortController() : null;
    var timer = abort ? setTimeout(function () { abort.abort(); }, TIMEOUT_MS) : null;
    fetch(location.pathname, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: { "X-Table-Save": "background" }, signal: abort ? abort.signal : undefined
    })
      .then(function (response) {
        clearTimeout(timer);
        sending = false;
        waitingOnline = false;
        var now = read(k);
        var stored = response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400);
        if (stored && now && now.pending && now.id !== saved.id) {
          // Changed while this save was on its way: the change goes too. The server takes a
          // phone's change to its own entry as the next version (submit.check_versions), so
          // what is stored in the end is what is on the screen.
          say(FOLLOWS);
          send();
          return;
        }
        forget(k);
        if (stored) {
          // Stored (or stored already): the next game waiting goes, then the page after a save
          // shows what the server holds now, and says which games are saved (the address
          // carries them, so that page lost on its way and loaded again still says it).
          if (storedGames.indexOf(saved.game) < 0) storedGames.push(saved.game);
          if (queue().length) { tries = 0; send(); return; }
          location.assign(location.pathname + "?saved=" + storedGames.join(","));
          return;
        }
        if (response.status === 409) {
          // Not stored: a mistake to fix or a score to confirm. The server kept what was typed
          // with its answer; the game's page shows them next to the fields.
          location.assign(location.pathname + "?game=" + encodeURIComponent(saved.game || ""));
          return;
        }
        // The server answered without storing (the link changed, say): post the
        // same form the ordinary way, so the page shows the answer next to the fields.
        if (saved.game !== shown()) showGame(saved.game);
        var hidden = document.createElement("input");
        hidden.type = "hidden"; hidden.name = "submission_id"; hidden.value = saved.id;
        form.appendChild(hidden);
        restore(saved.fields, saved.inferred);
        HTMLFormElement.prototype.submit.call(form);
      })
      .catch(function () {
        clearTimeout(timer);
        sending = false;
        disable(false);
        sayWaiting();
        drawWaiting();
        retryLater();
      });
  }
  function retryLater() {
    clearTimeout(retryTimer);
    waitingOnline = true;
    if (++tries > MAX_TRIES) return;
    var wait = Math.min(2000 * tries, 20000);
    retryTimer = setTimeout(send, wait);
  }
  window.addEventListener("online", function () {
    if (!waitingOnline) return;
    tries = 0;
    clearTimeout(retryTimer);
    send();
  });

  form.addEventListener("input", keepTyping);
  // A "went out" tapped by hand is seen by the entry helpers below on "change", which comes
  // after "input": kept again then, with the 0 it filled in and no longer taken as inferred.
  form.addEventListener("change", function (event) { if (event.target.type === "checkbox") keepTyping(); });
  function keepTyping() {
    var key = keyOf(shown());
    var saved = read(key);
    if (saved && saved.pending) {
      // A save waiting to be sent follows the edits, so what is sent is what is on the screen.
      // It gets a new id: an earlier try the server may have stored is never taken for this one.
      var names = {};
      var fields = fieldsOf();
      fields.forEach(function (pair) { names[pair[0]] = true; });
      saved.fields.forEach(function (pair) { if (!names[pair[0]]) fields.push(pair); });
      saved.fields = fields;
      saved.inferred = inferredOf();
      saved.id = newId();
      write(key, saved);
      say(FOLLOWS);
      return;
    }
    write(key, {
      fields: fieldsOf(), inferred: inferredOf(), base: baseInput ? baseInput.value : "", pending: false, game: shown()
    });
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var fields = fieldsOf();
    // The button pressed says what it is for ("Yes, it is right" confirms the scores asked about).
    var by = event.submitter;
    if (by && by.name) fields.push([by.name, by.value]);
    var game = shown();
    write(keyOf(game), {
      fields: fields, inferred: inferredOf(), base: baseInput ? baseInput.value : "", pending: true, id: newId(), game: game
    });
    tries = 0;
    // The green "saved" of the game before is no longer news while this one is on its way.
    Array.prototype.forEach.call(document.querySelectorAll(".messages li"), function (li) {
      li.hidden = true;
    });
    say("Sending game " + game + "…");
    if (sending) return; // sent when the one on its way is answered
    send();
  });

  // Back on the page: put back what was typed, and send again any save not yet answered, unless
  // the page shows why one was not stored (then it waits for this one to be saved again).
  var refused = document.querySelector(".entry-form .field-error, .entry-form .error, .conflict, .save-bar .fix-it");
  var mine = read(keyOf(served.game));
  if (mine && mine.base === served.base && !refused) restore(mine.fields, mine.inferred);
  drawWaiting();
  if (queue().length) {
    sayWaiting();
    if (!refused) send();
  }
})();

/* The table page notices by itself when its sheets change (the desk marked a game wrong or
   confirmed it, another phone saved one): every data-seconds while the page is in view, and
   never while a save is sending or waiting, it asks the table's link for the sheets'
   fingerprint (scoring/table_watch.py). When it differs from the one the page was drawn with,
   a page with nothing typed on it is drawn again; one with typing says what changed, in big
   words at the top and in the Save bar, with "Show it" (what was typed is kept, see above).
   A request that fails is tried again at the next turn, without a word. */
(function () {
  "use strict";
  var watch = document.querySelector(".table-watch[data-watch]");
  if (!watch || !window.fetch) return;
  var drawn = watch.getAttribute("data-fingerprint") || "";
  var seconds = Number(watch.getAttribute("data-seconds")) || 30;
  var form = document.querySelector("form#game-entry");
  var timer = null;
  var asking = false;
  var told = null;

  function busy() { return !!(form && form.saveBusy && form.saveBusy()); }
  // Anything on the page that is not as the server drew it: a score typed, a box ticked, a
  // card total, or what this phone kept and put back.
  function typed() {
    return Array.prototype.some.call(document.querySelectorAll("input, textarea, select"), function (el) {
      if (el.type === "hidden" || el.type === "submit" || el.type === "button") return false;
      if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
      if (el.tagName === "SELECT") {
        return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
      }
      return el.value !== el.defaultValue;
    });
  }
  function games(print) {
    var out = {};
    print.split(" ").filter(Boolean).forEach(function (token) {
      var part = token.split(".");
      out[part[0]] = part[1] + "." + part[2];
    });
    return out;
  }
  function said(number, was, now) {
    var state = now ? now.split(".")[1] : "";
    if (state === "w") return "The desk marked game " + number + " wrong: check it.";
    if (state === "e") return "Another phone saved game " + number + ".";
    if (state === "n") return "The desk marked game " + number + " not played.";
    if (state === "c" && was && was.split(".")[0] === now.split(".")[0]) return "The desk confirmed game " + number + ".";
    return "The desk changed game " + number + ": check it.";
  }
  function changes(print) {
    var before = games(drawn), after = games(print);
    var numbers = Object.keys(before).concat(Object.keys(after)).filter(function (n, i, all) {
      return all.indexOf(n) === i && before[n] !== after[n];
    }).sort(function (a, b) { return Number(a) - Number(b); });
    return numbers.map(function (n) { return said(n, before[n], after[n]); });
  }
  // At the top a line per change; in the Save bar one short paragraph beside the button, so
  // the form above keeps most of the screen.
  function note(lines, short) {
    var box = document.createElement("div");
    box.className = "watch-note";
    (short ? [lines.join(" ")] : lines).forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      box.appendChild(p);
    });
    var show = document.createElement("button");
    show.type = "button";
    show.className = "big";
    show.textContent = "Show it";
    show.addEventListener("click", function () { location.reload(); });
    box.appendChild(show);
    return box;
  }
  function tell(lines) {
    watch.textContent = "";
    watch.appendChild(note(lines));
    watch.setAttribute("role", "alert");
    watch.hidden = false;
    var bar = document.querySelector(".save-bar");
    if (!bar) return;
    var old = bar.querySelector(".watch-note");
    if (old) old.remove();
    bar.insertBefore(note(lines, true), bar.firstChild);
  }
  function changed(print, lines) {
    if (!typed()) { location.reload(); return; }
    if (print !== told) tell(lines);
    told = print;
    later();
  }
  function later() {
    clearTimeout(timer);
    timer = setTimeout(check, seconds * 1000);
  }
  function check() {
    if (document.hidden || busy() || asking) { later(); return; }
    asking = true;
    var abort = window.AbortController ? new AbortController() : null;
    var limit = abort ? setTimeout(function () { abort.abort(); }, 10000) : null;
    fetch(watch.getAttribute("data-watch"), {
      cache: "no-store", credentials: "same-origin", signal: abort ? abort.signal : undefined
    })
      .then(function (response) {
        if (response.status === 404) return { gone: true };
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (state) {
        clearTimeout(limit);
        asking = false;
        if (busy()) { later(); return; } // a save began meanwhile: the page after it shows all
        if (state.gone) { changed("gone", ["This table's link no longer opens its page: ask the desk."]); return; }
        if (state.fingerprint === drawn) { later(); return; }
        changed(state.fingerprint, changes(state.fingerprint));
      })
      .catch(function () { clearTimeout(limit); asking = false; later(); });
  }
  // Back in view (the phone woke, the tab came back) or the Wi-Fi back (the page may be the
  // phone's copy, drawn without it): ask now rather than at the next turn.
  document.addEventListener("visibilitychange", function () { if (!document.hidden) check(); });
  window.addEventListener("online", check);
  later();
})();

/* Without Wi-Fi. The banner above the page says so, and that what is typed is kept (above).
   A page from the phone's history (the back button, a tab opened again) is the phone's copy:
   with Wi-Fi the server's page is drawn instead; without, the copy stays and says it is one.
   A link tapped with no Wi-Fi waits, said in the banner, and opens once the Wi-Fi is back,
   instead of the browser's error page. */
(function () {
  "use strict";
  var banner = document.querySelector("[data-offline-banner]");
  if (!banner) return;
  var entry = window.performance && performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
  var fromHistory = !!entry && entry.type === "back_forward";
  var copy = false;
  var waitingLink = null;

  function show() {
    if (navigator.onLine) { banner.hidden = true; banner.textContent = ""; return; }
    var text = (copy ? "No Wi-Fi: this is the page as this phone last had it. " : "No Wi-Fi. ") +
      "What you type stays on this phone, and saves are sent when the Wi-Fi is back.";
    if (waitingLink) text += " \u201c" + waitingLink.name + "\u201d opens when the Wi-Fi is back.";
    banner.textContent = text;
    banner.hidden = false;
  }
  window.addEventListener("pageshow", function (event) {
    var again = event.persisted || fromHistory;
    if (again && navigator.onLine) { location.reload(); return; }
    copy = again;
    show();
  });
  window.addEventListener("offline", show);
  window.addEventListener("online", function () {
    if (waitingLink) { location.assign(waitingLink.href); return; }
    show();
  });
  document.addEventListener("click", function (event) {
    if (navigator.onLine || event.defaultPrevented || event.button !== 0 ||
        event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || link.target || link.origin !== location.origin) return;
    if (link.hash && link.pathname === location.pathname && link.search === location.search) return;
    event.preventDefault();
    waitingLink = { href: link.href, name: link.textContent.trim() };
    show();
  });
})();

/* The phone's game entry: fills in what the server infers anyway (scoring.validation
   infer_outcome), so nobody types the same fact twice. Without this script the server does
   the same when the form is saved, or asks.
   - Tapping "went out" for a player whose score is blank fills in their 0.
   - A 0 typed where only going out gives 0 (the double blank counts more than 0, or it was
     the engine) taps "went out" for that player; where a 0 could also be a hand holding just
     the double blank, the page asks which. */
(function () {
  "use strict";
  var form = document.querySelector(".entry-form");
  var players = form && form.querySelector(".players");
  if (!players) return;
  var blankValue = parseInt(players.getAttribute("data-blank-value"), 10) || 0;
  var engine = form.querySelector("#id_engine");
  var blocked = form.querySelector("#id_blocked");
  var rows = Array.prototype.slice.call(players.querySelectorAll(".player-entry"));

  function parts(row) {
    return {
      row: row,
      score: row.querySelector("input.score"),
      out: row.querySelector(".out-toggle input"),
      tiles: row.querySelector("details.tiles input"),
      question: row.querySelector(".zero-question"),
      name: row.querySelector(".player-name").textContent.trim()
    };
  }
  var all = rows.map(parts);

  function isZero(p) { return /^\s*0+\s*$/.test(p.score.value); }
  function nobodyOut(except) {
    return all.every(function (p) { return p === except || !p.out.checked; });
  }
  function hideQuestions() {
    all.forEach(function (p) { p.question.hidden = true; });
  }
  function zeroMeansOut() {
    return blankValue > 0 || (engine && engine.value === "0");
  }

  function scoreTyped(p) {
    hideQuestions();
    if (p.out.getAttribute("data-inferred") && !isZero(p)) {
      p.out.checked = false;  // we ticked it for a 0 that is no longer there
      p.out.removeAttribute("data-inferred");
    }
    var zeros = all.filter(isZero);
    if (zeros.length !== 1 || zeros[0] !== p || (blocked && blocked.checked) || !nobodyOut(p)) return;
    if (p.out.checked) return;
    if (zeroMeansOut()) {
      p.out.checked = true;
      p.out.setAttribute("data-inferred", "1");
    } else {
      p.question.textContent = "Did " + p.name + " go out? If so, tap \u201cwent out\u201d. " +
        "If " + p.name + " was left holding only the double blank, tap who went out, " +
        "or \u201cBlocked\u201d.";
      p.question.hidden = false;
    }
  }

  // Enter in a score moves to the next player's score, as the phone's keyboard says ("next"),
  // instead of sending a half-typed game; Enter in the last one goes on to Save as before.
  all.forEach(function (p, i) {
    var next = all[i + 1];
    if (!next) return;
    p.score.setAttribute("enterkeyhint", "next");
    p.score.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();
      next.score.focus();
    });
  });

  all.forEach(function (p) {
    p.score.addEventListener("input", function () { scoreTyped(p); });
    p.out.addEventListener("change", function () {
      p.out.removeAttribute("data-inferred");
      hideQuestions();
      if (p.out.checked && !p.score.value.trim() && !(p.tiles && p.tiles.value.trim())) {
        p.score.value = "0";
      }
    });
  });
})();

// "Call the desk" without Wi-Fi: the page says the call did not go, instead of the browser's
// error page.
(function () {
  "use strict";
  var calls = document.querySelector("form.call-buttons");
  if (!calls) return;
  var note = document.querySelector("[data-call-offline]");
  calls.addEventListener("submit", function (event) {
    if (navigator.onLine) return;
    event.preventDefault();
    if (note) note.hidden = false;
  });
  window.addEventListener("online", function () { if (note) note.hidden = true; });
})();
