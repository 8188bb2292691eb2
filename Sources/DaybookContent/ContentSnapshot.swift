/// The bytes of a site's sources, keyed by path relative to the site folder.
///
/// Loading works on this value, never on a folder, so it is tested without a disk and a
/// database-backed source could fill it just as well as the file reader does.
public struct ContentSnapshot: Sendable {
    /// `site.yml`, `content/<collection>.json` and `content/<collection>/*.{json,md}`.
    public var sources: [String: [UInt8]]
    /// Every other file under `content/` (images and the like), by site-relative path.
    public var assets: Set<String>

    public init(sources: [String: [UInt8]] = [:], assets: Set<String> = []) {
        self.sources = sources
        self.assets = assets
    }

    /// Whether a site-relative path names one of the sources this loader reads.
    public static func isSource(_ path: String) -> Bool {
        if path == "site.yml" { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.first == "content" else { return false }
        let collections = Set(ContentCollection.allCases.map(\.rawValue))
        if parts.count == 2, parts[1].hasSuffix(".json") {
            return collections.contains(String(parts[1].dropLast(5)))
        }
        if parts.count == 3, collections.contains(String(parts[1])) {
            return parts[2].hasSuffix(".json") || parts[2].hasSuffix(".md")
        }
        return false
    }
}
