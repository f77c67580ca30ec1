// The phone's first page says whether it reaches the app: the page came from it, so it starts
// connected; the browser's offline and online events change the line (a tab reopened from the
// phone's memory with no network says so at once).
(function () {
  "use strict";
  const line = document.querySelector("[data-connection]");
  if (!line) {
    return;
  }
  function show() {
    const online = navigator.onLine;
    line.textContent = online ? line.dataset.online : line.dataset.offline;
    line.classList.toggle("connection-lost", !online);
  }
  window.addEventListener("online", show);
  window.addEventListener("offline", show);
  window.addEventListener("pageshow", show);
  show();
})();
