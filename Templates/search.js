// Daybook search: filters search/index.json in the browser. No framework, no network beyond the index.
(function () {
  "use strict";
  var root = document.querySelector(".search");
  if (!root) return;
  var input = document.getElementById("search-query");
  var results = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var index = null;

  function fold(text) {
    return text.normalize("NFC").toLowerCase().replace(/^[#@]/, "");
  }

  function kind() {
    var checked = root.querySelector("input[name=kind]:checked");
    return checked ? checked.value : "users";
  }

  function render() {
    if (!index) return;
    var query = fold(input.value.trim());
    var list = index[kind()] || [];
    var matches = list.filter(function (entry) {
      return fold(entry.name).indexOf(query) !== -1 || (entry.id && fold(entry.id).indexOf(query) !== -1);
    });
    results.textContent = "";
    matches.slice(0, 50).forEach(function (entry) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = entry.url;
      link.textContent = (kind() === "tags" ? "#" : "") + entry.name;
      var count = document.createElement("span");
      count.className = "group-count";
      count.textContent = " " + entry.posts + (entry.posts === 1 ? " post" : " posts");
      item.appendChild(link);
      item.appendChild(count);
      results.appendChild(item);
    });
    status.textContent = matches.length === 0 ? "No matches." :
      matches.length > 50 ? "Showing 50 of " + matches.length + " matches." :
      matches.length + (matches.length === 1 ? " match." : " matches.");
  }

  fetch(root.getAttribute("data-index"))
    .then(function (response) { return response.json(); })
    .then(function (data) { index = data; render(); })
    .catch(function () { status.textContent = "The search index could not be loaded."; });
  input.addEventListener("input", render);
  root.addEventListener("change", render);
})();
