/// The script the preview server adds to every HTML page it serves (never to the files written).
///
/// It listens to `/_daybook/events`: reloads when its own page changed (whether opened at `/x/` or
/// `/x/index.html`), swaps stylesheets when only CSS changed, and shows a failed rebuild's
/// diagnostics in an overlay until the next good build.
enum LiveReloadScript {
    static let eventsPath = "/_daybook/events"

    static let html = """
        <script>
        (function () {
          var events = new EventSource("\(eventsPath)");
          // This page as the reload events name it (`ReloadEvent.events`): decoded, and by its folder,
          // since `serve` answers /x/index.html as well as /x/ (under the base path, which both keep).
          function here() {
            var path = location.pathname;
            try { path = decodeURI(path); } catch (e) {}
            return path.slice(-11) === "/index.html" ? path.slice(0, -10) : path;
          }
          function overlay(text) {
            var box = document.getElementById("daybook-overlay");
            if (!text) { if (box) box.remove(); return; }
            if (!box) {
              box = document.createElement("pre");
              box.id = "daybook-overlay";
              box.setAttribute("role", "alert");
              box.style.cssText = "position:fixed;left:0;right:0;bottom:0;max-height:50vh;overflow:auto;margin:0;padding:1rem;" +
                "background:#2b0d0d;color:#ffdede;font:13px/1.5 ui-monospace,monospace;white-space:pre-wrap;z-index:2147483647";
              document.body.appendChild(box);
            }
            box.textContent = "daybook: the rebuild failed\\n\\n" + text;
          }
          events.addEventListener("reload", function (e) {
            var data = JSON.parse(e.data);
            if (data.all || data.paths.indexOf(here()) !== -1) location.reload();
          });
          events.addEventListener("css", function () {
            document.querySelectorAll('link[rel="stylesheet"]').forEach(function (link) {
              var url = new URL(link.href);
              url.searchParams.set("daybook", Date.now());
              link.href = url.toString();
            });
          });
          events.addEventListener("failed", function (e) { overlay(JSON.parse(e.data).text); });
          events.addEventListener("built", function () { overlay(null); });
        })();
        </script>

        """

    /// `html` with the script before its last `</body>`, or at its end.
    static func inject(into page: [UInt8]) -> [UInt8] {
        let script = Array(Self.html.utf8)
        let marker = Array("</body>".utf8)
        var index = page.count - marker.count
        while index >= 0 {
            if page[index] == marker[0], page[index..<(index + marker.count)].elementsEqual(marker) {
                return Array(page[..<index]) + script + Array(page[index...])
            }
            index -= 1
        }
        return page + script
    }
}
