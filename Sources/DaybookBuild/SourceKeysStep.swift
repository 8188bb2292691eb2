import DaybookCheck
import DaybookIncremental
import DaybookModel

/// The content key of each source by its status (`FileKeys`, as `daybook check` keeps its
/// pages'), kept in the memo so that `daybook build` reads only the sources whose status changed;
/// the records of the rest come from the memo by that key (`ContentStep`).
///
/// Kept as `sources.keys`: one value, under no version, since each key is taken only for the
/// very status it was stored with. Like the rest of the memo it is saved by a build that
/// succeeded only, so the build after a failed one reads every source again.
enum SourceKeysStep {
    static let keys = MemoStep("sources.keys")

    /// The keys the last successful build kept; empty ones when there are none or they are damaged.
    static func keys(in memo: MemoTable) -> FileKeys {
        memo.value(keys, 0, version: 0).map(FileKeys.init(archive:)) ?? FileKeys()
    }

    /// Keeps `read`'s keys for the next build, when they differ from those it was given.
    static func keep(_ read: FileKeys, known: FileKeys?, memo: inout MemoTable) {
        guard read != known else { return }
        memo.store(keys, 0, version: 0, value: read.archive)
    }
}
