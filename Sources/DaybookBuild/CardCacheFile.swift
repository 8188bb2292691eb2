import DaybookModel
import DaybookRender
import Foundation

/// `<site>/.daybook-cache/cards`: the post cards of the last build that rendered many
/// (`CardStore`), for the next `daybook build` that moves many pages.
enum CardCacheFile {
    static let name = "cards"

    /// No archive larger than this is read: a 100,000-post site's cards take about 110 MB.
    static let maxBytes = 1 << 30

    /// A store for one build that reads the saved cards once it has missed cards for a
    /// twentieth of the site's `posts`.
    static func store(site: URL, posts: Int) -> CardStore {
        CardStore(earlier: { read(site: site) }, loadAfterMisses: posts / 20)
    }

    /// The saved archive's bytes, for `CardStore`'s `earlier`.
    static func read(site: URL) -> ArraySlice<UInt8>? { CacheFile.read(site: site, name: name, maxBytes: maxBytes) }

    /// Saves the store when its build rendered at least as many cards as make it read the file:
    /// a build that rendered a few leaves the saved cards as they are, since a card saved for an
    /// older version of its post is never taken.
    static func saveIfWorthIt(_ store: CardStore, site: URL, faults: WriteFaults = .none) -> Diagnostic? {
        guard store.rendered >= store.loadAfterMisses else { return nil }
        return CacheFile.save(site: site, name: name, faults: faults, store.writeArchive)
    }
}
