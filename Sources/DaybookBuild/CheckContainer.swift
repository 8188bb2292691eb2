import DaybookCheck
import DaybookIncremental
import DaybookModel
import DaybookParallel
import Foundation

/// `<site>/.daybook-cache/check`: what `daybook check` keeps for the next check, in the memo's
/// one container format (`MemoContainer`, through `MemoFile`): the facts of the pages it read
/// (`PageFactsCache`) and each output file's key by its status with the output's folders
/// (`FileKeys`). Two values, each read by position and verified when read, so that the next check
/// reads only what changed; a save appends the value that changed, as the memo's saves do.
///
/// A container of its own, beside the build's memo rather than in it: a build reads the memo's
/// index on every run, which the check's values would only lengthen, and the two commands save
/// at their own times.
package enum CheckContainer {
    static let name = "check"
    static let facts = MemoStep("check.facts")
    static let files = MemoStep("check.files")
    /// A bound on the container read back: a million pages' facts and keys fit well under it.
    static let maxBytes = 2 << 30

    /// The saved container, opened: its index alone is read. An empty table when it is missing,
    /// damaged, or another executable's.
    package static func open(site: URL) -> MemoTable {
        MemoFile.table(site: site, name: name, maxBytes: maxBytes)
    }

    /// The saved facts (on medium, 39 MB and a tenth of a second): `daybook check` reads them
    /// while it lists the output.
    package static func facts(in kept: MemoTable) -> PageFactsCache {
        kept.value(facts, 0, version: 0).map(PageFactsCache.init(archive:)) ?? PageFactsCache()
    }

    /// The saved file keys as stored, for `FileKeys.folders(archive:)` and `FileKeys.keys(archive:)`:
    /// the listing needs the first, the reads the second.
    package static func filesArchive(in kept: MemoTable) -> ArraySlice<UInt8>? { kept.value(files, 0, version: 0) }

    /// What `daybook check` starts from: the output listed, and, for a site folder (`site`), the
    /// saved facts and keys, read on the other core while the output is listed (the listing needs
    /// only the folders' entries), with the run started on them; `kept` is what they were read
    /// from, for `save`.
    ///
    /// Side by side on two cores rather than by `async let`: an `async let` holds its value to the
    /// end of its scope, and that copy of the facts made the run's first change to them copy
    /// their 179,000 strings.
    package static func start(output: URL, site: URL?) -> (source: FolderSource, cache: PageFactsCache?, kept: MemoTable?) {
        let kept = site.map(open(site:))
        let keysArchive = kept.flatMap(filesArchive(in:))
        let folders = keysArchive.flatMap(FileKeys.folders(archive:))
        let (stored, (source, startedAt)) = Parallel.all(
            { kept.map { (facts: facts(in: $0), keys: keysArchive.flatMap(FileKeys.keys(archive:))) } },
            {
                let startedAt = FileInfo.realtimeNanoseconds()
                return (FolderSource(directory: output, reusing: folders ?? FolderListings(), at: startedAt), startedAt)
            })
        guard let stored else { return (source, nil, nil) }
        var cache = stored.facts
        // Kept only when both read whole, as `FileKeys(archive:)` keeps them.
        var changes: Int?
        if let keys = stored.keys, let folders {
            cache.files = FileKeys(keys: keys, folders: folders)
            changes = source.listingChanges
        }
        cache.start(at: startedAt, folders: source.listings, changes: changes)
        return (source, cache, kept)
    }

    /// The saved facts and keys; empty ones when missing or damaged.
    package static func read(site: URL) -> PageFactsCache {
        let kept = open(site: site)
        var cache = facts(in: kept)
        cache.files = filesArchive(in: kept).map(FileKeys.init(archive:)) ?? FileKeys()
        return cache
    }

    /// Saves what changed, when it is worth writing (`PageFactsCache.worthSaving`,
    /// `filesWorthSaving`), over `kept`, the container the check read; the error when it could
    /// not be written.
    package static func save(_ cache: PageFactsCache, over kept: MemoTable, site: URL, faults: WriteFaults = .none) -> Diagnostic? {
        var table = kept
        if cache.worthSaving { table.store(facts, 0, version: 0, value: cache.archive) }
        if cache.filesWorthSaving { table.store(files, 0, version: 0, value: cache.nextFiles.archive) }
        guard table.changed else { return nil }
        return MemoFile.save(table.prepared(), site: site, name: name, faults: faults)
    }
}
