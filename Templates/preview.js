// The profile grid's preview (CONTRACT §9): a click on an <a data-preview> opens one
// <dialog data-preview> with the post's photo and caption, and the address becomes the post's
// page. ArrowRight (or a swipe left) shows the next, older post; ArrowLeft (or a swipe right) the
// newer one; nothing happens at either end. On a right-to-left page (CONTRACT §11: the grid runs
// from right to left) the keys and swipes are mirrored: ArrowLeft (or a swipe right) shows the
// next, older post, and ArrowRight (or a swipe left) the newer one. Escape, the close button or
// Back closes it, the address is the profile's again, and focus returns to the link that opened
// it; Forward then opens it again.
// The dialog's words come from the page, in its language: the JSON object in <body data-words>
// (keys photoPreview, close, openPost, sensitivePhoto, showPhoto), English when it is missing.
// Without JavaScript each grid item is a plain link to its post page.
(() => {
  const links = () => Array.from(document.querySelectorAll("a[data-preview]"));
  let dialog = null;
  // The link that was clicked. It stays the one focus returns to while the arrows show other posts.
  let opener = null;
  let index = -1;
  // Whether the dialog closes because history moved (Back): the address is the profile's then.
  // The close event comes a task later, when history may have moved on again (Forward), so its
  // handler cannot tell from history.state alone.
  let closedByHistory = false;

  // The page's words, read once: English for a key the page does not give.
  let table = null;
  function word(key, english) {
    if (!table) {
      table = {};
      try {
        const parsed = JSON.parse((document.body && document.body.dataset.words) || "{}");
        if (parsed && typeof parsed === "object") table = parsed;
      } catch (error) { /* not JSON: English throughout */ }
    }
    const value = table[key];
    return typeof value === "string" && value ? value : english;
  }

  // Whether the page reads right to left, so that "next" is towards the left.
  function rightToLeft() {
    return document.documentElement.dir.toLowerCase() === "rtl" ||
      getComputedStyle(dialog || document.documentElement).direction === "rtl";
  }

  function element(tag, className) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    return node;
  }

  function build() {
    dialog = element("dialog", "preview");
    dialog.setAttribute("data-preview", "");
    dialog.setAttribute("aria-label", word("photoPreview", "Photo preview"));
    // Focusable by script in every browser, for show() to keep focus in it.
    dialog.tabIndex = -1;
    const close = element("button", "preview-close");
    close.type = "button";
    close.setAttribute("aria-label", word("close", "Close"));
    close.textContent = "×";
    close.addEventListener("click", () => dialog.close());
    const figure = element("figure", "preview-figure");
    figure.append(element("div", "preview-photo"), element("figcaption", "preview-caption"));
    const open = element("a", "preview-open");
    open.textContent = word("openPost", "Open post");
    dialog.append(close, figure, open);
    document.body.append(dialog);
    dialog.addEventListener("keydown", (event) => {
      if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
      event.preventDefault();
      // Towards the end of the line is the next, older post: the right, or the left on a
      // right-to-left page.
      step((event.key === "ArrowRight") !== rightToLeft() ? 1 : -1);
    });
    // showModal() makes the page behind inert, but Tab past the dialog's last control still
    // leaves it: Chromium hands focus to its own toolbar, and the reader's place is lost. So Tab
    // and Shift+Tab wrap around at the dialog's ends. On the document, not the dialog: should
    // focus ever be on <body> while it is open, the next Tab brings it back in.
    document.addEventListener("keydown", (event) => {
      if (!dialog.open || event.key !== "Tab" || event.altKey || event.ctrlKey || event.metaKey) return;
      const stops = tabStops();
      const at = stops.indexOf(document.activeElement);
      if (stops.length && at !== -1 && at !== (event.shiftKey ? 0 : stops.length - 1)) return;
      event.preventDefault();
      if (stops.length) stops[event.shiftKey ? stops.length - 1 : 0].focus();
    });
    dialog.addEventListener("close", () => {
      // Escape and the button come here first: leave the post's address the way Back would.
      if (!closedByHistory && history.state && history.state.daybookPreview) history.back();
      closedByHistory = false;
      if (opener) opener.focus();
    });
    let startX = null;
    dialog.addEventListener("pointerdown", (event) => { startX = event.clientX; });
    dialog.addEventListener("pointerup", (event) => {
      if (startX === null) return;
      const dx = event.clientX - startX;
      startX = null;
      // Pulling the photo towards the start of the line brings the next, older post: a swipe left,
      // or right on a right-to-left page.
      if (Math.abs(dx) > 50) step((dx < 0) !== rightToLeft() ? 1 : -1);
    });
  }

  // The dialog's controls that Tab reaches, in order: the caption's links and a sensitive
  // photo's summary come and go with the post shown.
  function tabStops() {
    return Array.from(dialog.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]"))
      .filter((node) => node.tabIndex >= 0 && !node.disabled && node.getClientRects().length > 0);
  }

  function photo(link) {
    const data = link.dataset;
    if (!data.large) return null;
    const img = element("img");
    img.src = data.large;
    if (data.srcset) { img.srcset = data.srcset; img.sizes = "(max-width: 60rem) 100vw, 60rem"; }
    img.alt = data.alt || "";
    if (data.width) { img.width = Number(data.width); img.height = Number(data.height); }
    if (data.sensitive === undefined) return img;
    const details = element("details", "sensitive");
    details.setAttribute("data-sensitive", "");
    const summary = element("summary");
    summary.textContent = (data.sensitive || word("sensitivePhoto", "Sensitive photo")) + " · " + word("showPhoto", "Show photo");
    const template = element("template");
    template.setAttribute("data-sensitive-photo", "");
    template.content.append(img);
    details.append(summary, template);
    return details;
  }

  function show(next) {
    const link = links()[next];
    if (!link) return false;
    index = next;
    const box = dialog.querySelector(".preview-photo");
    const caption = dialog.querySelector(".preview-caption");
    // A focused caption link or summary goes with the post it belongs to, and focus would fall to
    // <body>, out of the dialog, where the arrows no longer reach it: the dialog takes it instead.
    const focusGoes = box.contains(document.activeElement) || caption.contains(document.activeElement);
    box.replaceChildren(...[photo(link)].filter(Boolean));
    // data-caption holds the caption's HTML, as the page itself renders it (escaped in the attribute).
    caption.innerHTML = link.dataset.caption || "";
    // A caption in another language than the site's says so (CONTRACT §11), as on its page.
    if (link.dataset.lang) caption.lang = link.dataset.lang; else caption.removeAttribute("lang");
    if (link.dataset.dir) caption.dir = link.dataset.dir; else caption.removeAttribute("dir");
    dialog.querySelector(".preview-open").href = link.href;
    if (focusGoes) dialog.focus();
    return true;
  }

  function step(delta) {
    if (show(index + delta)) history.replaceState({ daybookPreview: true }, "", links()[index].href);
  }

  function open(link) {
    if (!dialog) build();
    opener = link;
    show(links().indexOf(link));
    dialog.showModal();
  }

  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[data-preview]");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (!("showModal" in HTMLDialogElement.prototype)) return;
    event.preventDefault();
    history.pushState({ daybookPreview: true }, "", link.href);
    open(link);
  });

  window.addEventListener("popstate", () => {
    if (dialog && dialog.open) {
      closedByHistory = true;
      dialog.close();
    } else if (history.state && history.state.daybookPreview) {
      // Forward onto a preview's entry: its address is a post's, so show that post's preview
      // again, or load the post's page when the grid no longer holds its link.
      const link = links().find((candidate) => candidate.href === location.href);
      if (link) open(link); else location.reload();
    }
  });
})();
