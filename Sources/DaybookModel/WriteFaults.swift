/// The one seam every write of a build passes before it touches the disk: the output folder's
/// staged files, folders, placements and removals, its record and intent, and the caches in
/// `<site>/.daybook-cache/`.
///
/// Real builds carry `none`, which fails nothing. Tests hand in a rule that fails a chosen write
/// with an `errno` (`ENOSPC`, `EIO`, `EACCES`), so that every write point of a real build can be
/// failed in turn and what the build then leaves behind can be held to CONTRACT §6. A rule, not
/// a file-system wrapper: the writes are `openat`/`renameat` calls on descriptors, and the rule
/// is asked just before each, with the same cleanup following as after a real failure.
package struct WriteFaults: Sendable {
    /// A write, named by what it changes.
    package enum Point: Sendable, Hashable, CustomStringConvertible {
        /// A file written into the output folder's staging area (`.daybook-tmp/`).
        case stage(String)
        /// A folder made below the output folder while the staged files are put in place.
        case folder(String)
        /// The old file at a path kept aside (a hard link in the staging area) before its
        /// replacement is put in place, so that a failure after can bring it back.
        case keep(String)
        /// A staged file renamed to its path, or a new top-level folder staged whole renamed into
        /// the output folder.
        case place(String)
        /// A file the previous build wrote and this one does not, moved out of the folder.
        case remove(String)
        /// The build's intent (`.daybook-intent`), saved before the first change or removed after the last.
        case intent
        /// A file in `<site>/.daybook-cache/`, by its name there.
        case cache(String)

        package var description: String {
            switch self {
            case .stage(let path): "stage \(path)"
            case .folder(let path): "folder \(path)"
            case .keep(let path): "keep \(path)"
            case .place(let path): "place \(path)"
            case .remove(let path): "remove \(path)"
            case .intent: "intent"
            case .cache(let name): "cache \(name)"
            }
        }
    }

    private let rule: (@Sendable (Point) -> Int32?)?

    /// Fails nothing: what every real build carries.
    package static let none = WriteFaults()

    package init() { rule = nil }

    /// - Parameter rule: the `errno` a write at a point fails with, or `nil` to let it happen.
    package init(_ rule: @escaping @Sendable (Point) -> Int32?) { self.rule = rule }

    /// The `errno` the write at `point` fails with; `nil` (always, for `none`) to go ahead.
    package func failure(at point: Point) -> Int32? { rule?(point) }
}
