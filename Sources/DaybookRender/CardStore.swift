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
/// Two tasks asking for the same missing card may both render it; the bytes are equal, so
/// either may stay. Rendering outside the lock keeps the other cores busy.
public final class CardStore: @unchecked Sendable {
    /// Where a card sits, which decides two of its attributes: its partial's `inList`, and
    /// whether its photo loads lazily (all but the first cards of a first page).
    struct Placement: Hashable {
        var inList: Bool
        var lazy: Bool

        var index: Int { (inList ? 2 : 0) + (lazy ? 1 : 0) }
    }

    private struct Entry {
        var version: UInt64
        /// By `Placement.index`.
        var html: [String?]
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    public init() {}

    /// The card of post `id` at `placement` for `version`, rendered by `make` when the store
    /// holds none for that version.
    func html(_ id: String, version: UInt64, placement: Placement, make: () -> String) -> String {
        let stored = lock.withLock { entries[id] }
        if let stored, stored.version == version, let html = stored.html[placement.index] { return html }
        let html = make()
        lock.withLock {
            var entry = entries[id].flatMap { $0.version == version ? $0 : nil } ?? Entry(version: version, html: Array(repeating: nil, count: 4))
            entry.html[placement.index] = html
            entries[id] = entry
        }
        return html
    }

    /// Lets go of the cards of posts that are gone, once the store holds more posts than the
    /// site: a session that deletes posts should not keep their cards.
    public func keep(only ids: [String]) {
        lock.withLock {
            guard entries.count > ids.count else { return }
            let current = Set(ids)
            entries = entries.filter { current.contains($0.key) }
        }
    }

    /// How many posts have cards here.
    public var count: Int { lock.withLock { entries.count } }
}
