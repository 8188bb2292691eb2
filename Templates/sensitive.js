// Sensitive photos (CONTRACT §7, §9): the photo waits inside a <template> in a closed
// <details data-sensitive>, so the browser fetches nothing until the reader opens it.
// `toggle` does not bubble, so one capturing listener serves every page, including items that
// "load more" or the preview add later.
document.addEventListener("toggle", (event) => {
  const details = event.target;
  if (!(details instanceof HTMLDetailsElement) || !details.open || !details.matches("[data-sensitive]")) return;
  for (const template of details.querySelectorAll(":scope > template[data-sensitive-photo]")) {
    template.replaceWith(template.content.cloneNode(true));
  }
}, true);
