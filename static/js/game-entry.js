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
