import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Looks at output paths one after another, each by `fstatat` from the output folder's root,
/// after a look at each folder on its way that the path before did not go through. Paths in
/// order share folders, so a page in a folder of its own costs two system calls. Both the
/// look-ahead of a rebuild (`OutputFolder.entries(at:)`) and the no-change check
/// (`NoChangeRecord`) look at every output this way, 34,000 on a 20,000-post site.
///
/// Like every look before writing, what it finds may change after; every write refuses links
/// on its own.
struct OutputLookup {
    /// An open descriptor of the root, which the caller keeps open.
    let root: Int32
    /// The folders of the last path looked at, as its bytes up to and with its last `/`: known
    /// to be real folders.
    private var folders: [UInt8] = []

    init(root: Int32) { self.root = root }

    /// What is at `path` (a plain path's bytes, which get a NUL for the kernel and lose it
    /// again), not following a link at the path itself. A folder on the way that is not a real
    /// one is named: `.link(at:)` or `.blocked(at:)` that folder, `.absent` when it is missing.
    mutating func entry(at path: inout [UInt8]) -> OutputEntry {
        let slash = UInt8(ascii: "/")
        guard let last = path.lastIndex(of: slash) else {
            folders.removeAll(keepingCapacity: true)
            return look(at: &path, upTo: path.count).map { OutputEntry($0, path: String(decoding: path, as: UTF8.self)) } ?? .absent
        }
        // The folders of this path that end beyond the prefix it shares with the previous one.
        var shared = 0
        while shared < min(last + 1, folders.count) && path[shared] == folders[shared] { shared += 1 }
        for index in shared..<(last + 1) where path[index] == slash && index > 0 {
            let found = look(at: &path, upTo: index)
            guard let found, found.st_mode & S_IFMT == S_IFDIR else {
                folders.removeAll(keepingCapacity: true)
                // Only a folder that is not one is named: a path joined per folder was a tenth
                // of looking at a 32,000-page site's outputs.
                let at = String(decoding: path[0..<index], as: UTF8.self)
                return found == nil ? .absent : found!.st_mode & S_IFMT == S_IFLNK ? .link(at: at) : .blocked(at: at)
            }
        }
        folders.removeAll(keepingCapacity: true)
        folders += path[0...last]
        return look(at: &path, upTo: path.count).map { OutputEntry($0, path: String(decoding: path, as: UTF8.self)) } ?? .absent
    }

    /// The status of `path`'s first `end` bytes, not following a link there; `nil` when there is
    /// nothing to look at.
    private func look(at path: inout [UInt8], upTo end: Int) -> stat? {
        var info = stat()
        let ends = end == path.count
        if ends { path.append(0) } else { path[end] = 0 }
        let found = path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { fstatat(root, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) }
        }
        if ends { path.removeLast() } else { path[end] = UInt8(ascii: "/") }
        return found == 0 ? info : nil
    }
}

extension OutputEntry {
    /// What a status found at `path` says is there; the path is made only for a link or
    /// something else that is not a file or folder.
    init(_ info: stat, path: @autoclosure () -> String) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .file(size: Int(info.st_size))
        case S_IFDIR: self = .folder
        case S_IFLNK: self = .link(at: path())
        default: self = .blocked(at: path())
        }
    }
}
