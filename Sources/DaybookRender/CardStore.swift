import DaybookModel
import Foundation

/// Post cards as rendered HTML, by post id, each under the card version it was rendered for
/// (`PageKeys.cardVersion`): the site-wide context, the set of `#tag` and `@user` pages, and
/// the post's own version. A build renders a card once and places it on every list that shows
/// it (timeline, tags, author, place).
///
/// A long-lived process (`serve`) keeps one store across builds: a new or deleted post moves
/// every later post to another timeline page, and the thousand pages that re-render then take
/// their cards from here instead of rendering 20,000 cards again, as a list view dequeues a cell
/// it configured before. A card whose post changed has another version and is rendered again.
///
/// `daybook build` keeps its cards in `.daybook-cache/cards` the same way: a deleted post moves
/// a thousand pages there too. The file is read only once a build has missed cards for a
/// twentieth of the posts (`loadAfterMisses`): a caption edit re-renders a few pages and never
/// pays for reading 22 MB.
///
/// Two tasks asking for the same missing card may both render it; the bytes are equal, so
/// either may stay. Rendering outside the lock keeps the other cores busy.
package final class CardStore: @unchecked Sendable {
    /// Where a card sits, which decides two of its attributes: its partial's `inList`, and
    /// whether its photo loads lazily (all but the first cards of a first page).
    struct Placement: Hashable {
        var inList: Bool
        var lazy: Bool

        var index: Int { (inList ? 2 : 0) + (lazy ? 1 : 0) }
    }

    struct Entry: Equatable {
        var version: UInt64
        /// By `Placement.index`.
        var html: [String?]
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    /// Reads the cards an earlier build saved; called at most once, then dropped.
    private var earlier: (@Sendable () -> ArraySlice<UInt8>?)?
    /// How many cards may be missed before `earlier` is read.
    package let loadAfterMisses: Int
    private var misses = 0
    private var renders = 0

    /// - Parameters:
    ///   - earlier: the bytes of an earlier build's `writeArchive`, read when this build has
    ///     missed `loadAfterMisses` cards.
    package init(earlier: (@Sendable () -> ArraySlice<UInt8>?)? = nil, loadAfterMisses: Int = 1) {
        self.earlier = earlier
        self.loadAfterMisses = max(1, loadAfterMisses)
    }

    /// How many cards this store rendered itself rather than took from an earlier build.
    package var rendered: Int { lock.withLock { renders } }

    /// The card of post `id` at `placement` for `version`, rendered by `make` when the store
    /// holds none for that version.
    func html(_ id: String, version: UInt64, placement: Placement, make: () -> String) -> String {
        func stored() -> String? {
            guard let entry = entries[id], entry.version == version else { return nil }
            return entry.html[placement.index]
        }
        let (found, load) = lock.withLock { () -> (String?, (@Sendable () -> ArraySlice<UInt8>?)?) in
            if let html = stored() { return (html, nil) }
            misses += 1
            guard misses >= loadAfterMisses, let load = earlier else { return (nil, nil) }
            earlier = nil
            return (nil, load)
        }
        if let found { return found }
        if let load {
            // Read and decoded outside the lock; cards rendered meanwhile are newer and stay.
            let read = load().flatMap(Self.entries(archive:)) ?? [:]
            if let html = lock.withLock({ () -> String? in
                entries.merge(read) { current, _ in current }
                return stored()
            }) {
                return html
            }
        }
        let html = make()
        lock.withLock {
            renders += 1
            var entry = entries[id].flatMap { $0.version == version ? $0 : nil } ?? Entry(version: version, html: Array(repeating: nil, count: 4))
            entry.html[placement.index] = html
            entries[id] = entry
        }
        return html
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

    /// The cards as bytes, piece by piece, for `entries(archive:)` in a later build: a count,
    /// then each post's id, card version and its four placements, each present or not.
    package func writeArchive(_ put: (ArraySlice<UInt8>) -> Void) {
        let entries = lock.withLock { self.entries }
        var head = ByteWriter()
        head.uint32(UInt32(clamping: entries.count))
        put(head.bytes[...])
        for (id, entry) in entries.prefix(Int(UInt32.max)) {
            var writer = ByteWriter()
            writer.string(id)
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
        // An id's length, a version and four absent placements: 20 bytes at least.
        guard let count = reader.listCount(minimumBytes: 20) else { return nil }
        var entries: [String: Entry] = [:]
        entries.reserveCapacity(count)
        for _ in 0..<count {
            guard let id = reader.string(), let version = reader.uint64() else { return nil }
            var html: [String?] = []
            for _ in 0..<4 {
                guard let placement = reader.optionalString() else { return nil }
                html.append(placement)
            }
            entries[id] = Entry(version: version, html: html)
        }
        return reader.atEnd ? entries : nil
    }
}
