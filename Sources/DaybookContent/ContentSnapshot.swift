/// The bytes of a site's sources, keyed by path relative to the site folder.
///
/// Loading works on this value, never on a folder, so it is tested without a disk and a
/// database-backed source could fill it just as well as the file reader does.
package struct ContentSnapshot: Sendable {
    /// `site.yml`, `content/<collection>.json` and `content/<collection>/*.{json,md}`.
    package var sources: [String: [UInt8]]
    /// Every other file under `content/` (images and the like), by site-relative path.
    package var assets: Set<String>
    /// Symbolic links (to files or folders) whose real location is outside the site folder, by
    /// site-relative path. They are never read: each is an error at the field that names it, or at
    /// the link when no field does.
    package var outsideLinks: Set<String>
    /// `StableHash.ofContent` of sources whose key the reader already had (`serve` keeps them
    /// between builds); the loader works out the others.
    package var contentKeys: [String: UInt64] = [:]
    /// Sources the reader did not read, because their status told their content key (in
    /// `contentKeys`): a loader takes their records from its cache by that key, and asks
    /// `readSource` for the bytes only when the cache does not hold them. `daybook build` keeps
    /// the keys in its memo (`SourceKeysStep`), so a rebuild after an edit reads the one file edited
    /// rather than all of them (54 MB on a 20,000-post site).
    package var unreadSources: Set<String> = []
    /// The unread sources' size, for what is bounded by the size of all sources (the record cache).
    package var unreadBytes = 0
    /// The bytes of an unread source, read when they are needed; `nil` when it cannot be read.
    package var readSource: (@Sendable (String) -> [UInt8]?)?

    package init(sources: [String: [UInt8]] = [:], assets: Set<String> = [], outsideLinks: Set<String> = []) {
        self.sources = sources
        self.assets = assets
        self.outsideLinks = outsideLinks
    }

    private static let collections = Set(ContentCollection.allCases.map(\.rawValue))

    /// Whether a site-relative path names one of the sources this loader reads: `site.yml`,
    /// `content/<collection>.json`, and each `*.json` or `*.md` file in `content/<collection>/`
    /// or any folder below it (`content/posts/2026/p9.md`), as a site grown by year keeps them.
    /// (Below a collection's folder they were once published as they were, drafts included.)
    ///
    /// Asked of every file under `content/` on every build (7,500 on a 20,000-post site), so it
    /// looks at the path's bytes in place: splitting it into parts, or `String.contains`, took
    /// half of a rebuild's read.
    package static func isSource(_ path: String) -> Bool {
        if path == "site.yml" { return true }
        var path = path
        return path.withUTF8(isSource(bytes:))
    }

    private static func isSource(bytes path: UnsafeBufferPointer<UInt8>) -> Bool {
        let slash = UInt8(ascii: "/")
        let prefix = "content/".utf8
        guard path.count > prefix.count, path.starts(with: prefix) else { return false }
        let rest = path[prefix.count...]
        func named(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool { collections.contains(String(decoding: bytes, as: UTF8.self)) }
        func ends(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, with suffix: String) -> Bool {
            bytes.count >= suffix.utf8.count && bytes.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
        }
        guard let folderEnd = rest.firstIndex(of: slash) else {
            return ends(rest, with: ".json") && named(rest.dropLast(5))
        }
        let below = rest[(folderEnd + 1)...]
        guard let last = below.last, last != slash, below.first != slash else { return false }
        var previous: UInt8 = 0
        for byte in below {
            if byte == slash && previous == slash { return false }
            previous = byte
        }
        let name = below.lastIndex(of: slash).map { below[($0 + 1)...] } ?? below
        return (ends(name, with: ".json") || ends(name, with: ".md")) && named(rest[..<folderEnd])
    }
}
