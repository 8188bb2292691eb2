import Foundation

/// The script the preview server adds to every HTML page it serves (never to the files written).
///
/// It listens to `/_daybook/events`: reloads when its own page changed (whether opened at `/x/` or
/// `/x/index.html`, or a missing address showing the site's 404 page), swaps stylesheets when
/// only CSS changed, and shows a failed rebuild's diagnostics in an overlay until the next good build.
enum LiveReloadScript {
    static let eventsPath = "/_daybook/events"

    /// The script for a page served from its own address, or, with `servedAs`, for the page at
    /// that path served in another's place (`/404.html` at a missing address): that one reloads
    /// when either changes, the 404 page or a page appearing at its address.
    static func html(servedAs: String? = nil) -> String {
        """
        <script>
        (function () {
          var events = null;
          var servedAs = \(servedAs.map(Self.literal) ?? "null");
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
          // One connection while the page is shown: a page kept in the back-forward cache holds none,
          // or six such pages would take every connection the browser opens to the preview, and
          // the next page would wait for them.
          function connect() {
            events = new EventSource("\(eventsPath)");
            events.addEventListener("reload", function (e) {
              var data = JSON.parse(e.data);
              if (data.all || data.paths.indexOf(here()) !== -1 || (servedAs && data.paths.indexOf(servedAs) !== -1)) location.reload();
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
          }
          connect();
          window.addEventListener("pagehide", function () { if (events) events.close(); events = null; });
          window.addEventListener("pageshow", function (e) { if (e.persisted && !events) connect(); });
        })();
        </script>

        """
    }

    /// `text` as a JavaScript string literal that is safe inside `<script>`: the base path comes
    /// from `site.yml`, which is untrusted.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\", "<", ">", "&": out += String(format: "\\u%04x", scalar.value)
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The page with the script (`html(servedAs:)`) before its last `</body>`, or at its end.
    static func inject(into page: [UInt8], servedAs: String? = nil) -> [UInt8] {
        let script = Array(Self.html(servedAs: servedAs).utf8)
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
