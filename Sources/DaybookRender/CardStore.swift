import DaybookModel
import Foundation

/// Post cards as rendered HTML, by post id, each with the facts its making read (`PageFact`) and
/// their versions then: a card whose facts are all as they were is taken, as the page that
/// shows it would be. A build renders a card once and places it on every list that shows it
/// (timeline, tags, author, place).
///
/// A long-lived process (`serve`) keeps one store across builds: a new or deleted post moves
/// every later post to another timeline page, and the thousand pages that re-render then take
/// their cards from here instead of rendering 20,000 cards again, as a list view dequeues a cell
/// it configured before. A card whose post changed has another version and is rendered again.
///
/// `daybook build` keeps its cards in the memo the same way (`CardStep`): a deleted post moves
/// a thousand pages there too. They are read only once a build has missed cards for a
/// twentieth of the posts (`loadAfterMisses`): a caption edit re-renders a few pages and never
/// pays for reading 22 MB.
///
/// Two tasks asking for the same missing card may both render it; the bytes are equal, so
/// either may stay. Rendering outside the lock keeps the other cores busy. A task that misses a
/// card while the earlier build's cards are being read waits for them rather than rendering one
/// they may hold (they are read in about as long as a few cards render).
package final class CardStore: @unchecked Sendable {
    /// Where a card sits, which decides two of its attributes: its partial's `inList`, and
    /// whether its photo loads lazily (all but the first cards of a first page).
    struct Placement: Hashable {
        var inList: Bool
        var lazy: Bool

        var index: Int { (inList ? 2 : 0) + (lazy ? 1 : 0) }
    }

    struct Entry: Equatable {
        /// What the card read, and the key of those facts' versions when it was rendered.
        var facts: [PageFact]
        var version: UInt64
        /// By `Placement.index`.
        var html: [String?]
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    /// Reads the cards an earlier build saved, in parts (`writeArchives`); called at most once,
    /// then dropped.
    private var earlier: (@Sendable () -> [ArraySlice<UInt8>])?
    /// How many cards may be missed before `earlier` is read.
    package let loadAfterMisses: Int
    private var misses = 0
    private var renders = 0
    /// Entered while `earlier` is being read, by the task reading it.
    private let reading = DispatchGroup()
    private var isReading = false

    /// - Parameters:
    ///   - earlier: the parts of an earlier build's `writeArchives`, read when this build has
    ///     missed `loadAfterMisses` cards.
    package init(earlier: (@Sendable () -> [ArraySlice<UInt8>])? = nil, loadAfterMisses: Int = 1) {
        self.earlier = earlier
        self.loadAfterMisses = max(1, loadAfterMisses)
    }

    /// How many cards this store rendered itself rather than took from an earlier build.
    package var rendered: Int { lock.withLock { renders } }

    /// The card of post `id` at `placement` with the facts it read: taken from the store when
    /// their versions (`version`, of facts in order) are as they were, else rendered by `make`.
    func card(
        _ id: String, placement: Placement, version: ([PageFact]) -> UInt64, make: () -> (html: String, facts: [PageFact])
    ) -> (html: String, facts: [PageFact]) {
        // Versioned outside the lock: another core may be versioning the same facts.
        func stored() -> (html: String, facts: [PageFact])? {
            guard let entry = lock.withLock({ entries[id] }), let html = entry.html[placement.index],
                version(entry.facts) == entry.version
            else { return nil }
            return (html, entry.facts)
        }
        if let found = stored() { return found }
        enum Miss { case read(@Sendable () -> [ArraySlice<UInt8>]), wait, render }
        let miss = lock.withLock { () -> Miss in
            misses += 1
            if isReading { return .wait }
            guard misses >= loadAfterMisses, let load = earlier else { return .render }
            earlier = nil
            isReading = true
            reading.enter()
            return .read(load)
        }
        switch miss {
        case .read(let load):
            // Read and decoded outside the lock; cards rendered meanwhile are newer and stay. A
            // damaged part is none, and its cards are rendered.
            for part in load() {
                let read = Self.entries(archive: part) ?? [:]
                lock.withLock { entries.merge(read) { current, _ in current } }
            }
            lock.withLock { isReading = false }
            reading.leave()
            if let found = stored() { return found }
        case .wait:
            reading.wait()
            if let found = stored() { return found }
        case .render:
            break
        }
        let made = make()
        let madeVersion = version(made.facts)
        lock.withLock {
            renders += 1
            var entry = entries[id].flatMap { $0.version == madeVersion && $0.facts == made.facts ? $0 : nil }
                ?? Entry(facts: made.facts, version: madeVersion, html: Array(repeating: nil, count: 4))
            entry.html[placement.index] = made.html
            entries[id] = entry
        }
        return made
    }

    /// Lets go of the cards of posts that are gone, once the store holds more posts than the
    /// site: a session that deletes posts should not keep their cards.
    package func keep(only ids: [String]) {
        lock.withLock {
            guard entries.count > ids.count else { return }
            let current = Set(ids)
            entries = entries.filter { current.contains($0.key) }
        }
    }

    /// How many posts have cards here.
    package var count: Int { lock.withLock { entries.count } }

    /// The cards as `count` archives, handed to `each` one at a time with its number: a post's
    /// card is in the part its id's hash names. A large site's cards are 110 MB, which one array
    /// would add to the end of its build; a part is a `count`th of that.
    package func writeArchives(count: Int, _ each: (Int, [UInt8]) -> Void) {
        let all = lock.withLock { entries }
        var parts = Array(repeating: [String: Entry](), count: count)
        for (id, entry) in all { parts[Self.part(of: id, count: count)][id] = entry }
        for (index, part) in parts.enumerated() {
            var bytes: [UInt8] = []
            Self.writeArchive(of: part) { bytes += $0 }
            each(index, bytes)
        }
    }

    /// The part of `count` a post's card is archived in (`writeArchives`).
    static func part(of id: String, count: Int) -> Int {
        var hash = StableHash()
        hash.combine(id)
        return Int(hash.value % UInt64(max(1, count)))
    }

    /// All the cards as one archive, piece by piece (`writeArchive(of:_:)`), as each part of
    /// `writeArchives` holds its own.
    package func writeArchive(_ put: (ArraySlice<UInt8>) -> Void) { Self.writeArchive(of: lock.withLock { entries }, put) }

    /// `entries` as bytes, piece by piece: a count, then each post's id, card version and its four
    /// placements, each present or not. The memo's format version covers this layout (`CardStep`).
    static func writeArchive(of entries: [String: Entry], _ put: (ArraySlice<UInt8>) -> Void) {
        var head = ByteWriter()
        head.uint32(UInt32(clamping: entries.count))
        put(head.bytes[...])
        for (id, entry) in entries.prefix(Int(UInt32.max)) {
            var writer = ByteWriter()
            writer.string(id)
            writer.uint32(UInt32(clamping: entry.facts.count))
            for fact in entry.facts {
                writer.bytes.append(fact.kind)
                writer.string(fact.name)
            }
            writer.uint64(entry.version)
            for html in entry.html { writer.string(html) }
            put(writer.bytes[...])
        }
    }

    /// How many posts' cards `bytes` holds, after reading every one and writing them back the
    /// same (`nil` for damaged bytes): for the fuzz target, which feeds it arbitrary archives.
    package static func readEveryCard(archive bytes: ArraySlice<UInt8>) -> Int? {
        guard let entries = entries(archive: bytes) else { return nil }
        let store = CardStore()
        store.entries = entries
        var written: [UInt8] = []
        store.writeArchive { written += $0 }
        precondition(Self.entries(archive: written[...]) == entries, "a card archive read back differs")
        return entries.count
    }

    /// The cards `writeArchive` wrote; `nil` for damaged bytes (the cache folder is untrusted:
    /// every length is checked against the bytes left).
    static func entries(archive: ArraySlice<UInt8>) -> [String: Entry]? {
        var reader = ByteReader(archive, at: archive.startIndex)
        // An id's length, a fact count, a version and four absent placements: 24 bytes at least.
        guard let count = reader.listCount(minimumBytes: 24) else { return nil }
        var entries: [String: Entry] = [:]
        entries.reserveCapacity(count)
        for _ in 0..<count {
            guard let id = reader.string(), let factCount = reader.listCount(minimumBytes: 9) else { return nil }
            var facts: [PageFact] = []
            facts.reserveCapacity(factCount)
            for _ in 0..<factCount {
                guard let kind = reader.bytes(1)?.first, let name = reader.string(), let fact = PageFact(kind: kind, name: name) else { return nil }
                facts.append(fact)
            }
            guard let version = reader.uint64() else { return nil }
            var html: [String?] = []
            for _ in 0..<4 {
                guard let placement = reader.optionalString() else { return nil }
                html.append(placement)
            }
            entries[id] = Entry(facts: facts, version: version, html: html)
        }
        return reader.atEnd ? entries : nil
    }
}
