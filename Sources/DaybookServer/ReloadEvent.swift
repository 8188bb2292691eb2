import Foundation

/// A message to the pages open in browsers, sent as a server-sent event.
package enum ReloadEvent: Sendable, Equatable {
    /// Reload the pages at these URL paths (`/journal/`), or every page.
    case reload(paths: [String], all: Bool)
    /// Only stylesheets changed: swap them in place, without a reload.
    case css
    /// A rebuild failed: show its diagnostics over the page.
    case failed(String)
    /// A rebuild succeeded: take any error overlay away.
    case built

    /// The event in `text/event-stream` form.
    var serverSentEvent: String {
        func payload(_ object: [String: Any]) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
            return String(decoding: data, as: UTF8.self)
        }
        switch self {
        case .reload(let paths, let all): return "event: reload\ndata: \(payload(["paths": paths, "all": all]))\n\n"
        case .css: return "event: css\ndata: {}\n\n"
        case .failed(let text): return "event: failed\ndata: \(payload(["text": text]))\n\n"
        case .built: return "event: built\ndata: {}\n\n"
        }
    }

    /// The events a successful build sends, from the files it wrote and removed.
    ///
    /// A page reloads only when its own bytes changed (the build rewrites exactly the pages
    /// that show something that changed); a stylesheet swaps in place; any other asset (an
    /// image, a script) may be on any page, so every page reloads.
    static func events(written: [String], removed: [String], basePath: String) -> [ReloadEvent] {
        let changed = written + removed
        var pages: [String] = []
        var styles = false
        var assets = false
        for path in changed {
            if path.hasSuffix(".html") {
                pages.append(basePath + (path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path))
            } else if path.hasSuffix(".css") {
                styles = true
            } else if !path.hasSuffix(".xml") && !path.hasSuffix(".json") {
                assets = true
            }
        }
        var events: [ReloadEvent] = [.built]
        if assets { events.append(.reload(paths: [], all: true)) } else if !pages.isEmpty { events.append(.reload(paths: pages.sorted(), all: false)) }
        if styles && !assets { events.append(.css) }
        return events
    }
}
