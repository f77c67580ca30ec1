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
  var key = prefix + (gameInput ? gameInput.value : "");
  var NOT_SENT = "Not sent yet: will send when the Wi-Fi is back. Keep this page open.";
  var FOLLOWS = "Not sent yet: the numbers on screen now are the ones that will be sent. Keep this page open.";
  var TIMEOUT_MS = 10000; // a save that has not been answered by then is given up and tried again
  var retryTimer = null;
  var tries = 0;
  var MAX_TRIES = 2000; // a whole day of tries at the longest wait; then a reload starts again
  var sending = false;
  var memory = {}; // when the phone keeps no storage (private browsing), for this page only
  var resend = null;

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
  function disable(yes) { buttons.forEach(function (b) { b.disabled = yes; }); }

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
  // "Keep the saved numbers" (another phone saved this game first): this phone's typing of it
  // goes, so the page does not put it back and clash again.
  document.addEventListener("click", function (event) {
    var keep = event.target.closest && event.target.closest("a[data-keep-saved]");
    if (keep) forget(prefix + keep.getAttribute("data-keep-saved"));
  });
  function fieldsOf() {
    var out = [];
    new FormData(form).forEach(function (value, name) { out.push([name, String(value)]); });
    return out;
  }
  function baseVersion() {
    var el = form.querySelector("input[name=base_version]");
    return el ? el.value : "";
  }
  function restore(fields) {
    var byName = {};
    fields.forEach(function (pair) { byName[pair[0]] = pair[1]; });
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit") return;
      if (el.type === "checkbox" || el.type === "radio") el.checked = byName[el.name] === el.value;
      else if (el.name in byName) el.value = byName[el.name];
    });
  }
  function say(text) { notice.textContent = text; notice.hidden = !text; }

  function send(k) {
    var saved = read(k);
    if (sending || !saved || !saved.pending) return;
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
        resend = null;
        var now = read(k);
        if (now && now.pending && now.id !== saved.id && response.type === "opaqueredirect") {
          // Changed while this save was on its way: the change goes too, on the version the
          // server has now, which the server refuses as a clash and shows both side by side.
          say(FOLLOWS);
          send(k);
          return;
        }
        if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
          // Stored (or stored already): the page after a save shows what the server holds now.
          forget(k);
          location.assign(location.pathname);
          return;
        }
        if (response.status === 409) {
          // Not stored: a mistake to fix or a score to confirm. The server kept what was typed
          // with its answer; the game's page shows them next to the fields.
          forget(k);
          location.assign(location.pathname + "?game=" + encodeURIComponent(saved.game || ""));
          return;
        }
        // The server answered without storing (the link changed, say): post the
        // same form the ordinary way, so the page shows the answer next to the fields.
        forget(k);
        if (k === key) {
          var hidden = document.createElement("input");
          hidden.type = "hidden"; hidden.name = "submission_id"; hidden.value = saved.id;
          form.appendChild(hidden);
          restore(saved.fields);
          HTMLFormElement.prototype.submit.call(form);
        }
      })
      .catch(function () {
        clearTimeout(timer);
        sending = false;
        disable(false);
        say(NOT_SENT);
        retryLater(k);
      });
  }
  function retryLater(k) {
    clearTimeout(retryTimer);
    resend = k;
    if (++tries > MAX_TRIES) return;
    var wait = Math.min(2000 * tries, 20000);
    retryTimer = setTimeout(function () { send(k); }, wait);
  }
  window.addEventListener("online", function () {
    if (!resend) return;
    tries = 0;
    clearTimeout(retryTimer);
    send(resend);
  });

  form.addEventListener("input", function () {
    var saved = read(key);
    if (saved && saved.pending) {
      // A save waiting to be sent follows the edits, so what is sent is what is on the screen.
      // It gets a new id: an earlier try the server may have stored is never taken for this one.
      var names = {};
      var fields = fieldsOf();
      fields.forEach(function (pair) { names[pair[0]] = true; });
      saved.fields.forEach(function (pair) { if (!names[pair[0]]) fields.push(pair); });
      saved.fields = fields;
      saved.id = newId();
      write(key, saved);
      say(FOLLOWS);
      return;
    }
    write(key, { fields: fieldsOf(), base: baseVersion(), pending: false });
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var fields = fieldsOf();
    // The button pressed says what it is for ("Yes, it is right" confirms the scores asked about).
    var by = event.submitter;
    if (by && by.name) fields.push([by.name, by.value]);
    var game = gameInput ? gameInput.value : "";
    write(key, { fields: fields, base: baseVersion(), pending: true, id: newId(), game: game });
    tries = 0;
    // The green "saved" of the game before is no longer news while this one is on its way.
    Array.prototype.forEach.call(document.querySelectorAll(".messages li"), function (li) {
      li.hidden = true;
    });
    say("Sending game " + game + "…");
    send(key);
  });

  // Back on the page: put back what was typed, and send again any save not yet answered.
  var hasErrors = form.querySelector(".field-error, .error");
  var mine = read(key);
  if (mine && mine.base === baseVersion() && !hasErrors) restore(mine.fields);
  for (var i = 0; storage && i < storage.length; i++) {
    var k = storage.key(i);
    if (k && k.indexOf(prefix) === 0) {
      var saved = read(k);
      if (saved && saved.pending) { say(NOT_SENT); send(k); break; }
    }
  }
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
