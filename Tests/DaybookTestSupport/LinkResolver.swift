import Foundation

/// Resolves every internal `href` and `src` of a built output folder, the way a browser on a
/// static server would (`x/` is `x/index.html`), and checks `#fragments` against element ids.
///
/// A test helper, deliberately simple (attribute scanning, no HTML parser); `daybook check` is the product.
package struct LinkResolver {
    package let root: URL
    package let prefix: String

    package init(root: URL, prefix: String = "/") {
        self.root = root
        self.prefix = prefix
    }

    /// "page: link" for every internal link that does not resolve; empty when all do.
    package func brokenLinks() throws -> [String] {
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".html") }.sorted()
        var ids: [String: Set<String>] = [:]
        var html: [String: String] = [:]
        for file in files {
            let text = try String(contentsOf: root.appending(path: file), encoding: .utf8)
            html[file] = text
            ids[file] = Set(HTMLProbe.attributeValues("id", in: text))
        }
        var broken: [String] = []
        for file in files {
            let text = html[file]!
            for link in HTMLProbe.attributeValues("href", in: text) + HTMLProbe.attributeValues("src", in: text) {
                if link.hasPrefix("http://") || link.hasPrefix("https://") || link.hasPrefix("//") || link.hasPrefix("mailto:") { continue }
                let (pathPart, fragment) = split(link)
                let target: String
                if pathPart.isEmpty {
                    target = file
                } else {
                    guard pathPart.hasPrefix(prefix) else {
                        broken.append("\(file): \(link)")
                        continue
                    }
                    let decoded = pathPart.removingPercentEncoding ?? pathPart
                    let relative = String(decoded.dropFirst(prefix.count))
                    target = relative.isEmpty || relative.hasSuffix("/") ? relative + "index.html" : relative
                }
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: root.appending(path: target).path, isDirectory: &isFolder), !isFolder.boolValue
                else {
                    broken.append("\(file): \(link)")
                    continue
                }
                if let fragment, !fragment.isEmpty, target.hasSuffix(".html"), ids[target]?.contains(fragment) != true {
                    broken.append("\(file): \(link) (no id '\(fragment)')")
                }
            }
        }
        return broken
    }

    private func split(_ link: String) -> (String, String?) {
        guard let hash = link.firstIndex(of: "#") else { return (link, nil) }
        return (String(link[..<hash]), String(link[link.index(after: hash)...]))
    }
}
