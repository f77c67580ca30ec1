/* Projector board: after data-seconds, load the next screen and swap it in.
   Fetching first (instead of navigating) keeps the last good screen on the wall when the
   venue Wi-Fi drops: the board says so and tries again, rather than showing a browser error. */
(function () {
  "use strict";
  var RETRY_SECONDS = 10;
  var timer = null;

  function board() { return document.querySelector("[data-projector]"); }

  function schedule(seconds) {
    clearTimeout(timer);
    timer = setTimeout(function () { show(board().dataset.next); }, seconds * 1000);
  }

  function status(text) {
    var place = board().querySelector("[data-status]");
    if (place) { place.textContent = text; }
  }

  function show(url) {
    fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.text();
      })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, "text/html");
        var fresh = next.querySelector("[data-projector]");
        if (!fresh) { throw new Error("no board in the page"); }
        board().replaceWith(document.importNode(fresh, true));
        document.title = next.title;
        history.replaceState(null, "", url);
        schedule(Number(board().dataset.seconds) || 30);
      })
      .catch(function () {
        status("Connection lost: trying again in " + RETRY_SECONDS + " s");
        schedule(RETRY_SECONDS);
      });
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight" || event.key === " " || event.key === "PageDown") {
      event.preventDefault();
      show(board().dataset.next);
    } else if (event.key === "ArrowLeft" || event.key === "PageUp") {
      event.preventDefault();
      show(board().dataset.previous);
    }
  });

  schedule(Number(board().dataset.seconds) || 30);
})();
