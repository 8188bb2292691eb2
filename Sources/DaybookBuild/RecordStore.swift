import DaybookContent
import DaybookModel
import DaybookFeed
import DaybookIncremental
import DaybookRender
import Foundation

/// What a long-lived process (`serve`) keeps in memory from one build to the next: it neither
/// reads nor rewrites `.daybook-cache/memo` on every save, nor decodes an unchanged file's
/// records again, nor sorts the comments, hashes a post or parses a Markdown text again when they
/// did not change. It starts from that file, so the first preview build is as quick as a
/// `daybook build` after it.
///
/// Each value is read and replaced whole under one lock (`store.pageLayout = …`); every one is
/// checked against its build's own inputs before it is used, so a stale one costs time, never
/// a wrong page.
@dynamicMemberLookup
package final class RecordStore: @unchecked Sendable {
    /// Public only as the type of the dynamic members; what it holds is this module's.
    package struct Memory: Sendable {
        /// The last build record this process wrote or read, with its bytes: the next build reads
        /// the record from the disk as always, and parses it only when the bytes differ.
        var lastRecord: OutputWriter.SavedRecord?
        /// The source files of the last build, each with its status and content key (54 MB on a
        /// 20,000-post site, kept so that a save reads one file).
        var sourceFiles = SiteReader.SourceFiles()
        /// The last build's read of the sources, for the next to patch with the paths its watcher named.
        var lastRead: SiteRead?
        /// The last build's pages and published paths, with what they were made of.
        var pageLayout: PageLayout?
        /// The last build's output paths, when no two of them were the same.
        var distinctPaths: [String]?
        /// The incremental layer's memo of the last build (`MemoPlace`).
        var memo = MemoTable()
    }

    private let lock = NSLock()
    private var memory: Memory
    /// Post cards rendered by earlier builds, each under the version it was rendered for. It
    /// starts from the cards `daybook build` saved (`.daybook-cache/cards`), read once a rebuild
    /// has missed `cardsLoadAfterMisses` cards: the first new post of a session moves a thousand
    /// timeline pages, and their cards are most likely there.
    package let cards: CardStore

    /// How many cards a preview rebuild may miss before it reads the saved ones: `daybook
    /// build`'s threshold on a 20,000-post site (a twentieth of the posts, `CardCacheFile.store`),
    /// since the store is made before the preview knows the site's size.
    package static let cardsLoadAfterMisses = 1000

    package init(site: URL, cardsLoadAfterMisses: Int = cardsLoadAfterMisses) {
        memory = Memory()
        memory.memo = MemoPlace.site(site, faults: .none).load()
        memory.memo.keepsDecoded = true
        cards = CardStore(earlier: { CardCacheFile.read(site: site) }, loadAfterMisses: cardsLoadAfterMisses)
    }

    package subscript<Value>(dynamicMember path: WritableKeyPath<Memory, Value>) -> Value {
        get { lock.withLock { memory[keyPath: path] } }
        set { lock.withLock { memory[keyPath: path] = newValue } }
    }
}
