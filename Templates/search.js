// Daybook search: filters search/index.json in the browser. No framework, no network beyond the index.
// `/search/?q=TEXT` runs that search on load; TEXT starting with `#` searches hashtags and `@`
// people, whichever tab is selected (CONTRACT §9); `&in=tags` or `&in=locations` selects a tab.
(function () {
  "use strict";
  var root = document.querySelector(".search");
  if (!root) return;
  var input = document.getElementById("search-query");
  var results = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var index = null;
  var prefixes = { "#": "tags", "@": "users" };

  function fold(text) {
    return text.normalize("NFC").toLowerCase().replace(/^[#@]/, "");
  }

  // The kind a query names by its first character, else the selected tab's.
  function kind(text) {
    if (prefixes[text.charAt(0)]) return prefixes[text.charAt(0)];
    var checked = root.querySelector("input[name=kind]:checked");
    return checked ? checked.value : "users";
  }

  // Shows the tab a prefix chose, so the page says what it searched.
  function selectTab(name) {
    var tab = root.querySelector("input[name=kind][value=" + name + "]");
    if (tab && !tab.checked) tab.checked = true;
  }

  // Keeps the query in the address, and the tab (`in=`) when the query's first character does
  // not say it and it is not the first, so a reload, Back or a shared link shows the same results.
  function remember(text) {
    if (!window.history || !history.replaceState) return;
    var url = new URL(location.href);
    if (text) url.searchParams.set("q", text);
    else url.searchParams.delete("q");
    var checked = root.querySelector("input[name=kind]:checked");
    var tab = checked ? checked.value : "users";
    if (prefixes[text.charAt(0)] || tab === "users") url.searchParams.delete("in");
    else url.searchParams.set("in", tab);
    url.hash = "";
    if (url.href !== location.href) history.replaceState(history.state, "", url.href);
  }

  function render() {
    if (!index) return;
    var text = input.value.trim();
    var which = kind(text);
    if (prefixes[text.charAt(0)]) selectTab(which);
    var query = fold(text);
    var list = index[which] || [];
    var matches = list.filter(function (entry) {
      return fold(entry.name).indexOf(query) !== -1 || (entry.id && fold(entry.id).indexOf(query) !== -1);
    });
    results.textContent = "";
    matches.slice(0, 50).forEach(function (entry) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = entry.url;
      link.textContent = (which === "tags" ? "#" : "") + entry.name;
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

  var params = new URLSearchParams(location.search);
  var initial = params.get("q");
  if (["users", "tags", "locations"].indexOf(params.get("in")) !== -1) selectTab(params.get("in"));
  if (initial) input.value = initial;
  // `/search/?q=#swift` typed as it reads: `#` starts the address's fragment, so the query comes
  // empty and the tag after it. The address is written as it should have been.
  if (initial === "" && location.hash.length > 1) {
    try { input.value = decodeURIComponent(location.hash); } catch (e) { input.value = location.hash; }
    remember(input.value.trim());
  }

  fetch(root.getAttribute("data-index"))
    .then(function (response) { return response.json(); })
    .then(function (data) { index = data; render(); })
    .catch(function () { status.textContent = "The search index could not be loaded."; });
  input.addEventListener("input", function () { remember(input.value.trim()); render(); });
  root.addEventListener("change", function (event) {
    // A tab picked by hand wins over the prefix: "#sea" then Places searches places for "sea".
    var text = input.value.trim();
    if (event.target.name === "kind" && prefixes[text.charAt(0)] && prefixes[text.charAt(0)] !== event.target.value) {
      input.value = text.slice(1);
    }
    if (event.target.name === "kind") remember(input.value.trim());
    render();
  });
})();
