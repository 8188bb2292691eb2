import DaybookModel
import DaybookParallel

/// The facts of pages checked before (titles, ids, links, images without alt, parse errors), by a
/// hash of each page's bytes: after a one-post edit, `daybook check` parses the few pages that
/// changed and reads the rest from here. Beside the facts it keeps the verdict on each file
/// (`FileVerdict`), under a key that names the files and ids it was judged against, so the
/// result is a check of the whole site as it is.
///
/// Every string is stored once in a table (a site's 1.4 million links name tens of thousands of
/// targets). The archive is a value in the check's container in the site's `.daybook-cache`
/// (`CheckContainer`), whose format version covers its layout; the folder is untrusted: every
/// count and index is checked, and an archive that does not read whole is an empty cache.
package struct PageFactsCache: Sendable {
    /// Mixed into the key of a feed's or sitemap's entry, so it never meets a page's.
    static let xmlKeyTag: UInt64 = 0x786D_6C2D_7375_6D6D
    /// The archive's strings; a check interns the strings of the pages it parses after them, so
    /// cached and parsed facts share one table.
    var table = StringTable()
    /// How many strings the archive held: what its entries may name.
    private var archivedStrings = 0
    private var entries: [UInt64: ArraySlice<UInt8>] = [:]
    /// Facts of this run's pages and XML files, by entry key: the next archive holds exactly these.
    private var current: [UInt64: any ArchivedFacts] = [:]
    /// The keys of `current` whose facts came from `entries`.
    private var reused: Set<UInt64> = []
    /// How many of this run's entries were made now, and how many of the archive's it left
    /// unused (counted by `finish`).
    private var made = 0
    private var unused = 0
    /// Whether this run parsed a page the cache lacked, or left an entry unused.
    package var changed: Bool { made > 0 || unused > 0 }
    /// How many of this run's files had a key stored, and how many were read again (their stored
    /// key no longer vouched for by their status, or none stored).
    private var storedSeen = 0
    private var untrusted = 0
    /// The key of each file by its status, as the last run left them: a file whose status has
    /// not changed is not read.
    package var files = FileKeys()
    /// This run's: what the next run trusts.
    package private(set) var nextFiles = FileKeys()
    /// How many folders `nextFiles` holds otherwise than `files`, as the listing counted them.
    private var folderChanges: Int?

    package init() {}

    /// Starts a run whose file statuses are taken from `instant` on (nanoseconds since 1970), over
    /// the folders as listed from then on.
    /// - Parameter changes: how many of `folders` differ from `files.folders`, when the listing
    ///   counted them as it went (`FileKeys.changes(from:to:)`); `nil` to compare the two.
    package mutating func start(at instant: Int64, folders: FolderListings, changes: Int? = nil) {
        nextFiles = FileKeys(checkedAt: instant)
        nextFiles.folders = folders
        folderChanges = changes
    }

    /// Makes room for this run's `count` files, so that recording them does not grow (and hash
    /// again) two tables of 34,000 entries on the way.
    mutating func expect(_ count: Int) {
        current.reserveCapacity(count)
        nextFiles.reserveCapacity(count)
    }

    /// What a run's reads look up (the entries, and the keys stored by status), without what the
    /// run goes on to change (`table`, `current`, `nextFiles`): with those, the reads' copy made
    /// the run's first change to each copy it whole.
    var lookups: PageFactsCache {
        var copy = PageFactsCache()
        (copy.archivedStrings, copy.entries, copy.files) = (archivedStrings, entries, files)
        return copy
    }

    /// The key the last run stored for `path`, with the status it holds for; `nil` when it stored
    /// none, and then the file's status is not worth taking before its bytes.
    func storedKey(_ path: String) -> StatusMemo<UInt64>.Entry? { files.keys.entries[path] }

    /// The stored key when the file's status says its bytes have not changed since the last run.
    func key(_ stored: StatusMemo<UInt64>.Entry, status: FileStatus?) -> UInt64? { status.flatMap { files.keys.value(of: stored, status: $0) } }

    /// Records what this run read of a file, for the next.
    /// - Parameter stored: what the stored keys held of it.
    mutating func noteFile(_ path: String, status: FileStatus?, key: UInt64, stored: StoredKey) {
        if stored != .absent { storedSeen += 1 }
        if stored != .trusted || status == nil { untrusted += 1 }
        if let status { nextFiles.set(path, status: status, key: key) }
    }

    /// What the stored keys held of a file a run read.
    enum StoredKey: Sendable {
        /// A key its status still vouches for: its entry in `nextFiles` is the stored one.
        case trusted
        /// A key its status no longer vouches for (changed, or stored too recently to trust).
        case stale
        /// No key: a file new since the keys were stored, or the first check.
        case absent
    }

    /// How many files and folders `nextFiles` holds otherwise than `files`, or as `files` does but
    /// too recently to have been trusted, counted as the run went (comparing the two tables took
    /// 30 ms of a check after an edit): files read again or gone, folders listed again or gone.
    private var fileChanges: Int {
        let gone = files.keys.entries.count - storedSeen
        return untrusted + gone + (folderChanges ?? FileKeys.changes(from: files.folders, to: nextFiles.folders))
    }

    /// Whether `nextFiles` differs from `files`: a file or folder changed, came or went, or one
    /// stored last time was too recent to trust then.
    package var filesChanged: Bool { fileChanges > 0 }

    /// A saved cache is written again only once what it lacks is worth more than writing it: at
    /// least one entry in `unsavedShare` made, or left unused, since. Left as it is, it still
    /// holds every entry that has not changed, and the next check makes the few others again
    /// (a page parsed is a third of a millisecond, where writing `medium`'s 39 MB of facts took
    /// 70 ms after every one-post edit). What is kept is only ever right or missing: entries are
    /// keyed by bytes, and verdicts by everything they read.
    static let unsavedShare = 200

    /// Whether the facts should be saved (`unsavedShare`): always when there was no archive.
    package var worthSaving: Bool {
        changed && (entries.isEmpty || (made + unused) * Self.unsavedShare >= current.count)
    }

    /// Whether the files' keys should be saved (`unsavedShare`): always when none were stored.
    package var filesWorthSaving: Bool {
        let changes = fileChanges
        return changes > 0 && (files.keys.entries.isEmpty || changes * Self.unsavedShare >= nextFiles.keys.entries.count)
    }

    package init(archive: [UInt8]) { self.init(archive: archive[...]) }

    /// Reads an archive in place: entries stay slices of `archive`.
    package init(archive: ArraySlice<UInt8>) {
        var reader = ByteReader(archive, at: archive.startIndex)
        guard let strings = reader.strings(), let table = StringTable(strings: strings), let entries = reader.keyedEntries()
        else { return }
        (self.table, self.archivedStrings, self.entries) = (table, strings.count, entries)
    }

    /// The key of a page's bytes.
    static func key(_ bytes: [UInt8]) -> UInt64 { StableHash.ofContent(bytes) }

    /// The facts stored under `key`, naming strings of `table`; `nil` when absent or damaged.
    /// - Parameter whole: `false` for the titles and ids alone (`IndexedFacts.isWhole`).
    func facts(_ key: UInt64, whole: Bool = true) -> IndexedFacts? {
        entries[key].flatMap { IndexedFacts(payload: $0, tableCount: archivedStrings, whole: whole) }
    }

    /// The summary stored for an XML file whose bytes have `key`; `nil` when absent or damaged.
    func summary(_ key: UInt64) -> XMLSummary? {
        entries[key ^ Self.xmlKeyTag].flatMap { XMLSummary(payload: $0, tableCount: archivedStrings) }
    }

    /// The verdict stored under `key` (`FileVerdict.key`); `nil` when absent or damaged.
    func verdict(_ key: UInt64) -> FileVerdict? {
        entries[key].flatMap { FileVerdict(payload: $0, tableCount: archivedStrings) }
    }

    /// Reads every entry as a check would; how many read whole. For the fuzz target
    /// (`Fuzz/FuzzCache`): an archive is read from an untrusted folder.
    package func readEveryEntry() -> Int {
        entries.keys.count { facts($0) != nil || summary($0 ^ Self.xmlKeyTag) != nil || verdict($0) != nil }
    }

    /// Records the facts this run used for a page, found here (`cached`) or parsed now.
    mutating func use(_ facts: IndexedFacts, key: UInt64, cached: Bool) { use(facts as any ArchivedFacts, entry: key, cached: cached) }

    /// Records the summary this run used for an XML file, found here (`cached`) or parsed now.
    mutating func use(_ summary: XMLSummary, key: UInt64, cached: Bool) { use(summary, entry: key ^ Self.xmlKeyTag, cached: cached) }

    /// Records the verdict this run holds on a file, found here (`cached`) or reached now.
    mutating func use(_ verdict: FileVerdict, key: UInt64, cached: Bool) { use(verdict as any ArchivedFacts, entry: key, cached: cached) }

    private mutating func use(_ facts: any ArchivedFacts, entry key: UInt64, cached: Bool) {
        current[key] = facts
        if cached { reused.insert(key) } else { made += 1 }
    }

    /// Ends a run: the cache keeps this run's pages only.
    mutating func finish() {
        unused = entries.keys.count { current[$0] == nil }
    }

    /// This run's facts as an archive.
    package var archive: [UInt8] {
        var bytes: [UInt8] = []
        writeArchive(reserving: { bytes.reserveCapacity($0) }) { bytes += $0 }
        return bytes
    }

    /// This run's value under `key`, whole: facts taken from the archive for their ids alone are
    /// read again from it (they read whole when they were taken).
    private func whole(_ key: UInt64) -> any ArchivedFacts {
        let value = current[key]!
        guard let facts = value as? IndexedFacts, !facts.isWhole, let read = self.facts(key) else { return value }
        return read
    }

    /// Hands this run's facts to `write` as an archive, piece by piece. When most pages came from
    /// the cache, their entries are handed on as they are and the table keeps its old strings
    /// with the new ones after them (a one-post edit rewrites a few entries, not 1.4 million
    /// links); otherwise the table is compacted to the strings this run's pages hold.
    /// - Parameter reserving: told the archive's whole length before `write` is handed a byte.
    package func writeArchive(reserving: (Int) -> Void = { _ in }, _ write: (ArraySlice<UInt8>) -> Void) {
        let appending = archivedStrings > 0 && (current.count - reused.count) * 10 < current.count
        let keys = current.keys.sorted()
        var strings = table.strings
        var remap: [UInt32]?
        // A table the run started empty holds only this run's strings: nothing to compact.
        if !appending && archivedStrings > 0 {
            // Old index → new, in the order the pages first name them.
            var compacted = StringTable()
            var map = Array(repeating: UInt32.max, count: table.count)
            for key in keys {
                for index in whole(key).strings where map[Int(index)] == .max {
                    map[Int(index)] = compacted.intern(table[index])
                }
            }
            strings = compacted.strings
            remap = map
        }
        var head = ByteWriter()
        head.strings(strings)
        // Entries are encoded on all cores (a cold check's 1.4 million links) and written in key order.
        let map = remap
        var payloads = Parallel.mapBlocking(keys) { key -> [UInt8]? in
            if appending, reused.contains(key), entries[key] != nil { return nil }
            guard let map else { return whole(key).encode { $0 } }
            return whole(key).encode { map[Int($0)] }
        }
        let headerBytes = ByteWriter.entryHeader(key: 0, length: 0).count
        reserving(zip(keys, payloads).reduce(head.bytes.count) { total, pair in total + ((pair.1?.count ?? entries[pair.0]?.count).map { headerBytes + $0 } ?? 0) })
        write(head.bytes[...])
        for (index, key) in keys.enumerated() {
            guard let payload = payloads[index]?[...] ?? entries[key] else { continue }
            write(ByteWriter.entryHeader(key: key, length: payload.count)[...])
            write(payload)
            // Let go of as soon as it is handed on: an archive made in one array (`archive`) and
            // every payload held to the end were twice the archive (200 MB more for a large
            // site's cold check).
            payloads[index] = nil
        }
    }
}

/// What an archive entry holds: a page's facts or an XML file's summary.
protocol ArchivedFacts: Sendable {
    /// Every string index it holds.
    var strings: [UInt32] { get }
    /// Its payload, each string index passed through `index`.
    func encode(_ index: (UInt32) -> UInt32) -> [UInt8]
    /// The same facts with each string index `i` replaced by `map[i]`.
    func remapped(_ map: [UInt32]) -> Self
}

extension IndexedFacts: ArchivedFacts {}
extension XMLSummary: ArchivedFacts {}
