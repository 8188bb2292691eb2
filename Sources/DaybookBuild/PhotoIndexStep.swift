import DaybookImages
import DaybookIncremental
import DaybookModel

/// What the last build learnt of each source photo (`SourceIndex`: its file's status and the
/// image cache's entry made of it), kept in the memo so that a photo whose status is unchanged
/// is not even read.
///
/// Kept as `photos.index`: one value, under no version, since an entry is taken only for the very
/// status it was stored with. Like the rest of the memo it is saved by a build that succeeded:
/// the build after a failed one reads the photos changed since the last that succeeded, and
/// finds their copies in the image cache by their bytes.
enum PhotoIndexStep {
    static let index = MemoStep("photos.index")

    /// The index the last successful build kept; an empty one when there is none or it is damaged.
    /// A process's table (`serve`) keeps it decoded, so that a save does not parse it again.
    static func index(in memo: inout MemoTable) -> SourceIndex {
        if let kept = memo.decoded(index, 0, version: 0, as: SourceIndex.self) { return kept }
        let read = memo.value(index, 0, version: 0).flatMap { SourceIndex(text: String(decoding: $0, as: UTF8.self)) } ?? SourceIndex()
        memo.keepDecoded(index, 0, version: 0, read)
        return read
    }

    /// Keeps `made` for the next build when it differs from `known`, the index this build was given.
    static func keep(_ made: SourceIndex, known: SourceIndex, memo: inout MemoTable) {
        guard made != known else { return }
        memo.store(index, 0, version: 0, decoded: made) { Array(made.text.utf8) }
    }
}
