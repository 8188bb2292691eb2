import CConfinedOpen
import DaybookModel

#if canImport(Glibc)
import Glibc
#endif

/// A folder (the site's) whose files are opened only by paths that stay inside it, links and all.
///
/// The site folder is untrusted and may change while a build reads it. Its walk follows a link
/// only while it stays inside the site, but a read after the walk that checked the path with
/// `realpath(3)` and then opened it left a window in which a folder on the way could be swapped
/// for a link out of the site, and its files published. Here the kernel resolves each path
/// beneath the folder's descriptor (`openat2(2)` with `RESOLVE_BENEATH`) and refuses a step out
/// in the same call that opens the file.
package final class ConfinedFolder: Sendable {
    package let path: String
    /// Open for the folder's lifetime; -1 when the folder could not be opened.
    private let descriptor: Int32
    /// Why the folder could not be opened, for every read then.
    private let openError: Int32
    /// Whether to open with `openat2`; false on a kernel without it, and in tests of the other way.
    private let beneath: Bool
    /// Whether links that stay inside are followed (a site's sources) or none is (an output
    /// folder, where a build writes none).
    private let followsLinks: Bool
    /// The folder's own location, links resolved, for a path `openat2` cannot take; only
    /// wanted where links are followed.
    private let realRoot: String?

    /// - Parameter followsLinks: whether a link that stays inside the folder is followed. The
    ///   folder itself may be a link either way, as the site or output folder the user named.
    package convenience init(path: String, followsLinks: Bool = true) { self.init(path: path, followsLinks: followsLinks, usesOpenat2: true) }

    init(path: String, followsLinks: Bool = true, usesOpenat2: Bool) {
        self.path = path
        descriptor = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        openError = descriptor < 0 ? errno : 0
        self.followsLinks = followsLinks
        realRoot = followsLinks ? FileInfo.realPath(path) : nil
        beneath = usesOpenat2
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// The regular file at `relative` (no leading `/`), read as `FileInfo` reads, with its status
    /// as opened; a failure saying so when the path leads outside the folder (or, where no link
    /// is followed, steps through `.` or `..`).
    package func read(_ relative: String, maxBytes: Int) -> Result<(bytes: [UInt8], status: FileStatus), FileInfo.ReadFailure> {
        let fd = openFile(relative)
        if fd < 0 && errno == EXDEV {
            return .failure(.unreadable(followsLinks ? "it leads outside the site folder" : "not a path below the folder"))
        }
        return FileInfo.read(fd, maxBytes: maxBytes)
    }

    /// A descriptor for reading the file at `relative`, or -1 with `errno` set (EXDEV: outside).
    func openFile(_ relative: String) -> Int32 {
        guard descriptor >= 0 else {
            errno = openError
            return -1
        }
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC
        if !followsLinks {
            // No step up or in place either: a listing of the folder names none.
            guard !relative.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else {
                errno = EXDEV
                return -1
            }
            guard beneath else { return FileInfo.openWithoutLinks(relative, from: descriptor) }
            let fd = daybook_open_beneath(descriptor, relative, flags, 1)
            return fd < 0 && errno == ENOSYS ? FileInfo.openWithoutLinks(relative, from: descriptor) : fd
        }
        if beneath {
            var fd = daybook_open_beneath(descriptor, relative, flags, 0)
            // The kernel asks for another try when a rename elsewhere raced the resolution.
            for _ in 0..<2 where fd < 0 && errno == EAGAIN { fd = daybook_open_beneath(descriptor, relative, flags, 0) }
            // EXDEV also refuses an absolute link, even one that stays inside: resolved below.
            guard fd < 0, errno == EXDEV || errno == ENOSYS else { return fd }
        }
        // The path resolved once, checked, and opened again with no link on the way: a folder
        // swapped for a link since the check makes the open fail rather than follow it.
        guard let real = FileInfo.realPath(path + "/" + relative) else { return -1 }
        guard let inner = realRoot.flatMap({ FileInfo.path(of: real, below: $0) }) else {
            errno = EXDEV
            return -1
        }
        if beneath {
            let fd = daybook_open_beneath(descriptor, inner, flags, 1)
            if fd >= 0 || errno != ENOSYS { return fd }
        }
        return FileInfo.openWithoutLinks(inner, from: descriptor)
    }
}
