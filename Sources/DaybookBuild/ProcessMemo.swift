import DaybookIncremental
import DaybookModel
import DaybookRender
import Foundation

/// The memo a long-lived process (`serve`) holds in memory from build to build: the same table
/// `daybook build` reads from `.daybook-cache/memo` and saves back, read once from there, then
/// kept with its results decoded (`MemoTable.keepsDecoded`). Like the container, it is replaced
/// only by a build that succeeded (`MemoPlace.save`); a failed build leaves it as it was.
///
/// Beside the steps' results it holds what a process keeps of its last build decoded
/// (`HeldValues`): the sources as read, the page layout, the output's paths and record, the
/// post cards.
package final class ProcessMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var held: MemoTable
    /// The paths a watcher named since the build that left `held` (`nil` once a build read the
    /// site whole, until one succeeds): that build's read is what the next one patches, so the
    /// paths of a failed build are read again by the next.
    private var named: [String]? = []

    /// How many cards a preview rebuild may miss before it reads the saved ones: `daybook
    /// build`'s threshold on a 20,000-post site (a twentieth of the posts, `CardStep.store`),
    /// since the store is made before the preview knows the site's size. The first new post of a
    /// session moves a thousand timeline pages, and their cards are most likely there.
    package static let cardsLoadAfterMisses = 1000

    package init(site: URL, cardsLoadAfterMisses: Int = cardsLoadAfterMisses) {
        // Never saved, so never spilled: a session begun without a memo to read wrote every
        // result to a temporary file in the cache folder for as long as it ran, and read the
        // page facts and the search runs back from it on every save (a third more CPU a save).
        var table = MemoPlace.site(site, faults: .none).load(spills: false)
        table.keepsDecoded = true
        HeldValues.cards.keep(CardStep.store(memo: table, loadAfterMisses: cardsLoadAfterMisses), in: &table)
        held = table
    }

    /// The table as the last successful build left it.
    var table: MemoTable {
        get { lock.withLock { held } }
        set {
            lock.withLock {
                held = newValue
                named = []
            }
        }
    }

    /// Every path named since the memo's build, `paths` (a build's `changedSources`) added;
    /// `nil` when they are not all known, and the build reads the site whole.
    func changes(adding paths: [String]?) -> [String]? {
        lock.withLock {
            guard let paths, named != nil else {
                named = nil
                return nil
            }
            named! += paths
            return named
        }
    }

    /// The post cards the process's builds rendered so far.
    package var cards: CardStore? { HeldValues.cards.value(in: table) }
}

/// A value a long-lived process keeps decoded in its memo, never as bytes: one per step, checked
/// against its build's own inputs before it is used, so a stale one costs time, never a wrong page.
struct HeldValue<Value: Sendable>: Sendable {
    let step: MemoStep

    init(_ name: String) { step = MemoStep(name) }

    func value(in memo: MemoTable) -> Value? { memo.decoded(step, 0, version: 0, as: Value.self) }

    func keep(_ value: Value?, in memo: inout MemoTable) {
        if let value { memo.keepDecoded(step, 0, version: 0, value) } else { memo.forgetDecoded(step, 0) }
    }
}

/// What `serve` keeps of its last build, beside the steps' results.
enum HeldValues {
    /// The sources as the last build read them (a save then reads the files the watcher named),
    /// and every source file with its status and content key (54 MB on a 20,000-post site).
    static let read = HeldValue<KeptRead>("held.sources")
    /// The pages and published paths, with what they were made of (`PageLayout`).
    static let layout = HeldValue<PageLayout>("held.layout")
    /// The output paths, when no two of them were the same.
    static let distinctPaths = HeldValue<[String]>("held.distinct-paths")
    /// The last build record written, with its bytes: the next build reads the record from the
    /// disk as always, and parses it only when the bytes differ.
    static let record = HeldValue<OutputWriter.SavedRecord>("held.record")
    /// Post cards rendered by earlier builds (`CardStore`), which outlive a build.
    static let cards = HeldValue<CardStore>("held.cards")
    /// The theme as the last build compiled it, under a hash of what compiling read.
    static let templates = HeldValue<CompiledTheme>("held.templates")
    /// Each post's fact versions with what they were made of (`FactVersions.PostMemo`).
    static let postVersions = HeldValue<FactVersions.PostMemo>("held.post-versions")

    struct CompiledTheme: Sendable {
        var key: UInt64
        var templates: ThemeTemplates?
        var diagnostics: [Diagnostic]
    }

    struct KeptRead: Sendable {
        var read: SiteRead?
        var files: SiteReader.SourceFiles
    }
}
