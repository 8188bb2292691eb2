// Daybook "load more": appends the next list page's items below the ones shown (CONTRACT §9).
// Without JavaScript the button stays hidden and the rel="prev"/rel="next" links do the paging.
// Its one sentence of its own comes from the page, in its language: key loadMoreFailed of the
// JSON object in <body data-words>, English when it is missing.
(function () {
  "use strict";
  var button = document.querySelector("button[data-load-more]");
  if (!button || !window.fetch || !window.DOMParser || !window.history || !history.replaceState) return;
  var busy = false;
  var label = button.textContent;

  // A word of the page's <body data-words>, or the English one.
  function word(key, english) {
    var table = null;
    try { table = JSON.parse(document.body.getAttribute("data-words") || "{}"); } catch (error) { table = null; }
    var value = table && typeof table === "object" ? table[key] : null;
    return typeof value === "string" && value ? value : english;
  }

  function items(root) {
    return Array.prototype.slice.call(root.querySelectorAll("[data-id]"));
  }

  // What moves with an item: its <li> when the theme wraps items in a list, else the item itself.
  function unit(item) {
    var parent = item.parentElement;
    return parent && parent.tagName === "LI" && parent.children.length === 1 ? parent : item;
  }

  // Appends the page's new items; gives back the first of them, or null when all were shown.
  function append(page) {
    var shown = items(document);
    var first = null;
    var seen = Object.create(null);
    shown.forEach(function (item) { seen[item.getAttribute("data-id")] = true; });
    var anchor = shown.length ? unit(shown[shown.length - 1]) : null;
    items(page).forEach(function (item) {
      var id = item.getAttribute("data-id");
      if (seen[id] || !anchor) return;
      seen[id] = true;
      var node = document.importNode(unit(item), true);
      anchor.parentNode.insertBefore(node, anchor.nextSibling);
      anchor = node;
      if (!first) first = node.matches("[data-id]") ? node : node.querySelector("[data-id]");
    });
    return first;
  }

  // Focus goes to the first new item, so that a keyboard or screen reader user goes on from
  // there, not from a button that has moved below it or is gone. The item itself rather than its
  // first link (often the author's name): a screen reader reads on from the item's start, and
  // Tab walks its links. focus() scrolls it into view when it is not.
  function focusItem(item) {
    if (!item) return;
    if (item.tabIndex < 0 && !item.hasAttribute("tabindex")) item.setAttribute("tabindex", "-1");
    item.focus();
  }

  // The appended page's own "Page K of N" and neighbour links replace the ones shown, so the
  // links without JavaScript stay true to the address.
  function replacePagination(page) {
    var here = document.querySelector("nav.pagination");
    var there = page.querySelector("nav.pagination");
    if (here && there) here.replaceWith(document.importNode(there, true));
  }

  // The row that holds the button, hidden in the page for readers without JavaScript.
  var row = button.closest(".load-more") || button;
  row.hidden = false;
  // A failure is said here too: a screen reader may not read out a new label of the focused
  // button. Made now, empty, so that it is a live region before anything is said in it.
  var status = document.createElement("span");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  status.setAttribute("data-load-more-status", "");
  (row === button ? button.parentNode : row).appendChild(status);
  button.addEventListener("click", function () {
    if (busy) return;
    busy = true;
    // Not `disabled`: a focused button that becomes disabled loses focus to <body> (Chromium),
    // and a failed load would leave a keyboard user nowhere. `busy` already ignores clicks.
    button.setAttribute("aria-disabled", "true");
    button.setAttribute("aria-busy", "true");
    status.textContent = "";
    var url = new URL(button.getAttribute("data-next"), location.href).href;
    fetch(url, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        // Unless the reader went elsewhere while it loaded.
        var focus = document.activeElement;
        var follow = !focus || focus === button || focus === document.body;
        var shown = items(document);
        var first = append(page);
        replacePagination(page);
        history.replaceState(history.state, "", url);
        var next = page.querySelector("button[data-load-more]");
        button.textContent = label;
        if (next) button.setAttribute("data-next", next.getAttribute("data-next"));
        else row.remove();
        // Nothing new and the button gone: the last item shown, rather than nowhere.
        if (follow) focusItem(first || (next ? null : shown[shown.length - 1]));
      })
      .catch(function () {
        // Leave the button for another try; the rel="next" link still works.
        button.textContent = word("loadMoreFailed", "Could not load more. Try again");
        status.textContent = button.textContent;
      })
      .then(function () {
        busy = false;
        button.removeAttribute("aria-disabled");
        button.removeAttribute("aria-busy");
      });
  });
})();
