import DaybookModel

/// The files of a rendered site, wherever they are: a folder on disk or a build in memory.
package protocol CheckSource: Sendable {
    /// Every file's path relative to the site root, with `/` separators.
    var paths: [String] { get }
    /// The bytes of one file; `nil` when it cannot be read.
    func bytes(of path: String) -> [UInt8]?
    /// Whether anything stands at the path, hidden entries and folders included: `check` looks
    /// for the build's temporary folder, which `paths` leaves out.
    func exists(_ path: String) -> Bool
    /// The file's status, when the source has one (a folder on disk): with it, a file whose status
    /// is the one the last check stored is not read again (`FileKeys`).
    func status(of path: String) -> FileStatus?
    /// The bytes of one file with its status as it was opened (taken before the bytes are read),
    /// when the source has one: a file the last check did not store needs no separate look at
    /// its status first (34,000 path lookups on a cold check).
    func bytesAndStatus(of path: String) -> (bytes: [UInt8], status: FileStatus?)?
}

extension CheckSource {
    package func exists(_ path: String) -> Bool { paths.contains(path) }
    package func status(of path: String) -> FileStatus? { nil }
    package func bytesAndStatus(of path: String) -> (bytes: [UInt8], status: FileStatus?)? {
        let status = status(of: path)
        return bytes(of: path).map { ($0, status) }
    }
}

/// A site held in memory, as `daybook build --check` has it before writing.
package struct MemorySource: CheckSource {
    package let files: [String: [UInt8]]

    package init(files: [String: [UInt8]]) { self.files = files }

    package var paths: [String] { Array(files.keys) }
    package func bytes(of path: String) -> [UInt8]? { files[path] }
    package func exists(_ path: String) -> Bool { files[path] != nil || files.keys.contains { $0.hasPrefix(path + "/") } }
}
