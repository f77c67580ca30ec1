/* Live standings: every data-seconds, fetch this same page and, only when its data-version
   differs (a score was entered or confirmed), swap each [data-live] region for the new one.
   Nothing else on the page moves, so there is no reload flicker and a half-typed search stays.
   A separate file, not inline script, so a strict Content-Security-Policy allows it. */
(function () {
  "use strict";
  var main = document.querySelector("[data-live][data-version]");
  if (!main || !window.fetch || !window.DOMParser) { return; }
  var seconds = Number(main.dataset.seconds) || 30;

  function say(text) {
    var place = document.querySelector("[data-live-status]");
    if (place) { place.textContent = text; }
  }

  function check() {
    fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var current = document.querySelector("[data-live][data-version]");
        var next = fresh.querySelector("[data-live][data-version]");
        if (!current || !next) { return; }
        if (next.dataset.version !== current.dataset.version) {
          document.querySelectorAll("[data-live]").forEach(function (region) {
            var replacement = region.id && fresh.getElementById(region.id);
            if (replacement) { region.replaceWith(document.importNode(replacement, true)); }
          });
          document.title = fresh.title;
        }
        say("");
      })
      .catch(function () { say(" · connection lost, trying again"); })
      .then(function () { setTimeout(check, seconds * 1000); });
  }

  setTimeout(check, seconds * 1000);
})();
