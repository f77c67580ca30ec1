// Buttons marked data-print open the browser's print dialog; without JavaScript they stay
// hidden and the page says to use the browser's own Print.
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });
})();
