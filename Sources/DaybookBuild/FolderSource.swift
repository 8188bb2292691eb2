import DaybookCheck
import DaybookModel
import Foundation

/// A rendered site on disk, for `daybook check`: the paths are listed once, files are read on demand.
package struct FolderSource: CheckSource {
    package let directory: URL
    package let paths: [String]
    /// The folders' entries as listed, for the next check to reuse (`FolderListings`).
    package let listings: FolderListings
    /// How many folders `listings` holds otherwise than the listings reused (`FileKeys.changes`).
    package let listingChanges: Int

    /// The folder's path, once: it prefixes every look.
    private let root: String
    /// Every read goes through it, following no link at all.
    private let folder: ConfinedFolder

    /// Lists the folder, reusing the entries of each subfolder whose status is the one `known`
    /// holds; `instant` (nanoseconds since 1970) is when the listing starts.
    package init(directory: URL, reusing known: FolderListings = FolderListings(), at instant: Int64 = 0) {
        self.directory = directory
        self.root = directory.standardizedFileURL.path
        folder = ConfinedFolder(path: root, followsLinks: false)
        (paths, listings, listingChanges) = FileInfo.regularFiles(under: root, reusing: known, at: instant)
    }

    /// The largest file read: far above any page or feed Daybook writes, a bound on what an
    /// untrusted output folder makes a check hold in memory. A larger file cannot be read.
    package static let maxFileBytes = 256 << 20

    /// Not through a symbolic link: the listing holds regular files only, and a file or a folder
    /// on the way replaced by a link since is not followed.
    package func bytes(of path: String) -> [UInt8]? { try? folder.read(path, maxBytes: Self.maxFileBytes).get().bytes }

    /// Not through a symbolic link either: a link is read (`bytes(of:)` refuses it) every time.
    package func status(of path: String) -> FileStatus? { FileStatus(path: root + "/" + path, followingLinks: false) }

    /// Not through a symbolic link, as `bytes(of:)`; the status is the open file's.
    package func bytesAndStatus(of path: String) -> (bytes: [UInt8], status: FileStatus?)? {
        try? folder.read(path, maxBytes: Self.maxFileBytes).map { ($0.bytes, $0.status) }.get()
    }

    package func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: directory.appending(path: path).path) }
}
