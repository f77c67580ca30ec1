// Filter a list by name as the desk types, so a name is found without a round trip over poor
// venue Wi-Fi. The search form still works without this script (it filters on the server).
(function () {
  "use strict";
  // The search rule of core/search.py, for what is typed; each item's data-name holds its
  // name already put through that rule by the server.
  function searchKey(text) {
    return text
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .replace(/['\u2018\u2019\u02bc`\u00b4.]/g, "")
      .replace(/[^\p{L}\p{N}\s]|_/gu, " ")
      .trim()
      .replace(/\s+/g, " ")
      .toLowerCase();
  }
  document.querySelectorAll("input[data-filter-list]").forEach(function (input) {
    var list = document.getElementById(input.dataset.filterList);
    var none = document.getElementById(input.dataset.filterList.replace(/-list$/, "") + "-none");
    if (!list) return;
    function apply() {
      var needle = searchKey(input.value);
      var shown = 0;
      list.querySelectorAll("li[data-name]").forEach(function (item) {
        var match = !needle || item.dataset.name.indexOf(needle) !== -1;
        item.hidden = !match;
        if (match) shown += 1;
      });
      if (none) none.hidden = shown !== 0;
    }
    input.addEventListener("input", apply);
    apply();
  });
})();
