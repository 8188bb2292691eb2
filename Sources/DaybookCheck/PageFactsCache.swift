import DaybookModel

/// The facts of pages checked before (titles, ids, links, images without alt, parse errors), by a
/// hash of each page's bytes: after a one-post edit, `daybook check` parses the few pages that
/// changed and reads the rest from here. Links are still resolved against the current files on
/// every run, so the result is a check of the whole site as it is.
///
/// Every string is stored once in a table (a site's 1.4 million links name tens of thousands of
/// targets). The archive lives in the site's `.daybook-cache`, which is untrusted: every count and
/// index is checked, and an archive that does not read whole is an empty cache.
public struct PageFactsCache: Sendable {
    static let magic = Array("daybook-page-facts-1\n".utf8)
    private var table: [String] = []
    private var entries: [UInt64: ArraySlice<UInt8>] = [:]
    /// Facts of this run's pages, by key: the next archive holds exactly these.
    private var current: [UInt64: PageFacts] = [:]
    /// The keys of `current` whose facts came from `entries`.
    private var reused: Set<UInt64> = []
    /// Whether this run parsed a page the cache lacked, or left an entry unused.
    public private(set) var changed = false

    public init() {}

    public init(archive: [UInt8]) { self.init(archive: archive[...]) }

    /// Reads an archive in place: entries stay slices of `archive`.
    public init(archive: ArraySlice<UInt8>) {
        guard archive.starts(with: Self.magic) else { return }
        var reader = ByteReader(archive, at: archive.startIndex + Self.magic.count)
        guard let count = reader.count() else { return }
        var table: [String] = []
        table.reserveCapacity(count)
        for _ in 0..<count {
            guard let text = reader.string() else { return }
            table.append(text)
        }
        guard let entries = reader.keyedEntries() else { return }
        (self.table, self.entries) = (table, entries)
    }

    /// The key of a page's bytes.
    static func key(_ bytes: [UInt8]) -> UInt64 { StableHash.ofContent(bytes) }

    /// The facts stored under `key`; `nil` when absent or damaged.
    func facts(_ key: UInt64) -> PageFacts? {
        guard let payload = entries[key] else { return nil }
        var reader = ByteReader(payload, at: payload.startIndex)
        let table = self.table
        func text() -> String? {
            guard let index = reader.uint32(), Int(index) < table.count else { return nil }
            return table[Int(index)]
        }
        func position() -> PageFacts.Position? {
            guard let line = reader.uint32(), let column = reader.uint32() else { return nil }
            return PageFacts.Position(line: Int(line), column: Int(column))
        }
        func list<T>(_ element: () -> T?) -> [T]? {
            // Each element takes at least four bytes, so a damaged count cannot ask for more than the payload.
            guard let count = reader.uint32(), Int(count) <= (reader.bytes.endIndex - reader.index) / 4 else { return nil }
            var values: [T] = []
            values.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let value = element() else { return nil }
                values.append(value)
            }
            return values
        }
        var facts = PageFacts()
        guard let titles = list({ () -> (String, PageFacts.Position)? in
                guard let title = text(), let at = position() else { return nil }
                return (title, at)
            }),
            let ids = list({ () -> (String, PageFacts.Position)? in
                guard let id = text(), let at = position() else { return nil }
                return (id, at)
            }),
            let links = list({ () -> PageFacts.Link? in
                guard let url = text(), let attribute = text(), let at = position() else { return nil }
                return PageFacts.Link(url: url, attribute: attribute, position: at)
            }),
            let images = list(position),
            let errors = list({ () -> (String, PageFacts.Position)? in
                guard let message = text(), let at = position() else { return nil }
                return (message, at)
            }),
            reader.atEnd
        else { return nil }
        facts.titles = titles.map { (text: $0.0, position: $0.1) }
        facts.ids = ids.map { (id: $0.0, position: $0.1) }
        facts.links = links
        facts.imagesWithoutAlt = images
        facts.parseErrors = errors.map { (message: $0.0, position: $0.1) }
        return facts
    }

    /// Reads every entry as a check would; how many read whole. For the fuzz target
    /// (`Fuzz/FuzzCache`): an archive is read from an untrusted folder.
    public func readEveryEntry() -> Int {
        entries.keys.count { facts($0) != nil }
    }

    /// Records the facts this run used for a page, found here (`cached`) or parsed now.
    mutating func use(_ facts: PageFacts, key: UInt64, cached: Bool) {
        current[key] = facts
        if cached { reused.insert(key) } else { changed = true }
    }

    /// Ends a run: the cache keeps this run's pages only.
    mutating func finish() {
        if Set(entries.keys) != Set(current.keys) { changed = true }
    }

    /// This run's facts as an archive.
    public var archive: [UInt8] {
        var bytes: [UInt8] = []
        writeArchive { bytes += $0 }
        return bytes
    }

    /// Hands this run's facts to `write` as an archive, piece by piece. When most pages came from
    /// the cache, their entries are handed on as they are and new strings are appended to the old
    /// table (a one-post edit rewrites a few entries, not 1.4 million links); otherwise the
    /// archive is built afresh, which also drops strings no page uses any more.
    public func writeArchive(_ write: (ArraySlice<UInt8>) -> Void) {
        let appending = !table.isEmpty && (current.count - reused.count) * 10 < current.count
        var table: [String] = appending ? self.table : []
        var indexes: [String: UInt32] = [:]
        func index(_ text: String) -> UInt32 {
            if let known = indexes[text] { return known }
            let index = UInt32(table.count)
            indexes[text] = index
            table.append(text)
            return index
        }
        // New entries first: the strings they add must be in the table, which comes before them.
        var fresh: [UInt64: [UInt8]] = [:]
        for (key, facts) in current where !(appending && reused.contains(key) && entries[key] != nil) {
            var payload = ByteWriter()
            func position(_ at: PageFacts.Position) {
                payload.uint32(UInt32(clamping: at.line))
                payload.uint32(UInt32(clamping: at.column))
            }
            payload.uint32(UInt32(facts.titles.count))
            for title in facts.titles {
                payload.uint32(index(title.text))
                position(title.position)
            }
            payload.uint32(UInt32(facts.ids.count))
            for id in facts.ids {
                payload.uint32(index(id.id))
                position(id.position)
            }
            payload.uint32(UInt32(facts.links.count))
            for link in facts.links {
                payload.uint32(index(link.url))
                payload.uint32(index(link.attribute))
                position(link.position)
            }
            payload.uint32(UInt32(facts.imagesWithoutAlt.count))
            facts.imagesWithoutAlt.forEach(position)
            payload.uint32(UInt32(facts.parseErrors.count))
            for error in facts.parseErrors {
                payload.uint32(index(error.message))
                position(error.position)
            }
            fresh[key] = payload.bytes
        }
        var head = ByteWriter()
        head.bytes += Self.magic
        head.int(table.count)
        table.forEach { head.string($0) }
        write(head.bytes[...])
        for key in current.keys.sorted() {
            guard let payload = fresh[key]?[...] ?? entries[key] else { continue }
            write(ByteWriter.entryHeader(key: key, length: payload.count)[...])
            write(payload)
        }
    }
}
